// The rules for a site file's path, shared by the files API, templates, generation and publishing.
// A path is relative, `/`-separated and plain enough to be a URL path on every host and a file
// name on every operating system an export may be unpacked on.

export const MAX_PATH_BYTES = 255;
export const MAX_SEGMENT_LENGTH = 100;
/** Letters, digits and `- _ . ~ @ +` in each segment; `/` between segments. */
const SEGMENT = /^[A-Za-z0-9\-_.~@+]+$/;

/**
 * Files under this folder are the platform's own notes about a site (the builtin generator's
 * brief): kept with the project's files, listed and editable through the files API, but never
 * published into a deployment nor served by a site or a preview.
 */
export const INTERNAL_DIR = '.sitewright';

/** Where the builtin generator keeps its brief (a JSON object with the site's `name` and `kind`). */
export const GENERATOR_NOTES_FILE = `${INTERNAL_DIR}/builtin-brief.json`;

export function isInternalPath(path: string): boolean {
  return path === INTERNAL_DIR || path.startsWith(`${INTERNAL_DIR}/`);
}

export class PathError extends Error {}

/**
 * The normalised form of `raw` (a leading `./` or `/` dropped, repeated slashes collapsed), or a
 * PathError saying what is wrong with it.
 */
export function normalisePath(raw: string): string {
  if (raw.includes('\0')) throw new PathError('must not contain NUL');
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    throw new PathError('must not contain control characters');
  if (raw.includes('\\')) throw new PathError('must use / as the separator, not \\');
  let path = raw.replace(/\/{2,}/g, '/');
  while (path.startsWith('./')) path = path.slice(2);
  if (path.startsWith('/')) throw new PathError('must be relative (no leading /)');
  if (path.endsWith('/')) throw new PathError('must name a file, not a directory (no trailing /)');
  if (path === '') throw new PathError('must not be empty');
  if (Buffer.byteLength(path) > MAX_PATH_BYTES)
    throw new PathError(`must be at most ${MAX_PATH_BYTES} bytes`);
  for (const [i, segment] of path.split('/').entries()) {
    if (segment === '..' || segment === '.') throw new PathError("must not contain '.' or '..' segments");
    if (segment.length > MAX_SEGMENT_LENGTH)
      throw new PathError(`each segment must be at most ${MAX_SEGMENT_LENGTH} characters`);
    if (!SEGMENT.test(segment))
      throw new PathError('may only contain letters, digits, - _ . ~ @ + and / between segments');
    const allowedDot = segment === '.well-known' || (i === 0 && segment === INTERNAL_DIR);
    if (segment.startsWith('.') && !allowedDot)
      throw new PathError(`segments must not start with '.' (except .well-known, and ${INTERNAL_DIR} first)`);
  }
  return path;
}

/**
 * The files that may answer a decoded URL path (leading slashes allowed), as a site serves it: `/`
 * and `dir/` their index.html, a path whose last segment has an extension that file, any other
 * (`route`: what a single-page app routes) `path/index.html`. None for a path no file can have.
 * Shared by the site server (edge/site-paths.ts) and the generated sites' link check.
 */
export function siteFileCandidates(decodedPath: string): { paths: string[]; route: boolean } {
  const trimmed = decodedPath.replace(/^\/+/, '');
  if (trimmed === '') return { paths: ['index.html'], route: false };
  let path: string;
  try {
    path = normalisePath(trimmed.endsWith('/') ? trimmed + 'index.html' : trimmed);
  } catch {
    return { paths: [], route: false };
  }
  const last = path.split('/').at(-1)!;
  if (last.includes('.')) return { paths: [path], route: false };
  return { paths: [`${path}/index.html`], route: true };
}
