// The optional page-view beacon for single-page apps. A page served whole is counted by the server
// (serve.ts); a navigation that a script makes without loading a page (history.pushState, the
// back button) is not, unless the site includes
//   <script src="/_sitewright/beacon.js" defer></script>
// which posts each new path to the site's own /_sitewright/view. Such a view goes through capture
// like a served page: the same bot filter, visitor hash, referrer (the Referer header: the site's
// own page, so direct) and device. No cookie, nothing stored in the browser.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './read-body.ts';
import { asEdgeError, EdgeError, NO_STORE, sendText } from './respond.ts';

export const BEACON_PREFIX = '/_sitewright/';
const SCRIPT_PATH = '/_sitewright/beacon.js';
const VIEW_PATH = '/_sitewright/view';
const MAX_BODY = 1024;
const MAX_PATH = 500;

/** Minified by hand: counts a path when it changes, never the first page (the server did). */
const SCRIPT = Buffer.from(
  `(function(){var last=location.pathname;function send(){var p=location.pathname;if(p===last)return;last=p;var b=JSON.stringify({path:p});` +
    `if(navigator.sendBeacon&&navigator.sendBeacon('${VIEW_PATH}',b))return;fetch('${VIEW_PATH}',{method:'POST',body:b,keepalive:true}).catch(function(){});}` +
    `var push=history.pushState;history.pushState=function(){var r=push.apply(this,arguments);send();return r;};addEventListener('popstate',send);})();\n`,
);

/**
 * Answers /_sitewright/* on a published site. `record` gets the path viewed when one is posted
 * (the caller fills in the site and the visitor); undefined when capture is off.
 */
export async function handleBeacon(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  record: ((url: string) => void) | undefined,
): Promise<void> {
  if (path === SCRIPT_PATH) {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
    res.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'content-length': SCRIPT.length,
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
    });
    res.end(SCRIPT);
    return;
  }
  if (path !== VIEW_PATH) return sendText(res, 404, 'Not found');
  if (req.method !== 'POST') return sendText(res, 405, 'Method not allowed', { allow: 'POST' });
  try {
    const body = await readBody(req, MAX_BODY, `The body is too large (at most ${MAX_BODY} bytes)`);
    record?.(viewedPath(body));
    res.writeHead(204, NO_STORE).end();
  } catch (error) {
    const refusal = asEdgeError(error);
    sendText(res, refusal.status, refusal.message, refusal.headers);
  }
}

/** The path in `{"path": "/..."}`: a site path, at most 500 characters, without its query string. */
function viewedPath(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new EdgeError(400, 'Send {"path": "/page"} as JSON');
  }
  const path = (parsed as { path?: unknown } | null)?.path;
  if (
    typeof path !== 'string' ||
    !path.startsWith('/') ||
    path.startsWith('//') ||
    path.length > MAX_PATH ||
    hasControlCharacter(path)
  ) {
    throw new EdgeError(
      400,
      `"path" must be a path on this site, starting with "/", at most ${MAX_PATH} characters`,
    );
  }
  return path;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++)
    if (value.charCodeAt(i) < 0x20 || value.charCodeAt(i) === 0x7f) return true;
  return false;
}
