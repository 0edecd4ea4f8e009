// The build link's pages: `/build?prompt=&model=&template=&org=` (or `?link=` from the API).
// Opening the link changes nothing: it shows what it asks for, and only a form posted with the
// CSRF token builds (a cross-site page or an <img> on another site cannot spend anyone's sites or
// AI messages). A signed-in client confirms; an agency member chooses the client; a signed-out
// visitor signs in on the page, or signs up as a new client when the organization allows it (the
// account exists once the mailed link is followed). Nothing is kept for a visitor who only
// looks: the request travels in the page's forms. Without a prompt, the page asks for one.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_LIMIT } from '../../modules/common/paging.ts';
import type { BuildRequest } from '../../modules/build-links/schema.ts';
import type { RouteDeps } from '../deps.ts';
import { validForm, optional, text, type Form } from '../forms.ts';
import {
  DomainError,
  InvalidInputError,
  NotAllowedError,
  RateLimitedError,
} from '../../modules/common/errors.ts';
import { CreateClientBody } from '../../modules/clients/schema.ts';
import { peopleWords, render } from '../page.ts';
import { NoOrganization, setSessionCookie } from '../session.ts';
import { idFromUrl } from '../ids.ts';
import { memberPrincipal, type Principal } from '../../modules/access/principal.ts';

type BuildQuery = { prompt?: string; model?: string; template?: string; org?: string; link?: string };
const CARRIED = ['link', 'prompt', 'model', 'template', 'org'] as const;

/** The request's own fields, to carry in the next form as hidden inputs. */
function carried(q: BuildQuery): [string, string][] {
  if (q.link) return [['link', q.link]];
  return CARRIED.filter((name) => name !== 'link' && q[name]).map((name) => [name, q[name]!]);
}

function fromForm(form: Form): BuildQuery {
  const q: BuildQuery = {};
  for (const name of CARRIED) {
    const value = name === 'prompt' ? text(form, name) : optional(form, name);
    if (value) q[name] = value;
  }
  return q;
}

