// The `builtin` model: no network and no model weights. A first prompt is understood as a brief
// (business name, kind, place, colour, sections) and rendered as a complete static site; a
// follow-up prompt on a site it made edits that brief. The brief is kept in `.sitewright/`
// (builtin/notes.ts), which sites never serve.
import type { GenerateRequest, GenerateResult, Provider, SiteFile } from '../provider.ts';
import { GenerationError } from '../provider.ts';
import { understand, type Brief } from './brief.ts';
import { applyEdit, UNDERSTOOD_EDITS } from './edit.ts';
import { editForeignHtml } from './edit-html.ts';
import { editElement, ELEMENT_EDITS } from './element-edit.ts';
import { kindById } from './kinds.ts';
import { NOTES_FILE, readNotes } from './notes.ts';
import { render404, renderCss, renderIndex } from './render.ts';

/** The files builtin writes; any other file of the project is kept as it is. */
const OWN_FILES = new Set(['index.html', 'styles.css', '404.html', NOTES_FILE]);

export function renderSite(brief: Brief): SiteFile[] {
  return [
    { path: 'index.html', content: renderIndex(brief) },
    { path: 'styles.css', content: renderCss(brief) },
    { path: '404.html', content: render404(brief) },
    { path: NOTES_FILE, content: JSON.stringify(brief, null, 2) + '\n' },
  ];
}

export class BuiltinProvider implements Provider {
  readonly models = ['builtin'] as const;

  async generate({ prompt, files, element, onProgress }: GenerateRequest): Promise<GenerateResult> {
    const report = (result: GenerateResult): GenerateResult => {
      const before = new Map(files.map((f) => [f.path, f.content]));
      for (const file of result.files) {
        const old = before.get(file.path);
        if (old === undefined || !contentEquals(old, file.content)) onProgress?.({ message: `Writing ${file.path}`, path: file.path });
      }
      return result;
    };
    onProgress?.({ message: files.length ? 'Reading the prompt and the current site' : 'Reading the prompt' });
    if (element) {
      // A prompt aimed at one selected element changes that element alone.
      const edited = editElement(files, element, prompt);
      if (!edited) throw new GenerationError(`The builtin model did not understand what to change in the selected element. It understands ${ELEMENT_EDITS}`);
      return report({ files: edited.files, summary: `Edited the site: ${edited.change}` });
    }
    const notes = readNotes(files);
    // Old notes (a root site.json) are dropped: renderSite writes them under .sitewright/.
    const others = files.filter((f) => !OWN_FILES.has(f.path) && !notes.paths.has(f.path));
    const current = notes.brief;
    if (!current) {
      // A site builtin did not make: the simple edits it understands are made in its HTML.
      const edited = editForeignHtml(files, prompt);
      if (edited) return report({ files: edited.files, summary: `Edited the site: ${edited.changes.join(', ')}` });
      // A first generation (or a prompt that is no edit it knows): build from the prompt, keep other files.
      const brief = understand(prompt);
      const kind = kindById(brief.kind);
      onProgress?.({ message: `Planning a ${kind.label.toLowerCase()} site for ${brief.name}${brief.place ? ` in ${brief.place}` : ''}: ${['hero', ...brief.sections].join(', ')}` });
      const summary = `Built a ${kind.label.toLowerCase()} site for ${brief.name}${brief.place ? ` in ${brief.place}` : ''} with ${['hero', ...brief.sections].join(', ')}`;
      return report({ files: [...others, ...renderSite(brief)], summary });
    }
    const { brief, changes } = applyEdit(current, prompt);
    if (changes.length === 0) {
      throw new GenerationError(`The builtin model did not understand what to change. It understands: ${UNDERSTOOD_EDITS}`);
    }
    onProgress?.({ message: `Changing: ${changes.join(', ')}` });
    return report({ files: [...others, ...renderSite(brief)], summary: `Edited the site: ${changes.join(', ')}` });
  }
}

function contentEquals(a: string | Buffer, b: string | Buffer): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}
