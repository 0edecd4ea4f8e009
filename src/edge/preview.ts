// Preview links on their own origin, `preview.{SITES_DOMAIN}`: `/{projectId}/{expires}/{sig}/...`
// serves a project's current files, `/v/{versionId}/{expires}/{sig}/...` one version's. Pages are
// sandboxed (an opaque origin even there), private and never indexed. With `?edit=1` an HTML page
// carries the builder's selection script (/_sitewright/edit.js) as its first script, which talks
// to the builder page framing it through a MessageChannel port only. Old links on the API host (`/preview/...`) redirect here.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServedFile, SitesService } from '../modules/publishing/sites.ts';
import { findSiteFile } from './site-paths.ts';
import { htmlPage, sendHtml, sendText } from './respond.ts';
import { sendFile } from './serve.ts';
import { imageOrFile, sendNoCopy } from './image-copy.ts';

const NOT_FOUND_PAGE = Buffer.from(
  htmlPage('Not found', '<p>This preview link is not valid, or it has expired.</p>'),
);
const LEFT_OUT_PAGE = Buffer.from(
  htmlPage('Not published', '<p>Publishing leaves this page out: nothing in it is filled in yet.</p>'),
);
const PREVIEW_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';
const LINK = '(\\d{1,12})\\/([A-Za-z0-9_-]{32})(\\/.*)?$';
const CURRENT = new RegExp(`^\\/([0-9a-f-]{36})\\/${LINK}`);
const VERSION = new RegExp(`^\\/v\\/([0-9a-f-]{36})\\/${LINK}`);
/** The old place of preview links, on the API host. */
export const LEGACY_PREVIEW = /^\/preview(\/[0-9a-f-]{36}\/.*)$/;
export const EDIT_SCRIPT_PATH = '/_sitewright/edit.js';

const EDIT_SCRIPT = readFileSync(new URL('../../src/edge/assets/preview-edit.js', import.meta.url));

/** Answers any request to the preview origin. */
export async function servePreviewHost(
  req: IncomingMessage,
  res: ServerResponse,
  sites: SitesService,
): Promise<void> {
  const [path, query = ''] = (req.url ?? '/').split('?', 2) as [string, string?];
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendText(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
  if (path === EDIT_SCRIPT_PATH) {
    res.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'content-length': EDIT_SCRIPT.length,
      'x-content-type-options': 'nosniff',
    });
    return void res.end(req.method === 'HEAD' ? undefined : EDIT_SCRIPT);
  }
  const version = VERSION.exec(path);
  const current = version ? null : CURRENT.exec(path);
  const match = version ?? current;
  if (!match) return sendHtml(res, 404, NOT_FOUND_PAGE);
  const [, id, expires, signature, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  const valid = version
    ? await sites.verifyVersionPreview(id, Number(expires), signature)
    : await sites.verifyPreview(id, Number(expires), signature);
  if (!valid) return sendHtml(res, 404, NOT_FOUND_PAGE);
  if (rest === undefined) {
    // Relative links of the site resolve against the directory: always serve from under the slash.
    return void res.writeHead(301, { location: `${path}/${query ? `?${query}` : ''}` }).end();
  }
  const lookup = (p: string) => (version ? sites.versionFile(id, p) : sites.currentFile(id, p));
  const found = await findSiteFile(rest, lookup);
  // A page of the current files shows what publishing will add to it (one version's, as it was);
  // with ?live=1, also without the placeholders publishing leaves out.
  const params = new URLSearchParams(query);
  const live = params.get('live') === '1';
  const page =
    !version && found.file && found.path
      ? await sites.asPublished(id, found.path, found.file, live)
      : found.file;
  if (page === null) return sendHtml(res, 404, LEFT_OUT_PAGE);
  const editing = params.get('edit') === '1';
  let file = editing && page && found.path ? withEditScript(page, found.path) : page;
  if (file && found.path && found.status === 200) {
    const sent = await imageOrFile(sites, req, found.path, file);
    if (sent === null || sent === 'busy') return sendNoCopy(res, sent);
    file = sent;
  }
  sendFile(req, res, file, found.status, 'private', {
    'x-robots-tag': 'noindex',
    'content-security-policy': PREVIEW_CSP,
  });
}

/**
 * The page with the selection script as its very first element, right after the doctype (or at
 * the start), naming the file it came from: it must run before any script of the site, so that
 * only it hears the builder's answer (preview-edit.js). The parser puts it in the head, so the
 * body's elements keep the places the selectors count.
 */
function withEditScript(file: ServedFile, path: string): ServedFile {
  if (!file.contentType.startsWith('text/html')) return file;
  const html = file.content.toString('utf8');
  const tag = `<script src="${EDIT_SCRIPT_PATH}" data-sitewright-file="${escapeAttribute(path)}"></script>`;
  const at = doctypeEnd(html) ?? (html.startsWith('\uFEFF') ? 1 : 0);
  const content = Buffer.from(html.slice(0, at) + tag + html.slice(at));
  return { ...file, content, etag: file.etag.replace(/"$/, '-edit"') };
}

/**
 * Where a doctype at the start ends (after a byte order mark, spaces and comments), if there is
 * one. Walked with indexOf, not one regular expression: nested lazy comment patterns backtrack
 * exponentially on a page of many comments without a doctype.
 */
function doctypeEnd(html: string): number | undefined {
  let at = html.startsWith('\uFEFF') ? 1 : 0;
  for (;;) {
    while (at < html.length && /\s/.test(html[at]!)) at++;
    if (!html.startsWith('<!--', at)) break;
    const close = html.indexOf('-->', at + 4);
    if (close < 0) return undefined;
    at = close + 3;
  }
  if (html.slice(at, at + 9).toLowerCase() !== '<!doctype') return undefined;
  const end = html.indexOf('>', at);
  return end < 0 ? undefined : end + 1;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
