// The `builtin` model: no network and no model weights. A first prompt is understood as a brief
// (business name, kind, place and country, colour, font, sections and pages, the facts it gives)
// and rendered as a complete static site; a follow-up prompt on a site it made edits that brief and
// renders the site again, keeping the texts the person changed in the builder. The brief is kept
// in `.sitewright/` (builtin/brief-file.ts), which sites never serve.
import type {
  GenerateRequest,
  GenerateResult,
  Provider,
  SiteFile,
} from '../../modules/generations/provider.ts';
import { GenerationError } from '../../modules/generations/provider.ts';
import { understand, type Brief } from './brief.ts';
import { applyEdit, translationTarget, type Edit } from './edit.ts';
import { editForeignHtml } from './edit-html.ts';
import { editElement } from './element-edit.ts';
import { LANGUAGE_NAMES, namedLanguage } from './language.ts';
import { NOTES_FILE, readNotes } from './brief-file.ts';
import { namedImage, slotNamed, slotOf, swapImage } from './pictures.ts';
import { applyReplacedTexts, readBack, withReadBack } from './overrides.ts';
import { palette, render404, renderCss, renderIndex, renderPage } from './render.ts';
import { pageFile, siteOf } from './site.ts';

const IMAGE = /\.(?:png|jpe?g|gif|webp|avif|svg)$/i;

/** The pages and stylesheet builtin writes for a brief (its notes besides). */
export function ownPaths(brief: Brief): string[] {
  return ['index.html', ...brief.pages.map(pageFile), 'styles.css', '404.html'];
}

export function renderSite(brief: Brief): SiteFile[] {
  const site = siteOf(brief, brief.images);
  const colours = palette(brief, site.kind);
  // Texts the person changed in elements without a key are written as they left them.
  const words = (html: string) => (brief.replaced.length ? applyReplacedTexts(html, brief.replaced) : html);
  return [
    { path: 'index.html', content: words(renderIndex(site, colours)) },
    ...brief.pages.map((id) => ({ path: pageFile(id), content: words(renderPage(site, colours, id)) })),
    { path: 'styles.css', content: renderCss(site, colours) },
    { path: '404.html', content: words(render404(site, colours)) },
    { path: NOTES_FILE, content: JSON.stringify(brief, null, 2) + '\n' },
  ];
}

function describe(brief: Brief): string {
  const site = siteOf(brief);
  const pages = brief.pages.length ? ` and ${brief.pages.length + 1} pages` : '';
  const label = site.kind.label.toLowerCase();
  return `${/^[aeiou]/.test(label) ? 'an' : 'a'} ${label} site for ${brief.name}${brief.place && !brief.name.includes(brief.place) ? ` in ${brief.place}` : ''}: ${['hero', ...brief.sections].join(', ')}${pages}`;
}

export class BuiltinProvider implements Provider {
  readonly models = ['builtin'] as const;

  async generate({
    prompt,
    files,
    element,
    projectName,
    onProgress,
  }: GenerateRequest): Promise<GenerateResult> {
    const report = (result: GenerateResult): GenerateResult => {
      const before = new Map(files.map((f) => [f.path, f.content]));
      for (const file of result.files) {
        const old = before.get(file.path);
        if (old === undefined || !contentEquals(old, file.content))
          onProgress?.({ message: `Writing ${file.path}`, path: file.path });
      }
      return result;
    };
    onProgress?.({
      message: files.length ? 'Reading the prompt and the current site' : 'Reading the prompt',
    });
    const notes = readNotes(files);
    const image = namedImage(prompt, files);
    const missing =
      image && 'missing' in image
        ? `There is no image ${image.missing} in the project: upload it in the Files tab first, then name it again.`
        : undefined;
    // A first prompt may mention a logo it has not uploaded yet; a follow-up says it as a part not done.
    if (missing && element)
      throw new GenerationError(missing.replace(' in the project:', ' in the project, so nothing changed:'));
    const named = image && 'path' in image ? image : undefined;
    if (element && named) {
      const slot = slotOf(element);
      if (!notes.brief || !slot) {
        // A site builtin did not make: an image element takes the new image in its page.
        const swapped = notes.brief ? undefined : swapImage(files, element, named.path);
        if (swapped)
          return report({
            files: swapped,
            summary: `Edited the site: the selected image now shows ${named.path}`,
          });
        throw new GenerationError(
          `The selected element is not a picture, so ${named.path} was not placed: select a picture in the preview (the hero's, a gallery tile, a product's or the about section's) and ask again.`,
        );
      }
      return report(
        this.again(
          files,
          notes,
          (brief) => ({
            brief: { ...brief, pictures: { ...brief.pictures, [slot]: named.path } },
            changes: [`${named.path} placed in the ${slotName(slot)}`],
          }),
          { skipped: [], onProgress },
        ),
      );
    }
    if (element) {
      // A prompt aimed at one selected element changes that element alone.
      const edited = editElement(files, element, prompt);
      if (!edited)
        throw new GenerationError(
          `${MODEL} did not understand what to change in the selected element, so nothing changed: give its new text in quotes, or edit it in place in the preview.`,
        );
      return report({ files: edited.files, summary: `Edited the site: ${edited.change}` });
    }
    const current = notes.brief;
    if (!current) {
      // A site builtin did not make: the simple edits it understands are made in its HTML.
      const edited = editForeignHtml(files, prompt);
      if (edited)
        return report({ files: edited.files, summary: `Edited the site: ${edited.changes.join(', ')}` });
      // A first generation (or a prompt that is no edit it knows): build from the prompt, keep other files.
      const understood = understand(prompt, projectName);
      const brief = { ...understood, images: imagesOf(files, understood) };
      const made = renderSite(brief);
      const kept = files.filter((f) => !made.some((m) => m.path === f.path) && !notes.paths.has(f.path));
      onProgress?.({ message: `Planning ${describe(brief)}` });
      return report({ files: [...kept, ...made], summary: `Built ${describe(brief)}` });
    }

    const skipped = [...(missing ? [missing] : []), ...notDone(prompt, named !== undefined)];
    const slot = named ? slotNamed(prompt) : undefined;
    return report(
      this.again(
        files,
        notes,
        (brief) => {
          const edit = applyEdit(brief, prompt);
          if (!named || !slot) return edit;
          return {
            brief: { ...edit.brief, pictures: { ...edit.brief.pictures, [slot]: named.path } },
            changes: [...edit.changes, `${named.path} placed in the ${slotName(slot)}`],
          };
        },
        { skipped, prompt, onProgress },
      ),
    );
  }

