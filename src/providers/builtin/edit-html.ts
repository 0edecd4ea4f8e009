// Follow-ups on a site the builtin model did not make (no brief in its notes): it cannot re-render such a
// site, but it can still make the simple edits it understands in the HTML itself, rather than
// starting over: a new headline (the first <h1> of index.html) and a new name (the <title> of
// index.html, and that name wherever it appears in the site's HTML files).
import { escapeHtml, unescapeHtml } from '../../lib/html.ts';
import type { SiteFile } from '../../modules/generations/provider.ts';
import { headlineIn, renameIn } from './edit.ts';

/** The edited files and what changed, or undefined when the prompt asks for nothing it can do here. */
export function editForeignHtml(
  files: SiteFile[],
  prompt: string,
): { files: SiteFile[]; changes: string[] } | undefined {
  const index = files.find((f) => f.path === 'index.html' && typeof f.content === 'string');
  if (!index) return undefined;
  const headline = headlineIn(prompt);
  const name = renameIn(prompt);
  if (!headline && !name) return undefined;
  const changes: string[] = [];
  const oldName = unescapeHtml(
    /<title[^>]*>([^<]*)<\/title>/i.exec(index.content as string)?.[1]?.trim() ?? '',
  );
  const edited = files.map((file) => {
    if (typeof file.content !== 'string' || !/\.html?$/.test(file.path)) return file;
    let html = file.content;
    if (name && oldName.length >= 2) {
      html = html.split(escapeHtml(oldName)).join(escapeHtml(name));
      // The name may also stand unescaped (an apostrophe in text needs none).
      if (escapeHtml(oldName) !== oldName) html = html.split(oldName).join(escapeHtml(name));
    }
    if (file === index) {
      if (name && !/<title[^>]*>/i.test(html))
        html = html.replace(/<head[^>]*>/i, (head) => `${head}<title>${escapeHtml(name)}</title>`);
      if (headline)
        html = html.replace(
          /(<h1[^>]*>)[\s\S]*?(<\/h1>)/i,
          (_m, open: string, close: string) => `${open}${escapeHtml(headline)}${close}`,
        );
    }
    return html === file.content ? file : { ...file, content: html };
  });
  if (name) changes.push(`renamed to ${name}`);
  if (headline && /<h1[^>]*>/i.test(index.content as string)) changes.push('new headline');
  return changes.length > 0 ? { files: edited, changes } : undefined;
}
