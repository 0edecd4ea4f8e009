// A prompt aimed at one element the person selected in the builder: the builtin model understands
// a new text for it ("say “Fresh every day”", "change it to Open on Sundays", "replace with ...")
// and removing it ("remove this", "delete it"), and changes that element alone in its page.
import { InvalidInputError } from '../../modules/common/errors.ts';
import { replaceElementText } from '../../modules/files/text-edit.ts';
import type { ElementContext, SiteFile } from '../../modules/generations/provider.ts';
import { GenerationError } from '../../modules/generations/provider.ts';

const QUOTED = /["“”'‘’«»]([^"“”'‘’«»]{1,2000})["“”'‘’«»]/;
const TO_TEXT = /\b(?:change|set|rename|replace|make|edit)\b.*?\b(?:to|with|into)\s*:?\s+(.{1,2000})$/is;
const SAY = /^\s*(?:say|read|write|text)\s*:?\s+(.{1,2000})$/is;
const REMOVE =
  /^\s*(?:remove|delete|hide|drop)\b(?:\s+(?:it|this|that|the element|this element|this section))?\s*[.!]?\s*$/i;

export const ELEMENT_EDITS =
  'for a selected element: a new text in quotes, "change it to ...", "say ...", or "remove this"';

/** The site with the element's text replaced (or the element removed); undefined: not understood. */
export function editElement(
  files: SiteFile[],
  element: ElementContext,
  prompt: string,
): { files: SiteFile[]; change: string } | undefined {
  const page = files.find((f) => f.path === element.file && typeof f.content === 'string');
  if (!page)
    throw new GenerationError(`The selected element's page ${element.file} is not in the site any more`);
  const html = page.content as string;
  const replace = (content: string) => files.map((f) => (f === page ? { path: f.path, content } : f));
  if (REMOVE.test(prompt)) {
    const at = html.indexOf(element.html);
    if (at === -1)
      throw new GenerationError('The selected element has changed since it was selected: select it again');
    return {
      files: replace(html.slice(0, at) + html.slice(at + element.html.length)),
      change: `removed the selected ${tagOf(element.html)}`,
    };
  }
  const text = (QUOTED.exec(prompt)?.[1] ?? SAY.exec(prompt)?.[1] ?? TO_TEXT.exec(prompt)?.[1])
    ?.trim()
    .replace(/[.!]$/, '');
  if (!text) return undefined;
  try {
    return {
      files: replace(replaceElementText(html, element.selector, text)),
      change: `set the selected ${tagOf(element.html)} to “${text.slice(0, 60)}”`,
    };
  } catch (error) {
    // The page's refusal (the element holds more than text, or is gone) is the generation's answer.
    if (error instanceof InvalidInputError) throw new GenerationError(error.message);
    throw error;
  }
}

function tagOf(html: string): string {
  return /^<([a-z][a-z0-9-]*)/i.exec(html)?.[1]?.toLowerCase() ?? 'element';
}
