// The build link's pages: `/build?prompt=&model=&template=&org=` (or `?link=` from the API, or
// `?pending=` when a visitor comes back from signing in). A signed-in client gets its project and
// the builder at once; an agency member chooses the client first; a signed-out visitor signs up
// (as a new client, when the organization allows it) or signs in, and the visit resumes with the
// prompt kept on the server. Without a prompt, the page asks for one.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_LIMIT } from '../../modules/common/paging.ts';
import type { BuildRequest } from '../../modules/build-links/schema.ts';
import type { RouteDeps } from '../plugin.ts';
import { checked, optional, text, type Form } from '../forms.ts';
import { DomainError, InvalidInputError, NotAllowedError, RateLimitedError } from '../../modules/common/errors.ts';
import { CreateClientBody } from '../../modules/clients/schema.ts';
import { render } from '../page.ts';
import { NoOrganization, setSessionCookie } from '../session.ts';
import { idFromUrl } from '../ids.ts';

type BuildQuery = { prompt?: string; model?: string; template?: string; org?: string; link?: string; pending?: string };

export function buildRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { buildLinks, clients, orgs } = deps.services;
  const builder = (projectId: string) => `/app/projects/${projectId}`;

  /** Starts the build for a client and opens the builder on it. */
  const startFor = async (reply: FastifyReply, orgId: string, clientId: string, request: BuildRequest, userId: string, pending?: string) => {
    const { project } = await buildLinks.start(orgId, clientId, request, { userId });
    if (pending) await buildLinks.forget(pending);
    return reply.redirect(builder(project.id), 303);
  };

  const orgName = async (orgId: string | null) => (orgId ? ((await orgs.findOrg(orgId))?.name ?? null) : null);

  return async (app) => {
    app.get<{ Querystring: BuildQuery }>('/build', async (request, reply) => visit(request, reply, request.query));
    // The page's own prompt form posts here: a long prompt does not fit in a URL.
    app.post<{ Body: Form }>('/build', async (request, reply) => {
      const form = request.body ?? {};
      const field = (name: string) => optional(form, name);
      return visit(request, reply, { prompt: text(form, 'prompt'), model: field('model'), template: field('template'), org: field('org') });
    });

    const visit = async (request: FastifyRequest, reply: FastifyReply, q: BuildQuery) => {
      if (!q.link && !q.pending && !(q.prompt ?? '').trim()) return askForPrompt(request, reply, q);
      const build = await buildLinks.fromQuery(q);
      const who = request.signedIn;
      if (!who) {
        const pending = q.pending ?? (await buildLinks.keepVisit(build));
        const signUps = build.orgId ? await buildLinks.allowsSignUp(build.orgId) : false;
        return render(request, reply, 'build-visitor', {
          title: 'Build your website',
          prompt: build.prompt,
          agency: await orgName(build.orgId),
          signUps,
          pending,
          form: {},
          next: `/build?pending=${pending}`,
        });
      }
      if (who.client && !who.org) {
        await buildLinks.check(who.client.orgId, build);
        return startFor(reply, who.client.orgId, who.client.id, build, who.user.id, q.pending);
      }
      if (!who.org) throw new NoOrganization();
      await buildLinks.check(who.org.id, build);
      const pending = q.pending ?? (await buildLinks.keepVisit(build));
      const list = await clients.search(who.org.id, {}, MAX_LIMIT, 0);
      return render(request, reply, 'build-choose', { title: 'Who is this website for?', prompt: build.prompt, pending, clients: list.clients, form: {} });
    };

    // An agency member chose the client (or a new one): the same start as a client's own visit.
    app.post<{ Body: Form }>('/build/start', async (request, reply) => {
      const who = request.signedIn;
      if (!who?.org) throw new NoOrganization();
      const form = request.body ?? {};
      const pending = text(form, 'pending');
      const build = await buildLinks.fromQuery({ pending });
      await buildLinks.check(who.org.id, build);
      const chosen = optional(form, 'client_id');
      let clientId: string;
      try {
        clientId = chosen && chosen !== 'new'
          ? (await clients.get(who.org.id, idFromUrl(chosen, 'Client'))).id
          : (await clients.create(who.org.id, checked(CreateClientBody, { email: text(form, 'new_email').trim(), name: optional(form, 'new_name') ?? null }))).id;
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        const list = await clients.search(who.org.id, {}, MAX_LIMIT, 0);
        return render(request, reply, 'build-choose', { title: 'Who is this website for?', prompt: build.prompt, pending, clients: list.clients, form, error: error.message }, 400);
      }
      return startFor(reply, who.org.id, clientId, build, who.user.id, pending);
    });

    // A visitor signs up through an organization's build link: a new active client, signed in.
    app.post<{ Body: Form }>('/build/sign-up', async (request, reply) => {
      const form = request.body ?? {};
      const pending = text(form, 'pending');
      const build = await buildLinks.fromQuery({ pending });
      if (!build.orgId) throw new NoOrganization();
      const input = { email: text(form, 'email'), password: text(form, 'password'), name: optional(form, 'name') ?? null };
      let signedUp;
      try {
        signedUp = await buildLinks.signUp(build.orgId, input);
      } catch (error) {
        if (!(error instanceof DomainError) || error instanceof RateLimitedError) throw error;
        return render(request, reply, 'build-visitor', {
          title: 'Build your website', prompt: build.prompt, agency: await orgName(build.orgId), signUps: true, pending,
          form: { email: input.email, name: input.name ?? '' }, next: `/build?pending=${pending}`, error: error.message,
        }, error instanceof NotAllowedError ? 403 : 400);
      }
      const { user, clientId } = signedUp;
      const token = await deps.services.accounts.openSession(user.id, null);
      setSessionCookie(reply, token, deps.cookies);
      return startFor(reply, build.orgId, clientId, build, user.id, pending);
    });
  };

  async function askForPrompt(request: FastifyRequest, reply: FastifyReply, q: BuildQuery) {
    const agency = q.org && /^[0-9a-f-]{36}$/i.test(q.org) ? await orgName(q.org) : null;
    return render(request, reply, 'build-prompt', { title: 'Build your website', agency, org: agency ? q.org : '', template: q.template ?? '', model: q.model ?? '' });
  }
}
