// The builder page (`/app/projects/{id}`, the project's builder_url) and what its script reads:
// a generation's progress as server-sent events, the project's state (to reload the preview when
// a new version appears, and the AI messages counter) and a file's content for the code editor. Access: builder/scope.ts.
import type { FastifyPluginAsync } from 'fastify';
import { resumeAfter, writeEventStream } from '../../lib/sse.ts';
import type { RouteDeps } from '../deps.ts';
import { render } from '../page.ts';
import { builderScope } from '../builder/scope.ts';
import { loadWorkspace, type WorkspaceQuery } from '../builder/workspace.ts';
import { idFromUrl } from '../ids.ts';

type ProjectParams = { id: string };

export function builderRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { services } = deps;
  const { generations, versions, files } = services;
  return async (app) => {
    app.get<{ Params: ProjectParams; Querystring: WorkspaceQuery }>(
      '/app/projects/:id',
      async (request, reply) => {
        const scope = await builderScope(request, services, request.params.id);
        const workspace = await loadWorkspace(services, scope, request.query);
        return render(request, reply, 'builder', {
          title: `${scope.project.name} — builder`,
          scope,
          project: scope.project,
          ...workspace,
        });
      },
    );

    // The preview pane alone, where the embeddable builder mounts it (the preview's
    // embed_preview_path); the same people may open it.
    app.get<{ Params: ProjectParams }>('/embed/projects/:id/preview', async (request, reply) => {
      const scope = await builderScope(request, services, request.params.id);
      const workspace = await loadWorkspace(services, scope, {});
      return render(request, reply, 'builder-embed', {
        title: `${scope.project.name} — preview`,
        scope,
        project: scope.project,
        ...workspace,
      });
    });

    app.get<{ Params: ProjectParams & { gid: string }; Querystring: { after?: string } }>(
      '/app/projects/:id/generations/:gid/events',
      async (request, reply) => {
        const { principal: asking, project } = await builderScope(request, services, request.params.id);
        const ref = { projectId: project.id, generationId: idFromUrl(request.params.gid, 'Generation') };
        await generations.get(asking, ref); // the 404 page before the stream starts
        const after = resumeAfter(
          request.headers['last-event-id'],
          Number(/^\d{1,10}$/.test(request.query.after ?? '') ? request.query.after : 0),
        );
        reply.hijack();
        await writeEventStream(
          reply.raw,
          {},
          (signal) => generations.follow(asking, ref, after, signal),
          (error) => request.log.error({ err: error }, 'event stream failed'),
        );
      },
    );

    app.get<{ Params: ProjectParams }>('/app/projects/:id/state', async (request, reply) => {
      const { principal: asking, project } = await builderScope(request, services, request.params.id);
      const [latest, list, allowance] = await Promise.all([
        versions.latest(asking, project.id),
        generations.list(asking, project.id, 1, 0),
        generations.dailyAllowance(asking, project.id),
      ]);
      const last = list.generations[0];
      return reply.header('cache-control', 'no-store').send({
        version: latest
          ? { id: latest.id, number: latest.number, summary: latest.summary, source: latest.source }
          : null,
        generation: last ? { id: last.id, status: last.status } : null,
        // The client's AI messages today, so the page's counter follows every message (null: no limit).
        allowance: allowance
          ? {
              plan: allowance.plan,
              limit: allowance.limit,
              used: allowance.used,
              renews_at: allowance.renewsAt,
            }
          : null,
        published_url: project.published_url,
        last_published_at: project.last_published_at,
      });
    });

    app.get<{ Params: ProjectParams; Querystring: { path?: string } }>(
      '/app/projects/:id/file',
      async (request, reply) => {
        const { principal: asking, project } = await builderScope(request, services, request.params.id);
        const file = await files.get(asking, project.id, request.query.path ?? '');
        return reply.header('cache-control', 'no-store').send({ file });
      },
    );
  };
}
