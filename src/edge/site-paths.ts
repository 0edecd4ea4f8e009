// How a URL path maps to a site's files: `/` and `/dir/` serve their index.html, an extension-less
// path is tried as a directory and then falls back to `/index.html` (single-page apps), and a
// missing file answers the site's own 404.html with status 404 when it has one.
import { normalisePath } from '../modules/files/paths.ts';

const NOT_FOUND_PATH = '404.html';

export interface Found<F> {
  file: F | null;
  /** The site path that answered (null: none, not even a 404.html). */
  path: string | null;
  status: 200 | 404;
}

export async function findSiteFile<F>(urlPath: string, lookup: (path: string) => Promise<F | null>): Promise<Found<F>> {
  const candidates = candidatePaths(urlPath);
  for (const path of candidates) {
    const file = await lookup(path);
    if (file) return { file, path, status: 200 };
  }
  const notFoundPage = await lookup(NOT_FOUND_PATH);
  return { file: notFoundPage, path: notFoundPage ? NOT_FOUND_PATH : null, status: 404 };
}

function candidatePaths(urlPath: string): string[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!);
  } catch {
    return [];
  }
  const trimmed = decoded.replace(/^\/+/, '');
  if (trimmed === '') return ['index.html'];
  let path: string;
  try {
    path = normalisePath(trimmed.endsWith('/') ? trimmed + 'index.html' : trimmed);
  } catch {
    return [];
  }
  const last = path.split('/').at(-1)!;
  if (last.includes('.')) return [path];
  return [`${path}/index.html`, 'index.html'];
}
