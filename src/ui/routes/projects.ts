// Projects: list with search, client and status filters and pages; create for a client; the
// project's page (edit, builder link, publish state and address, publish/unpublish, archive,
// delete with a confirmation step); its form submissions with delete and CSV export.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../../lib/ids.ts';
import { InvalidInputError, NotAllowedError, TooLargeError } from '../../modules/common/errors.ts';
import { MAX_LIMIT } from '../../modules/common/paging.ts';
import { CreateProjectBody, PROJECT_STATUSES, UpdateProjectBody } from '../../modules/projects/schema.ts';
import type { RouteDeps } from '../deps.ts';
import { validForm, nullable, optional, text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { pager, paging } from '../paging.ts';
import { requireSeat, seatPrincipal, type SignedInMember } from '../session.ts';
import { submissionsCsv } from '../csv.ts';
import { idFromUrl } from '../ids.ts';
import type { Principal } from '../../modules/access/principal.ts';

type Query = { q?: string; status?: string; client?: string; page?: string; form?: string };

export function projectRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { projects, clients, templates, publishing, forms } = deps.services;
  const newForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    asking: Principal,
    form: Record<string, unknown>,
    error?: string,
  ) => {
    const [clientPage, templateList] = await Promise.all([
      clients.search(asking, {}, MAX_LIMIT, 0),
      templates.list(asking, MAX_LIMIT, 0),
    ]);
    return render(
      request,
      reply,
      'project-new',
      { title: 'New project', form, clients: clientPage.clients, templates: templateList.records, error },
      error ? 400 : 200,
    );
  };
  const projectPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    asking: Principal,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) => {
    const project = await projects.get(asking, id);
    const client = project.org_client_id
      ? await clients.get(asking, project.org_client_id).catch(() => null)
      : null;
    return render(
      request,
      reply,
      'project',
      { title: project.name, project, client, statuses: PROJECT_STATUSES, ...extra },
      status,
    );
  };
  /** Domain refusals of a project action come back to its page as an error, with their status. */
  const refusal = (error: unknown): [string, number] | undefined => {
    if (error instanceof InvalidInputError) return [error.message, 400];
    if (error instanceof NotAllowedError) return [error.message, 403];
    if (error instanceof TooLargeError) return [error.message, 413];
    return undefined;
  };

  return async (app) => {
    app.get<{ Querystring: Query }>('/projects', async (request, reply) => {
      const seat = requireSeat(request);
      const q = (request.query.q ?? '').slice(0, 200);
      const status = (PROJECT_STATUSES as readonly string[]).includes(request.query.status ?? '')
        ? request.query.status
        : undefined;
      const clientId =
        request.query.client && isUuid(request.query.client) ? request.query.client.toLowerCase() : undefined;
      const p = paging(request.query);
      const [page, clientPage] = await Promise.all([
        projects.list(seatPrincipal(seat), { q, status, clientId }, p.limit, p.offset),
        clients.search(seatPrincipal(seat), {}, MAX_LIMIT, 0),
      ]);
      const clientNames = Object.fromEntries(clientPage.clients.map((c) => [c.id, c.name ?? c.email]));
      return render(request, reply, 'projects', {
        title: 'Projects',
        projects: page.projects,
        clients: clientPage.clients,
        clientNames,
        q,
        status,
        clientId,
        statuses: PROJECT_STATUSES,
        pager: pager(p, page.total, { q, status, client: clientId }),
      });
    });

    app.get<{ Querystring: { client?: string } }>('/projects/new', async (request, reply) => {
      const seat = requireSeat(request);
      return newForm(request, reply, seatPrincipal(seat), { client_email: request.query.client ?? '' });
    });
    app.post<{ Body: Form }>('/projects', async (request, reply) => {
      const seat = requireSeat(request);
      const form = request.body ?? {};
      try {
        const body = validForm(CreateProjectBody, {
          client_email: text(form, 'client_email').trim(),
          name: text(form, 'name'),
          ...(optional(form, 'description') ? { description: optional(form, 'description') } : {}),
          ...(optional(form, 'template_id') ? { template_id: optional(form, 'template_id') } : {}),
        });
        const project = await projects.create(seatPrincipal(seat), body);
        return redirectWith(reply, `/projects/${project.id}`, `Project ${project.name} created.`);
      } catch (error) {
        const known = refusal(error);
        if (!known) throw error;
        return newForm(request, reply, seatPrincipal(seat), form, known[0]);
      }
    });

    app.get<{ Params: { id: string } }>('/projects/:id', async (request, reply) => {
      const seat = requireSeat(request);
      return projectPage(request, reply, seatPrincipal(seat), idFromUrl(request.params.id, 'Project'));
    });
    app.post<{ Params: { id: string }; Body: Form }>('/projects/:id', async (request, reply) => {
      const seat = requireSeat(request);
      const id = idFromUrl(request.params.id, 'Project');
      const form = request.body ?? {};
      try {
        const tags = text(form, 'tags')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        await projects.update(
          seatPrincipal(seat),
          id,
          validForm(UpdateProjectBody, {
            name: text(form, 'name'),
            description: nullable(form, 'description'),
            tags,
          }),
        );
        return redirectWith(reply, `/projects/${id}`, 'Project saved.');
      } catch (error) {
        const known = refusal(error);
        if (!known) throw error;
        return projectPage(request, reply, seatPrincipal(seat), id, { error: known[0] }, known[1]);
      }
    });

    const action = (path: string, run: (seat: SignedInMember, id: string) => Promise<string>) =>
      app.post<{ Params: { id: string } }>(`/projects/:id/${path}`, async (request, reply) => {
        const seat = requireSeat(request);
        const id = idFromUrl(request.params.id, 'Project');
        try {
          return redirectWith(reply, `/projects/${id}`, await run(seat, id));
        } catch (error) {
          const known = refusal(error);
          if (!known) throw error;
          return projectPage(request, reply, seatPrincipal(seat), id, { error: known[0] }, known[1]);
        }
      });
    action(
      'publish',
      async (seat, id) => `Published at ${(await publishing.publish(seatPrincipal(seat), id)).url}`,
    );
    action('unpublish', async (seat, id) => {
      await publishing.unpublish(seatPrincipal(seat), id);
      return 'The site is offline.';
    });
    action('archive', async (seat, id) => {
      await projects.update(seatPrincipal(seat), id, { status: 'archived' });
      return 'Project archived.';
    });
    action('unarchive', async (seat, id) => {
      await projects.update(seatPrincipal(seat), id, { status: 'active' });
      return 'Project restored.';
    });

    app.get<{ Params: { id: string } }>('/projects/:id/delete', async (request, reply) => {
      const seat = requireSeat(request);
      const project = await projects.get(seatPrincipal(seat), idFromUrl(request.params.id, 'Project'));
      return render(request, reply, 'confirm', {
        title: `Delete ${project.name}?`,
        message: `The project, its files, its published site and its form submissions are deleted. This cannot be undone.`,
        action: `/projects/${project.id}/delete`,
        button: 'Delete project',
        back: `/projects/${project.id}`,
      });
    });
    app.post<{ Params: { id: string } }>('/projects/:id/delete', async (request, reply) => {
      const seat = requireSeat(request);
      const project = await projects.get(seatPrincipal(seat), idFromUrl(request.params.id, 'Project'));
      await projects.delete(seatPrincipal(seat), project.id);
      return redirectWith(reply, '/projects', `Project ${project.name} deleted.`);
    });

    app.get<{ Params: { id: string }; Querystring: Query }>(
      '/projects/:id/submissions',
      async (request, reply) => {
        const seat = requireSeat(request);
        const project = await projects.get(seatPrincipal(seat), idFromUrl(request.params.id, 'Project'));
        const form = request.query.form && request.query.form.length <= 64 ? request.query.form : undefined;
        const p = paging(request.query);
        const page = await forms.list(seatPrincipal(seat), project.id, {
          limit: p.limit,
          offset: p.offset,
          ...(form ? { form } : {}),
        });
        return render(request, reply, 'submissions', {
          title: `Form submissions — ${project.name}`,
          project,
          submissions: page.submissions,
          form,
          pager: pager(p, page.total, { form }),
        });
      },
    );
    app.post<{ Params: { id: string; sid: string } }>(
      '/projects/:id/submissions/:sid/delete',
      async (request, reply) => {
        const seat = requireSeat(request);
        const id = idFromUrl(request.params.id, 'Project');
        await forms.delete(seatPrincipal(seat), {
          projectId: id,
          submissionId: idFromUrl(request.params.sid, 'Submission'),
        });
        return redirectWith(reply, `/projects/${id}/submissions`, 'Submission deleted.');
      },
    );
    app.get<{ Params: { id: string } }>('/projects/:id/submissions.csv', async (request, reply) => {
      const seat = requireSeat(request);
      const project = await projects.get(seatPrincipal(seat), idFromUrl(request.params.id, 'Project'));
      const all = [];
      for (let offset = 0; ; offset += MAX_LIMIT) {
        const page = await forms.list(seatPrincipal(seat), project.id, { limit: MAX_LIMIT, offset });
        all.push(...page.submissions);
        if (page.submissions.length < MAX_LIMIT || all.length >= 100_000) break;
      }
      const name = (project.subdomain ?? project.id).replace(/[^a-z0-9-]/gi, '');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}-submissions.csv"`)
        .header('cache-control', 'no-store')
        .send(submissionsCsv(all));
    });
  };
}
