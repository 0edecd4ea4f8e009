// The builder page (`/app/projects/{id}`, the project's builder_url) and what its script reads:
// a generation's progress as server-sent events, the project's state (to reload the preview when
// a new version appears, and the AI messages counter) and a file's content for the code editor. Access: builder/scope.ts.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { resumeAfter, writeEventStream } from '../../lib/sse.ts';
import type { RouteDeps } from '../deps.ts';
import { render } from '../page.ts';
import type { BuilderMount, BuilderParams } from '../builder/mount.ts';
import { isUuid } from '../../lib/ids.ts';
import { loadWorkspace, type WorkspaceQuery } from '../builder/workspace.ts';
import { idFromUrl } from '../ids.ts';

type ProjectParams = BuilderParams;

export function builderRoutes(deps: RouteDeps, mount: BuilderMount): FastifyPluginAsync {
  const { services } = deps;
  const { generations, versions, files } = services;
  return async (app) => {
    app.get<{ Params: ProjectParams; Querystring: WorkspaceQuery }>(mount.route, async (request, reply) => {
      const scope = await mount.scope(request, reply, request.params);
      const workspace = await loadWorkspace(services, scope, request.query);
      return render(request, reply, 'builder', {
        title: `${scope.project.name} — builder`,
        scope,
        project: scope.project,
        ...workspace,
      });
    });

    // The preview pane alone, where the embeddable builder mounts it: the publish API's
    // embed_preview_path (a signed-in member or client; with `?session=`, an embed session's
    // preview_url, which goes through the frame's handshake first) and a frame's own.
    app.get<{ Params: ProjectParams; Querystring: { session?: string } }>(
      mount.paneRoute,
      async (request, reply) => {
        const sid = request.query.session;
        if (request.params.sid === undefined && sid && isUuid(sid))
          return reply.redirect(
            `/embed/s/${sid.toLowerCase()}?pane=preview&project=${request.params.id}`,
            303,
          );
        return pane(request, reply);
      },
    );

    const pane = async (request: FastifyRequest<{ Params: ProjectParams }>, reply: FastifyReply) => {
      const scope = await mount.scope(request, reply, request.params, true);
      const workspace = await loadWorkspace(services, scope, {});
      return render(request, reply, 'builder-embed', {
        title: `${scope.project.name} — preview`,
        scope,
        project: scope.project,
        ...workspace,
      });
    };

    app.get<{ Params: ProjectParams & { gid: string }; Querystring: { after?: string } }>(
      `${mount.route}/generations/:gid/events`,
      async (request, reply) => {
        const { principal: asking, project } = await mount.scope(request, reply, request.params, true);
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

    app.get<{ Params: ProjectParams }>(`${mount.route}/state`, async (request, reply) => {
      const { principal: asking, project } = await mount.scope(request, reply, request.params, true);
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
      `${mount.route}/file`,
      async (request, reply) => {
        const { principal: asking, project } = await mount.scope(request, reply, request.params, true);
        const file = await files.get(asking, project.id, request.query.path ?? '');
        return reply.header('cache-control', 'no-store').send({ file });
      },
    );

    // A picture of the project's files on the builder's own origin (its CSP takes images from
    // itself only): the shared-link card and image choices show it. Raster images only: an SVG
    // opened from here would run as a page of this origin.
    // `?thumb=1`: a small WebP copy of it (made once and kept like a site's, images/copies.ts),
    // for choosing among the project's pictures (Replace image).
    app.get<{ Params: ProjectParams; Querystring: { path?: string; thumb?: string } }>(
      `${mount.route}/image`,
      async (request, reply) => {
        const { principal: asking, project } = await mount.scope(request, reply, request.params, true);
        const file = await files.get(asking, project.id, request.query.path ?? '');
        if (!RASTER.test(file.content_type) || file.encoding !== 'base64')
          return reply.status(404).type('text/plain; charset=utf-8').send('Not an image');
        const original: { content: Buffer; contentType: string; etag: string; sha256: string } = {
          content: Buffer.from(file.content, 'base64'),
          contentType: file.content_type,
          etag: `"${file.sha256.slice(0, 32)}"`,
          sha256: file.sha256,
        };
        let sent = original;
        if (request.query.thumb === '1') {
          const plan = await services.sites.imageCopyPlan(file.path, original, THUMB_WIDTH, 'image/webp');
          const copy = plan && (await services.sites.imageCopy(file.path, original, plan));
          if (copy === 'busy')
            return reply
              .status(503)
              .header('retry-after', '5')
              .type('text/plain; charset=utf-8')
              .send('Busy');
          sent = copy ? { ...copy, sha256: file.sha256 } : original;
        }
        reply
          .header('cache-control', 'private, no-cache')
          .header('etag', sent.etag)
          .header('content-security-policy', "default-src 'none'");
        if (request.headers['if-none-match'] === sent.etag) return reply.status(304).send();
        return reply.type(sent.contentType).send(sent.content);
      },
    );
  };
}

const RASTER = /^image\/(?:png|jpeg|webp|gif|avif)$/;
/** Over twice the width a choice shows it at (120), for sharp screens: a stock width of copies. */
const THUMB_WIDTH = 320;
