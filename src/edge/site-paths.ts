// How a URL path maps to a site's files (docs/api/publishing.md, "the 404/SPA rule"): `/` and `/dir/` serve their
// index.html and an extension-less path is tried as a directory. Anything else that matches no
// file answers the site's own 404.html with status 404 when it has one. A site without a 404.html
// is taken for a single-page app: an extension-less path falls back to `/index.html` (200), so
// that its client-side routes load. A site with one is a set of pages, where `/nope` must say so.
import { siteFileCandidates } from '../modules/files/paths.ts';

const NOT_FOUND_PATH = '404.html';
const SPA_ENTRY = 'index.html';

export interface Found<F> {
  file: F | null;
  /** The site path that answered (null: none, not even a 404.html). */
  path: string | null;
  status: 200 | 404;
}

export async function findSiteFile<F>(
  urlPath: string,
  lookup: (path: string) => Promise<F | null>,
): Promise<Found<F>> {
  const { paths, route } = candidatePaths(urlPath);
  for (const path of paths) {
    const file = await lookup(path);
    if (file) return { file, path, status: 200 };
  }
  const notFoundPage = await lookup(NOT_FOUND_PATH);
  if (notFoundPage) return { file: notFoundPage, path: NOT_FOUND_PATH, status: 404 };
  const app = route ? await lookup(SPA_ENTRY) : null;
  return app ? { file: app, path: SPA_ENTRY, status: 200 } : { file: null, path: null, status: 404 };
}

/** The files that may answer a URL path; `route`: an extension-less path, which a single-page app routes. */
function candidatePaths(urlPath: string): { paths: string[]; route: boolean } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!);
  } catch {
    return { paths: [], route: false };
  }
  return siteFileCandidates(decoded);
}
