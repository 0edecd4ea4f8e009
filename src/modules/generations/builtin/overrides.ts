// Changes a person made to a builtin site outside the generator, read back before it renders the
// site again so that nothing they did is lost: texts changed in the builder (every text the
// generator writes carries `data-sw="<key>"`, so a changed text is found by its key and kept in
// the brief), and any other change to its pages (made in the code editor), which the generator
// detects by rendering the brief again and comparing: it then does not re-render at all.
import { unescapeHtml } from '../../../lib/html.ts';
import type { SiteFile } from '../provider.ts';
import type { Brief } from './brief.ts';

const KEYED = /<([a-z][a-z0-9]*)\b[^>]*?\bdata-sw="([^"]+)"[^>]*>((?:[^<]|<br\s*\/?>)*)<\/\1>/gi;
const asText = (content: string | Buffer) => (typeof content === 'string' ? content : content.toString('utf8'));

/** The texts of the site's pages by key, as they are now. */
export function textsIn(files: SiteFile[], pages: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files) {
    if (!pages.includes(file.path)) continue;
    for (const m of asText(file.content).matchAll(KEYED)) found.set(m[2]!, unescapeHtml(m[3]!.replace(/<br\s*\/?>/gi, '\n')));
  }
  return found;
}

/**
 * The brief with the texts the person changed: a key whose text differs from what the brief renders
 * now is kept as that key's text from now on.
 */
export function withChangedTexts(brief: Brief, current: Map<string, string>, rendered: Map<string, string>): Brief {
  const texts = { ...brief.texts };
  for (const [key, value] of current) {
    const fresh = rendered.get(key);
    if (fresh !== undefined && fresh !== value) texts[key] = value;
  }
  return { ...brief, texts };
}

/** A page as compared: the footer's year is not a change, nor how a character is escaped. */
const comparable = (html: string) => unescapeHtml(html.replace(/© \d{4} /g, '© '));

/** The pages whose HTML differs from what the brief renders (changed by hand). */
export function handEditedPages(files: SiteFile[], rendered: SiteFile[]): string[] {
  const now = new Map(files.map((f) => [f.path, asText(f.content)]));
  return rendered.filter((f) => f.path.endsWith('.html') || f.path.endsWith('.css')).filter((f) => now.has(f.path) && comparable(now.get(f.path)!) !== comparable(asText(f.content))).map((f) => f.path);
}
