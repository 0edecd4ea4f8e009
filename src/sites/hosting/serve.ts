// Serving published sites from the same server as the API. A request whose Host names a site
// (`{subdomain}.{SITES_DOMAIN}` or an active custom domain) is answered here, on the raw Node
// request, before Fastify sees it: it never reaches /api/v1, its cookies are ignored and no
// cookie is set, and it pays for no API machinery. Preview links
// (`/preview/{projectId}/{expires}/{signature}/...` on the API host) serve a project's current
// files to anyone holding a valid, unexpired link.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../../http/context.ts';
import { prepareQuery } from '../../db/prepared.ts';
import { sha256 } from '../files/content.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { PageViewCapture } from '../analytics/capture.ts';
import { BEACON_PREFIX, handleBeacon } from '../analytics/beacon.ts';
import { FORM_PATH, handleForm } from '../forms/submit.ts';
import { findSiteFile, type Found } from './paths.ts';
import { HostResolver, MISS, type SiteTarget } from './resolve-host.ts';
import { SiteFileCache, type CachedFile } from './site-files.ts';

const NOT_FOUND_PAGE = Buffer.from('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>There is no page here.</p></body></html>\n');
const NO_SITE_PAGE = Buffer.from('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site not found</title></head><body><h1>Site not found</h1><p>No website is published at this address.</p></body></html>\n');
const PREVIEW_PATH = /^\/preview\/([0-9a-f-]{36})\/(\d{1,12})\/([A-Za-z0-9_-]{32})(\/.*)?$/;

type Headers = Record<string, string | number>;
/** URL resolutions remembered per process; the map starts over when full. */
const MAX_RESOLVED = 50_000;
const PREVIEW_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

export interface SiteLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface SiteHandler {
  /** Answers site, form and preview requests (true, or a promise of it); false for everything else. */
  handle(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
  capture: PageViewCapture;
  /** Flushes captured page views and closes the form rate limiter. */
  close(): Promise<void>;
}

/**
 * Returns the request handler to put in front of Fastify's: it answers site and preview requests
 * and returns (a promise of) true, or false for everything else, synchronously for the API's own
 * host so that API requests pay nothing for it.
 */
export function createSiteHandler(ctx: AppContext, log?: SiteLogger): SiteHandler {
  const apiHost = new URL(ctx.config.publicUrl).host.toLowerCase();
  const resolver = new HostResolver(ctx.database, ctx.config.sites, apiHost);
  const files = new SiteFileCache(ctx.database);
  const resolved = new Map<string, Found<CachedFile>>();
  const { sites } = ctx.config;
  const capture = new PageViewCapture(
    {
      database: { dataDir: ctx.config.dataDir, databaseUrl: ctx.config.databaseUrl, sqliteSynchronous: ctx.config.sqliteSynchronous },
      flushMs: sites.analyticsFlushMs,
      rawRetentionDays: sites.analyticsRawRetentionDays,
    },
    log,
  );
  const formLimiter = new RateLimiter({
    quota: sites.formRateLimit,
    windowSeconds: Math.max(1, Math.round(sites.formRateWindowMs / 1000)),
    redisUrl: ctx.config.redisUrl,
    keyPrefix: 'sw:forms',
  });
  const clientIp = (req: IncomingMessage): string => {
    const forwarded = sites.trustProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',')[0]!.trim() : '';
    return forwarded || req.socket.remoteAddress || '';
  };
  // A page view: a page sent whole, or a navigation the beacon posted.
  const recordView = (target: SiteTarget, host: string, req: IncomingMessage, url: string): void =>
    capture.record({
      orgId: target.orgId, projectId: target.projectId, host, url,
      referer: req.headers.referer, userAgent: req.headers['user-agent'], ip: clientIp(req), at: Date.now(),
    });
  const currentFile = prepareQuery<{ projectId: string; path: string }, { content: Buffer; content_type: string }>(ctx.database, (p) =>
    ctx.database.db.selectFrom('project_files').select(['content', 'content_type']).where('project_id', '=', p('projectId')).where('path', '=', p('path')),
  );
  const lookupCurrent = async (projectId: string, path: string): Promise<CachedFile | null> => {
    const row = await currentFile.first({ projectId, path });
    if (!row) return null;
    const content = Buffer.from(row.content);
    return { content, contentType: row.content_type, etag: `"${sha256(content).slice(0, 32)}"` };
  };

