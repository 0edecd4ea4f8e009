// The `builtin` model: no network and no model weights. A first prompt is understood as a brief
// (business name, kind, place, colour, sections) and rendered as a complete static site; a
// follow-up prompt on a site it made edits that brief. The brief is kept in `site.json`.
import type { GenerateRequest, GenerateResult, Provider, SiteFile } from '../provider.ts';
import { GenerationError } from '../provider.ts';
import { parseBrief, understand, type Brief } from './brief.ts';
import { applyEdit, UNDERSTOOD_EDITS } from './edit.ts';
import { editForeignHtml } from './edit-html.ts';
import { kindById } from './kinds.ts';
import { render404, renderCss, renderIndex } from './render.ts';

export const BRIEF_FILE = 'site.json';
/** The files builtin writes; any other file of the project is kept as it is. */
const OWN_FILES = new Set(['index.html', 'styles.css', '404.html', BRIEF_FILE]);

export function renderSite(brief: Brief): SiteFile[] {
  return [
    { path: 'index.html', content: renderIndex(brief) },
    { path: 'styles.css', content: renderCss(brief) },
    { path: '404.html', content: render404(brief) },
    { path: BRIEF_FILE, content: JSON.stringify(brief, null, 2) + '\n' },
  ];
}

export class BuiltinProvider implements Provider {
  readonly models = ['builtin'] as const;

  async generate({ prompt, files }: GenerateRequest): Promise<GenerateResult> {
    const others = files.filter((f) => !OWN_FILES.has(f.path));
    const state = files.find((f) => f.path === BRIEF_FILE);
    const current = state && parseBrief(typeof state.content === 'string' ? state.content : state.content.toString('utf8'));
    if (!current) {
      // A site builtin did not make: the simple edits it understands are made in its HTML.
      const edited = editForeignHtml(files, prompt);
      if (edited) return { files: edited.files, summary: `Edited the site: ${edited.changes.join(', ')}` };
      // A first generation (or a prompt that is no edit it knows): build from the prompt, keep other files.
      const brief = understand(prompt);
      const kind = kindById(brief.kind);
      const summary = `Built a ${kind.label.toLowerCase()} site for ${brief.name}${brief.place ? ` in ${brief.place}` : ''} with ${['hero', ...brief.sections].join(', ')}`;
      return { files: [...others, ...renderSite(brief)], summary };
    }
    const { brief, changes } = applyEdit(current, prompt);
    if (changes.length === 0) {
      throw new GenerationError(`The builtin model did not understand what to change. It understands: ${UNDERSTOOD_EDITS}`);
    }
    return { files: [...others, ...renderSite(brief)], summary: `Edited the site: ${changes.join(', ')}` };
  }
}
