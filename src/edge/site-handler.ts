// Serving published sites from the same server as the API. A request whose Host names a site
// (`{subdomain}.{SITES_DOMAIN}` or an active custom domain) is answered here, on the raw Node
// request, before Fastify sees it: it never reaches /api/v1, its cookies are ignored and no
// cookie is set, and it pays for no API machinery. Preview links are answered on their own
// origin, `preview.{SITES_DOMAIN}` (preview.ts); their old form on the API host redirects there.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SitesSettings } from '../config.ts';
import type { PageViewCapture } from '../modules/analytics/capture.ts';
import type { FormsService } from '../modules/forms/service.ts';
import type { SitesService } from '../modules/publishing/sites.ts';
import { BEACON_PREFIX, handleBeacon } from './beacon.ts';
import { FORM_PATH, handleForm } from './forms.ts';
import { HostResolver, type SiteTarget } from './host-resolver.ts';
import { htmlPage, sendHtml, sendText } from './respond.ts';
import { DeploymentFiles } from './serve.ts';
import { LEGACY_PREVIEW, servePreviewHost } from './preview.ts';
import { PREVIEW_LABEL, previewOrigin } from '../modules/publishing/preview-links.ts';
import { clientAddress, trustFunction, type TrustProxy } from '../lib/client-address.ts';

const NO_SITE_PAGE = Buffer.from(
  htmlPage('Site not found', '<p>No website is published at this address.</p>'),
);

export interface SiteLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface SiteHandler {
  /** Answers site, form and preview requests (true, or a promise of it); false for everything else. */
  handle(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
  /** Stops listening for the core's change signals: call when the server closes. */
  close(): void;
}

/** What the edge serves from: the core's services, and the settings of the sites. */
export interface EdgeDeps {
  sites: SitesService;
  forms: FormsService;
  capture: PageViewCapture;
  settings: SitesSettings;
  /** The front proxies whose X-Forwarded-For is believed (TRUST_PROXY); none when unset. */
  trustProxy?: TrustProxy;
  /** The API's own address (PUBLIC_URL): its host is never a site. */
  publicUrl: string;
  /** The bound of the deployment file cache, in bytes (default 64 MiB). */
  fileCacheBytes?: number;
}

/**
 * Returns the request handler to put in front of Fastify's: it answers site and preview requests
 * and returns (a promise of) true, or false for everything else, synchronously for the API's own
 * host so that API requests pay nothing for it.
 */
export function createSiteHandler(deps: EdgeDeps, log?: SiteLogger): SiteHandler {
  const apiHost = new URL(deps.publicUrl).host.toLowerCase();
  const resolver = new HostResolver(deps.sites, deps.settings, apiHost);
  const files = new DeploymentFiles(deps.sites, deps.fileCacheBytes);
  const { settings: sites, capture } = deps;
  const previewHost = resolver.normalise(`${PREVIEW_LABEL}.${sites.domain}`);
  const trust = trustFunction(deps.trustProxy ?? false);
  const clientIp = (req: IncomingMessage): string => clientAddress(req, trust);
  // A page view: a page sent whole, or a navigation the beacon posted.
  const recordView = (target: SiteTarget, host: string, req: IncomingMessage, url: string): void =>
    capture.record({
      orgId: target.orgId,
      projectId: target.projectId,
      host,
      url,
      referer: req.headers.referer,
      userAgent: req.headers['user-agent'],
      ip: clientIp(req),
      at: Date.now(),
    });

  return {
    handle: (req, res) => {
      const host = resolver.normalise(req.headers.host);
      if (host === previewHost)
        return servePreviewHost(req, res, deps.sites).then(
          () => true,
          (error) => failed(error, req, res),
        );
      if (!resolver.mayBeSite(host) && !req.url?.startsWith('/preview/')) return false;
      return serve(host, req, res);
    },
    close: () => resolver.close(),
  };

  async function serve(host: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = req.url ?? '/';
    try {
      const path = url.split('?')[0]!;
      const target = await resolver.resolve(host);
      if (target === undefined) {
        const legacy = LEGACY_PREVIEW.exec(url);
        if (!legacy) return false;
        res.writeHead(302, { location: `${previewOrigin(sites)}${legacy[1]}` }).end();
        return true;
      }
      // The default subdomain of a site that lives on its own domain: not indexed there, or sent
      // there for good when the owner asks (pages only: a form posted here still arrives).
      if (target?.movedTo) {
        if (target.movedTo.redirect && (req.method === 'GET' || req.method === 'HEAD')) {
          const rest = url.startsWith('/') ? url : '/';
          res.writeHead(301, { location: `https://${target.movedTo.domain}${rest}` }).end();
          return true;
        }
        res.setHeader('x-robots-tag', 'noindex');
      }
      const form = FORM_PATH.exec(path);
      if (form && target?.deploymentId) {
        const page = (path: string) => files.pageText(target.deploymentId!, path);
        await handleForm(req, res, form, target, clientIp(req), {
          forms: deps.forms,
          maxBytes: sites.formMaxBytes,
          page,
        });
        return true;
      }
      if (path.startsWith(BEACON_PREFIX) && target?.deploymentId) {
        const site = target;
        await handleBeacon(
          req,
          res,
          path,
          sites.analyticsCapture ? (viewed) => recordView(site, host, req, viewed) : undefined,
        );
        return true;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendText(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
        return true;
      }
      if (!target?.deploymentId) {
        sendHtml(res, 404, NO_SITE_PAGE);
        return true;
      }
      const file = await files.send(req, res, target.deploymentId, url);
      // A page view: an HTML page sent whole to a GET (not HEAD, not a 304, not a 404 page, not an asset).
      if (
        sites.analyticsCapture &&
        req.method === 'GET' &&
        res.statusCode === 200 &&
        file?.contentType.startsWith('text/html')
      ) {
        recordView(target, host, req, url);
      }
    } catch (error) {
      return failed(error, req, res);
    }
    return true;
  }

  function failed(error: unknown, req: IncomingMessage, res: ServerResponse): true {
    log?.error({ err: error, host: req.headers.host, url: req.url }, 'serving a site failed');
    if (!res.headersSent) sendText(res, 500, 'Internal server error');
    else res.destroy();
    return true;
  }
}