  /**
   * The site rendered again from its brief as `change` leaves it. Texts the person changed (in
   * place in the builder, or only the words in the code editor) are kept; other changes by hand
   * stop a re-render. (A site of the first builtin generator cannot be rendered as it was: it is
   * rebuilt.)
   */
  private again(
    files: SiteFile[],
    notes: Notes,
    change: (brief: Brief) => Edit,
    {
      skipped,
      prompt,
      onProgress,
    }: { skipped: string[]; prompt?: string; onProgress: GenerateRequest['onProgress'] },
  ): GenerateResult {
    const current = notes.brief!;
    const back = current.version === 2 ? readBack(files, renderSite(current)) : undefined;
    const brief = back ? withReadBack(current, back) : current;
    const handEdited = back?.handEdited ?? [];
    if (handEdited.length > 0) {
      const edited = prompt === undefined ? undefined : editForeignHtml(files, prompt);
      if (edited) return { files: edited.files, summary: `Edited the site: ${edited.changes.join(', ')}` };
      throw new GenerationError(
        `${handEdited.join(', ')} ${handEdited.length === 1 ? 'was' : 'were'} changed in the code editor, and the builtin model will not rebuild the site over those changes. It can still rename the site and change its headline; or select an element in the preview and say what it should read.`,
      );
    }
    const { brief: edited, changes } = change(brief);
    if (changes.length === 0)
      throw new GenerationError(
        skipped[0] ??
          `${MODEL} did not understand what to change, so nothing changed: edit a text in place in the preview, or connect an AI model in Settings for changes like this.`,
      );
    onProgress?.({ message: `Changing: ${changes.join(', ')}` });
    const next: Brief = { ...edited, version: 2, images: imagesOf(files, edited) };
    const made = renderSite(next);
    const owned = new Set([...ownPaths(current), ...notes.paths]);
    const kept = files.filter((f) => !owned.has(f.path) && !made.some((m) => m.path === f.path));
    return {
      files: [...kept, ...made],
      summary: `Edited the site: ${changes.join(', ')}${skipped.length ? `. Not done: ${skipped.join(' ')}` : ''}`,
    };
  }
}

const MODEL = 'The builtin model (Templates, offline)';

/** Parts of a follow-up the builtin model cannot do, each said in one sentence with what to do instead. */
function notDone(prompt: string, namesImage: boolean): string[] {
  const out: string[] = [];
  if (/\btranslat/i.test(prompt) && !namedLanguage(prompt) && !translationTarget(prompt)) {
    out.push(
      `${MODEL} writes sites in ${Object.values(LANGUAGE_NAMES).join(', ')} only, so the site was not translated; connect an AI model in Settings for other languages.`,
    );
  }
  if (namesImage && !slotNamed(prompt)) {
    out.push(
      `${MODEL} places an image where you point: select the picture in the preview (the hero's, a gallery tile, a product's or the about section's) and name the image again, or say "in the hero".`,
    );
  }
  return out;
}

type Notes = ReturnType<typeof readNotes>;

/** "hero", "gallery.2": "hero", "gallery (picture 3)". */
function slotName(slot: string): string {
  const [section, index] = slot.split('.');
  return index === undefined ? section! : `${section} (picture ${Number(index) + 1})`;
}

/** The project's own images (uploaded, not written by the generator) for galleries and products: those not placed somewhere by the person. */
function imagesOf(files: SiteFile[], brief: Brief): string[] {
  const own = new Set([...ownPaths(brief), ...Object.values(brief.pictures)]);
  return files
    .filter(
      (f) =>
        IMAGE.test(f.path) &&
        !own.has(f.path) &&
        !f.path.startsWith('.') &&
        !/(?:^|\/)(?:favicon|logo)[^/]*$/i.test(f.path),
    )
    .map((f) => f.path)
    .sort();
}

function contentEquals(a: string | Buffer, b: string | Buffer): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}
