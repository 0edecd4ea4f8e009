// Sending the files of sites: a published deployment's (public; kept in memory, since deployments
// never change); previews (preview.ts) send theirs through sendFile too. How a URL
// resolves in a deployment is remembered as the path that answered, never as the file: the bytes
// always come through the file cache, so its bound is the one bound on the bytes serving keeps.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import fresh from 'fresh';
import { LRUCache } from 'lru-cache';
import type { ServedFile, SitesService } from '../modules/publishing/sites.ts';
import { htmlPage, sendHtml } from './respond.ts';
import { SiteFileCache } from './site-file-cache.ts';
import { findSiteFile } from './site-paths.ts';
import { imageOrFile, sendNoCopy } from './image-copy.ts';

const NOT_FOUND_PAGE = Buffer.from(htmlPage('Not found', '<p>There is no page here.</p>'));
/** URLs come from clients: a bound on how many resolutions (and how many bytes of them) are kept. */
const MAX_RESOLUTIONS = 50_000;
const MAX_RESOLUTION_BYTES = 8 * 1_048_576;

/** How a URL resolved in a deployment: the path that answered (null: nothing did) and the status. */
interface Resolution {
  path: string | null;
  status: 200 | 404;
}

type Encode = (acceptEncoding: string | undefined) => { body: Buffer; encoding?: string };

export class DeploymentFiles {
  private readonly files: SiteFileCache;
  private readonly resolutions = new LRUCache<string, Resolution>({
    max: MAX_RESOLUTIONS,
    maxSize: MAX_RESOLUTION_BYTES,
    sizeCalculation: (resolution, key) => key.length + (resolution.path?.length ?? 0) + 64,
  });

  constructor(
    private readonly sites: SitesService,
    fileCacheBytes?: number,
  ) {
    this.files = new SiteFileCache(sites, fileCacheBytes);
  }

  /** The text of the page at `url` (as a visitor would get it), for pages the edge writes in the site's look. */
  async pageText(deploymentId: string, url: string): Promise<string | null> {
    const found = await findSiteFile(url, (path) => this.files.get(deploymentId, path));
    return found.file && found.status === 200 && /html/.test(found.file.contentType)
      ? found.file.content.toString('utf8')
      : null;
  }

  /** Answers a GET or HEAD of `url` from the deployment; returns the file sent (null: the edge's 404 page). */
  async send(
    req: IncomingMessage,
    res: ServerResponse,
    deploymentId: string,
    url: string,
  ): Promise<ServedFile | null> {
    const key = `${deploymentId}\u0000${url.split('?')[0]}`;
    let resolution = this.resolutions.get(key);
    let file;
    if (resolution) {
      file = resolution.path === null ? null : await this.files.get(deploymentId, resolution.path);
    } else {
      const found = await findSiteFile(url, (path) => this.files.get(deploymentId, path));
      resolution = { path: found.path, status: found.status };
      this.resolutions.set(key, resolution);
      file = found.file;
    }
    const cached = file;
    if (cached && resolution.status === 200 && resolution.path) {
      const copyCache = this.files.copy.bind(this.files);
      const sent = await imageOrFile(this.sites, req, resolution.path, cached, copyCache);
      if (sent === null || sent === 'busy') {
        sendNoCopy(res, sent);
        return null;
      }
      if (sent !== cached) {
        sendFile(req, res, sent, 200, 'public', {});
        return sent;
      }
    }
    sendFile(
      req,
      res,
      file,
      resolution.status,
      'public',
      {},
      cached ? (accept) => this.files.encode(cached, accept) : undefined,
    );
    return file;
  }
}

/** Sends a site file (or the edge's 404 page), answering conditional requests with a 304. */
export function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: ServedFile | null,
  status: 200 | 404,
  scope: 'public' | 'private',
  extra: OutgoingHttpHeaders,
  encode?: Encode,
): void {
  if (!file) return sendHtml(res, 404, NOT_FOUND_PAGE);
  const html = file.contentType.startsWith('text/html');
  const headers: OutgoingHttpHeaders = {
    ...extra,
    'content-type': file.contentType,
    etag: file.etag,
    vary: file.vary ?? 'Accept-Encoding',
    'cache-control':
      scope === 'private'
        ? 'private, no-cache'
        : html
          ? 'public, max-age=0, must-revalidate'
          : 'public, max-age=300',
    'x-content-type-options': 'nosniff',
  };
  // If-None-Match as RFC 9110 reads it: `*`, or a list of tags compared weakly (W/ ignored).
  if (status === 200 && fresh(req.headers, { etag: file.etag })) {
    res.writeHead(304, headers).end();
    return;
  }
  const { body, encoding } = encode
    ? encode(req.headers['accept-encoding'])
    : { body: file.content, encoding: undefined };
  if (encoding) headers['content-encoding'] = encoding;
  headers['content-length'] = body.length;
  res.writeHead(status, headers).end(body);
}
