// Serving published sites from the same server as the API. A request whose Host names a site
// (`{subdomain}.{SITES_DOMAIN}` or an active custom domain) is answered here, before any API
// hook or route runs: it never reaches /api/v1, its cookies are ignored and no cookie is set.
// Preview links (`/preview/{projectId}/{expires}/{signature}/...` on the API host) serve a
// project's current files to anyone holding a valid, unexpired link.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/context.ts';
import { prepareQuery } from '../../db/prepared.ts';
import { sha256 } from '../files/content.ts';
import type { PreviewSigner } from '../publish/preview.ts';
import { findSiteFile } from './paths.ts';
import { HostResolver } from './resolve-host.ts';
import { SiteFileCache, type CachedFile } from './site-files.ts';

const NOT_FOUND_PAGE = Buffer.from('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>There is no page here.</p></body></html>\n');
const NO_SITE_PAGE = Buffer.from('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site not found</title></head><body><h1>Site not found</h1><p>No website is published at this address.</p></body></html>\n');
const PREVIEW_PATH = /^\/preview\/([0-9a-f-]{36})\/(\d{1,12})\/([A-Za-z0-9_-]{32})(\/.*)?$/;

export interface SiteHosting {
  resolver: HostResolver;
  files: SiteFileCache;
}

export function registerSiteHosting(app: FastifyInstance, ctx: AppContext, preview: PreviewSigner): SiteHosting {
  const apiHost = new URL(ctx.config.publicUrl).host.toLowerCase();
  const resolver = new HostResolver(ctx.database, ctx.config.sites, apiHost);
  const files = new SiteFileCache(ctx.database);
  const currentFile = prepareQuery<{ projectId: string; path: string }, { content: Buffer; content_type: string }>(ctx.database, (p) =>
    ctx.database.db.selectFrom('project_files').select(['content', 'content_type']).where('project_id', '=', p('projectId')).where('path', '=', p('path')),
  );

  app.addHook('onRequest', async (request, reply) => {
    const host = resolver.normalise(request.headers.host);
    const target = await resolver.resolve(host);
    if (target === undefined) {
      const match = PREVIEW_PATH.exec(request.url.split('?')[0]!);
      if (!match) return;
      await servePreview(request, reply, match, preview, async (projectId, path) => {
        const row = await currentFile.first({ projectId, path });
        return row ? { content: Buffer.from(row.content), contentType: row.content_type, etag: `"${sha256(Buffer.from(row.content)).slice(0, 32)}"` } : null;
      });
      return reply;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      reply.code(405).header('allow', 'GET, HEAD').type('text/plain; charset=utf-8').send('Method not allowed\n');
      return reply;
    }
    if (!target?.deploymentId) {
      reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NO_SITE_PAGE);
      return reply;
    }
    const deploymentId = target.deploymentId;
    const found = await findSiteFile(request.url, (path) => files.get(deploymentId, path));
    send(request, reply, found.file, found.status, files, 'public');
    return reply;
  });

  return { resolver, files };
}

async function servePreview(
  request: FastifyRequest,
  reply: FastifyReply,
  [, projectId, expires, signature, rest]: RegExpExecArray,
  signer: PreviewSigner,
  lookup: (projectId: string, path: string) => Promise<CachedFile | null>,
): Promise<void> {
  if (!(await signer.verify(projectId!, Number(expires), signature!))) {
    reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
    return;
  }
  if (rest === undefined) {
    // Relative links in the site resolve against the directory: always serve from under the slash.
    reply.redirect(`${request.url.split('?')[0]}/`, 301);
    return;
  }
  const found = await findSiteFile(rest, (path) => lookup(projectId!, path));
  reply.header('x-robots-tag', 'noindex');
  send(request, reply, found.file, found.status, undefined, 'private');
}

function send(request: FastifyRequest, reply: FastifyReply, file: CachedFile | null, status: 200 | 404, cache: SiteFileCache | undefined, scope: 'public' | 'private'): void {
  reply.header('x-content-type-options', 'nosniff');
  if (!file) {
    reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
    return;
  }
  const html = file.contentType.startsWith('text/html');
  reply.header('etag', file.etag).header('vary', 'Accept-Encoding');
  reply.header('cache-control', scope === 'private' ? 'private, no-cache' : html ? 'public, max-age=0, must-revalidate' : 'public, max-age=300');
  if (status === 200 && request.headers['if-none-match'] === file.etag) {
    reply.code(304).send();
    return;
  }
  const { body, encoding } = cache ? cache.encode(file, request.headers['accept-encoding']) : { body: file.content, encoding: undefined };
  if (encoding) reply.header('content-encoding', encoding);
  reply.code(status).type(file.contentType).send(body);
}
