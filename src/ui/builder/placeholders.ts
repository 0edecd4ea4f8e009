// Placeholders a generated site still shows (`data-sw-todo`: a phone number, prices, a photo the
// builtin generator would not invent). The builder lists them before publishing and says how many
// went live, so nobody publishes "Add your phone number" without knowing.
import type { Principal } from '../../modules/access/principal.ts';
import type { Services } from '../../modules/index.ts';
import { isInternalPath } from '../../modules/files/paths.ts';
import { unescapeHtml } from '../../lib/html.ts';

const PLACEHOLDER = /<[a-z][a-z0-9]*\b[^>]*\bdata-sw-todo\b[^>]*>([^<]*)</gi;

export interface Placeholders {
  count: number;
  /** The first few, as the site shows them ("Add your phone number"), with their page. */
  examples: { page: string; text: string }[];
}

export async function placeholdersOf(
  services: Services,
  principal: Principal,
  projectId: string,
): Promise<Placeholders> {
  const pages = (await services.files.list(principal, projectId)).filter(
    (f) => /\.html?$/i.test(f.path) && !isInternalPath(f.path) && f.path !== '404.html',
  );
  const out: Placeholders = { count: 0, examples: [] };
  for (const page of pages) {
    const file = await services.files.get(principal, projectId, page.path);
    if (file.encoding !== 'utf8') continue;
    for (const m of file.content.matchAll(PLACEHOLDER)) {
      out.count++;
      const text = unescapeHtml(m[1]!).trim();
      if (out.examples.length < 8 && !out.examples.some((e) => e.text === text))
        out.examples.push({ page: page.path, text });
    }
  }
  return out;
}
