// Serving published sites from the same server as the API. A request whose Host names a site
// (`{subdomain}.{SITES_DOMAIN}` or an active custom domain) is answered here, on the raw Node
// request, before Fastify sees it: it never reaches /api/v1, its cookies are ignored and no
// cookie is set, and it pays for no API machinery. Preview links
// (`/preview/{projectId}/{expires}/{signature}/...` on the API host) serve a project's current
// files to anyone holding a valid, unexpired link.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SitesSettings } from '../config.ts';
import type { PageViewCapture } from '../modules/analytics/capture.ts';
import type { FormsService } from '../modules/forms/service.ts';
import type { SitesService } from '../modules/publishing/sites.ts';
import { BEACON_PREFIX, handleBeacon } from './beacon.ts';
import { FORM_PATH, handleForm } from './forms.ts';
import { findSiteFile, type Found } from './site-paths.ts';
import { HostResolver, type SiteTarget } from './host-resolver.ts';
import { SiteFileCache, type CachedFile } from './site-file-cache.ts';

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
}

/** What the edge serves from: the core's services, and the settings of the sites. */
export interface EdgeDeps {
  sites: SitesService;
  forms: FormsService;
  capture: PageViewCapture;
  settings: SitesSettings;
  /** The API's own address (PUBLIC_URL): its host is never a site. */
  publicUrl: string;
}

/**
 * Returns the request handler to put in front of Fastify's: it answers site and preview requests
 * and returns (a promise of) true, or false for everything else, synchronously for the API's own
 * host so that API requests pay nothing for it.
 */
export function createSiteHandler(deps: EdgeDeps, log?: SiteLogger): SiteHandler {
  const apiHost = new URL(deps.publicUrl).host.toLowerCase();
  const resolver = new HostResolver(deps.sites, deps.settings, apiHost);
  const files = new SiteFileCache(deps.sites);
  const resolved = new Map<string, Found<CachedFile>>();
  const { settings: sites, capture } = deps;
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

  return {
    handle: (req, res) => {
      const host = resolver.normalise(req.headers.host);
      if (!resolver.mayBeSite(host) && !req.url?.startsWith('/preview/')) return false;
      return serve(host, req, res);
    },
  };

  async function serve(host: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = req.url ?? '/';
    try {
      const path = url.split('?')[0]!;
      const target = await resolver.resolve(host);
      if (target === undefined) {
        const match = PREVIEW_PATH.exec(path);
        if (!match) return false;
        await servePreview(req, res, match, deps.sites);
        return true;
      }
      const form = FORM_PATH.exec(path);
      if (form && target?.deploymentId) {
        await handleForm(req, res, form, target, clientIp(req), { forms: deps.forms, maxBytes: sites.formMaxBytes });
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
  sites: SitesService,
): Promise<void> {
  if (!(await sites.verifyPreview(projectId!, Number(expires), signature!))) {
    page(res, 404, NOT_FOUND_PAGE);
    return;
  }
  if (rest === undefined) {
    // Relative links of the site resolve against the directory: always serve from under the slash.
    res.writeHead(301, { location: `${req.url!.split('?')[0]}/` }).end();
    return;
  }
  const found = await findSiteFile(rest, (path) => sites.currentFile(projectId!, path));
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