export function buildRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { accounts, buildLinks, clients, orgs } = deps.services;
  const builder = (projectId: string) => `/app/projects/${projectId}`;
  const orgName = async (orgId: string | null) =>
    orgId ? ((await orgs.findOrg(orgId))?.name ?? null) : null;

  /** Starts the build for a client; a refusal (a plan limit) is a page in the person's words. */
  const startFor = async (
    request: FastifyRequest,
    reply: FastifyReply,
    orgId: string,
    clientId: string,
    build: BuildRequest,
    userId: string,
  ) => {
    try {
      const { project } = await buildLinks.start(orgId, clientId, build, { userId });
      return reply.redirect(builder(project.id), 303);
    } catch (error) {
      if (!(error instanceof NotAllowedError || error instanceof RateLimitedError) || !error.plain)
        throw error;
      if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
      return render(
        request,
        reply,
        'error',
        { title: 'Your website cannot be built yet', message: peopleWords(request, error) },
        error instanceof RateLimitedError ? 429 : 403,
      );
    }
  };

  const visitorPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    q: BuildQuery,
    build: BuildRequest,
    extra: { form?: Record<string, string>; error?: string; status?: number } = {},
  ) => {
    const signUps = build.orgId ? await buildLinks.allowsSignUp(build.orgId) : false;
    const data = {
      title: 'Build your website',
      prompt: build.prompt,
      agency: await orgName(build.orgId),
      signUps,
      fields: carried(q),
      form: extra.form ?? {},
      error: extra.error,
    };
    return render(request, reply, 'build-visitor', data, extra.status ?? 200);
  };

  const choosePage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    asking: Principal,
    q: BuildQuery,
    build: BuildRequest,
    extra: { form?: Form; error?: string } = {},
  ) => {
    const list = await clients.search(asking, {}, MAX_LIMIT, 0);
    const data = {
      title: 'Who is this website for?',
      prompt: build.prompt,
      fields: carried(q),
      clients: list.clients,
      form: extra.form ?? {},
      error: extra.error,
    };
    return render(request, reply, 'build-choose', data, extra.error ? 400 : 200);
  };

  /** What a visit asks for, checked as far as it can be before anyone signs in. */
  const understood = async (q: BuildQuery) => {
    const build = await buildLinks.fromQuery(q);
    if (build.orgId) await buildLinks.check(build.orgId, build);
    else await buildLinks.checkModel(null, build);
    return build;
  };

  /** A visit: `confirmed` when a form of ours was posted (then a signed-in client's build starts). */
  const visit = async (request: FastifyRequest, reply: FastifyReply, q: BuildQuery, confirmed: boolean) => {
    if (!q.link && !(q.prompt ?? '').trim()) return askForPrompt(request, reply, q);
    const build = await understood(q);
    const who = request.signedIn;
    if (!who) return visitorPage(request, reply, q, build);
    // A client billing has suspended may pay, and nothing else (no new builds).
    if (who.client?.paymentRequired && !who.org) return reply.redirect('/portal/billing', 303);
    if (who.client && !who.org) {
      await buildLinks.check(who.client.orgId, build);
      if (confirmed) return startFor(request, reply, who.client.orgId, who.client.id, build, who.user.id);
      return render(request, reply, 'build-confirm', {
        title: 'Build this website?',
        prompt: build.prompt,
        fields: carried(q),
        agency: who.client.orgName,
      });
    }
    if (!who.org) throw new NoOrganization();
    await buildLinks.check(who.org.id, build);
    return choosePage(request, reply, memberPrincipal(who)!, q, build);
  };

  return async (app) => {
    app.get<{ Querystring: BuildQuery }>('/build', async (request, reply) =>
      visit(request, reply, request.query, false),
    );
    // The page's own forms post here (the prompt form, a client's confirmation): a long prompt
    // does not fit in a URL, and only a form of ours starts a build.
    app.post<{ Body: Form }>('/build', async (request, reply) =>
      visit(request, reply, fromForm(request.body ?? {}), true),
    );

    // An agency member chose the client (or a new one): the same start as a client's own.
    app.post<{ Body: Form }>('/build/start', async (request, reply) => {
      const who = request.signedIn;
      if (!who?.org) throw new NoOrganization();
      const form = request.body ?? {};
      const q = fromForm(form);
      const build = await buildLinks.fromQuery(q);
      await buildLinks.check(who.org.id, build);
      const chosen = optional(form, 'client_id');
      let clientId: string;
      try {
        clientId =
          chosen && chosen !== 'new'
            ? (await clients.get(memberPrincipal(who)!, idFromUrl(chosen, 'Client'))).id
            : (
                await clients.create(
                  memberPrincipal(who)!,
                  validForm(CreateClientBody, {
                    email: text(form, 'new_email').trim(),
                    name: optional(form, 'new_name') ?? null,
                  }),
                )
              ).id;
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return choosePage(request, reply, memberPrincipal(who)!, q, build, { form, error: error.message });
      }
      return startFor(request, reply, who.org.id, clientId, build, who.user.id);
    });

    // A visitor signs in on the link's page: a client's build starts at once (the form was the
    // confirmation), a member chooses the client next.
    app.post<{ Body: Form }>('/build/sign-in', async (request, reply) => {
      const form = request.body ?? {};
      const q = fromForm(form);
      const build = await understood(q);
      const email = text(form, 'email');
      let token: string;
      try {
        token = (await accounts.signIn(email, text(form, 'password'), request.ip)).token;
      } catch (error) {
        if (!(error instanceof InvalidInputError || error instanceof NotAllowedError)) throw error;
        return visitorPage(request, reply, q, build, {
          form: { email, signin: '1' },
          error: error.message,
          status: error instanceof NotAllowedError ? 403 : 400,
        });
      }
      setSessionCookie(reply, token, deps.cookies);
      request.signedIn = (await accounts.resolveSession(token)) ?? null;
      return visit(request, reply, q, true);
    });

    // A visitor signs up through an organization's build link: kept until the mailed link is followed.
    app.post<{ Body: Form }>('/build/sign-up', async (request, reply) => {
      const form = request.body ?? {};
      const q = fromForm(form);
      const build = await understood(q);
      if (!build.orgId) throw new NoOrganization();
      const input = {
        email: text(form, 'email'),
        password: text(form, 'password'),
        name: optional(form, 'name') ?? null,
      };
      try {
        const { email } = await buildLinks.signUp(build.orgId, input, build, request.ip);
        return render(request, reply, 'sign-up-sent', {
          title: 'Check your email',
          email,
          build: true,
          agency: await orgName(build.orgId),
        });
      } catch (error) {
        if (!(error instanceof DomainError) || error instanceof RateLimitedError) throw error;
        const status = error instanceof NotAllowedError ? 403 : 400;
        return visitorPage(request, reply, q, build, {
          form: { email: input.email, name: input.name ?? '' },
          error: error.message,
          status,
        });
      }
    });
  };

  async function askForPrompt(request: FastifyRequest, reply: FastifyReply, q: BuildQuery) {
    const agency = q.org && /^[0-9a-f-]{36}$/i.test(q.org) ? await orgName(q.org) : null;
    return render(request, reply, 'build-prompt', {
      title: 'Build your website',
      agency,
      org: agency ? q.org : '',
      template: q.template ?? '',
      model: q.model ?? '',
    });
  }
}