  return {
    handle: (req, res) => {
      const host = resolver.normalise(req.headers.host);
      if (!resolver.mayBeSite(host) && !req.url?.startsWith('/preview/')) return false;
      return serve(host, req, res);
    },
    capture,
    close: async () => {
      await capture.close();
      await formLimiter.close();
    },
  };

  async function serve(host: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = req.url ?? '/';
    try {
      const path = url.split('?')[0]!;
      const remembered = resolver.cached(host);
      const target = remembered === MISS ? await resolver.resolve(host) : remembered;
      if (target === undefined) {
        const match = PREVIEW_PATH.exec(path);
        if (!match) return false;
        await servePreview(req, res, match, ctx, lookupCurrent);
        return true;
      }
      const form = FORM_PATH.exec(path);
      if (form && target?.deploymentId) {
        await handleForm(req, res, form, target, clientIp(req), { database: ctx.database, sites, limiter: formLimiter });
        return true;
      }
      if (path.startsWith(BEACON_PREFIX) && target?.deploymentId) {
        const site = target;
        await handleBeacon(req, res, path, sites.analyticsCapture ? (viewed) => recordView(site, host, req, viewed) : undefined);
        return true;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
        return true;
      }
      if (!target?.deploymentId) {
        page(res, 404, NO_SITE_PAGE);
        return true;
      }
      const deploymentId = target.deploymentId;
      // Deployments never change: how a URL resolves in one is remembered too.
      const key = `${deploymentId}\u0000${path}`;
      let found = resolved.get(key);
      if (!found) {
        found = await findSiteFile(url, (path) => files.get(deploymentId, path));
        if (resolved.size >= MAX_RESOLVED) resolved.clear();
        resolved.set(key, found);
      }
      send(req, res, found.file, found.status, files, 'public');
      // A page view: an HTML page sent whole to a GET (not HEAD, not a 304, not a 404 page, not an asset).
      if (sites.analyticsCapture && req.method === 'GET' && res.statusCode === 200 && found.file?.contentType.startsWith('text/html')) {
        recordView(target, host, req, url);
      }
    } catch (error) {
      log?.error({ err: error, host: req.headers.host, url }, 'serving a site failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal server error\n');
    }
    return true;
  }
}

async function servePreview(
  req: IncomingMessage,
  res: ServerResponse,
  [, projectId, expires, signature, rest]: RegExpExecArray,
  ctx: AppContext,
  lookup: (projectId: string, path: string) => Promise<CachedFile | null>,
): Promise<void> {
  if (!(await ctx.preview.verify(projectId!, Number(expires), signature!))) {
    page(res, 404, NOT_FOUND_PAGE);
    return;
  }
  if (rest === undefined) {
    // Relative links of the site resolve against the directory: always serve from under the slash.
    res.writeHead(301, { location: `${req.url!.split('?')[0]}/` }).end();
    return;
  }
  const found = await findSiteFile(rest, (path) => lookup(projectId!, path));
  // Previews live on the API's own host: sandboxed, the site's pages get an opaque origin, so their
  // scripts can neither read that host's cookies nor call it with them.
  send(req, res, found.file, found.status, undefined, 'private', { 'x-robots-tag': 'noindex', 'content-security-policy': PREVIEW_CSP });
}

function page(res: ServerResponse, status: number, body: Buffer): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store' }).end(body);
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  file: CachedFile | null,
  status: 200 | 404,
  cache: SiteFileCache | undefined,
  scope: 'public' | 'private',
  extra: Headers = {},
): void {
  if (!file) {
    page(res, 404, NOT_FOUND_PAGE);
    return;
  }
  const html = file.contentType.startsWith('text/html');
  const headers: Headers = {
    ...extra,
    'content-type': file.contentType,
    etag: file.etag,
    vary: 'Accept-Encoding',
    'cache-control': scope === 'private' ? 'private, no-cache' : html ? 'public, max-age=0, must-revalidate' : 'public, max-age=300',
    'x-content-type-options': 'nosniff',
  };
  if (status === 200 && matchesEtag(req.headers['if-none-match'], file.etag)) {
    res.writeHead(304, headers).end();
    return;
  }
  const { body, encoding } = cache ? cache.encode(file, req.headers['accept-encoding']) : { body: file.content, encoding: undefined };
  if (encoding) headers['content-encoding'] = encoding;
  headers['content-length'] = body.length;
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** If-None-Match as RFC 9110 reads it: `*`, or a list of tags compared weakly (W/ ignored). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
