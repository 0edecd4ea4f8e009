// Follow-up prompts: the changes the builtin generator understands on a site it made.
import { type Brief, type Section, SECTIONS, findColor, sectionsMentioned } from './brief.ts';

export interface Edit {
  brief: Brief;
  /** What changed, for the generation's summary; empty when nothing was understood. */
  changes: string[];
}

const text = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/^["“']|["”'.!]+$/g, '').slice(0, 120);

export function applyEdit(current: Brief, prompt: string): Edit {
  const brief: Brief = { ...current, sections: [...current.sections] };
  const changes: string[] = [];

  const rename = renameIn(prompt);
  if (rename) {
    brief.name = rename;
    changes.push(`renamed to ${brief.name}`);
  }

  const headline = headlineIn(prompt);
  if (headline) {
    brief.headline = headline;
    changes.push('new headline');
  }
  const tagline = /\b(?:tagline|subtitle|slogan)\s*(?:to|should\s+be|:|=)?\s*["“]([^"”]+)["”]/i.exec(prompt);
  if (tagline) {
    brief.tagline = text(tagline[1]!);
    changes.push('new tagline');
  }

  if (/\b(dark\s+(theme|mode|background|look)|make\s+it\s+dark)\b/i.test(prompt)) {
    brief.dark = true;
    changes.push('dark theme');
  } else if (/\b(light\s+(theme|mode|background|look)|make\s+it\s+light)\b/i.test(prompt)) {
    brief.dark = false;
    changes.push('light theme');
  }
  // A colour only counts when the prompt is about colour, so "remove the green testimonials" is not a recolour.
  if (/\b(colou?rs?|make\s+(?:it|the\s+(?:whole\s+)?(?:site|website|page))|use|brand|primary|theme|palette)\b/i.test(prompt)) {
    const color = findColor(prompt);
    if (color) {
      brief.primary = color;
      changes.push(`brand colour ${color}`);
    }
  }

  const removal = /\b(?:remove|delete|drop|hide|get\s+rid\s+of|without)\b([^.!\n]*)/i.exec(prompt);
  const removed = removal ? sectionsMentioned(removal[1]!) : [];
  for (const section of removed) {
    if (brief.sections.includes(section)) changes.push(`removed ${section}`);
    brief.sections = brief.sections.filter((s) => s !== section);
  }
  const addition = /\b(?:add|include|put|show|with)\b([^.!\n]*)/i.exec(prompt);
  const added = addition ? sectionsMentioned(addition[1]!).filter((s) => !removed.includes(s)) : [];
  for (const section of added) {
    if (!brief.sections.includes(section)) changes.push(`added ${section}`);
    brief.sections = SECTIONS.filter((s: Section) => brief.sections.includes(s) || s === section);
  }
  return { brief, changes };
}

const RENAME =
  /\b(?:rename(?:\s+(?:it|the\s+(?:site|business|company)))?\s+(?:to|as)|rebrand(?:\s+(?:it|us))?\s+(?:to|as)|call\s+(?:it|us|the\s+(?:site|business|company))|(?:is|are)\s+(?:now\s+)?(?:called|named)|change\s+the\s+(?:business\s+|company\s+|site\s+)?name\s+to|name\s+it|new\s+name\s*:?)\s+/i;
// The name runs to the end of its clause: a quote, a comma, "and ...", or a full stop that ends
// the sentence; the stop of an abbreviation such as "Dr." or "St." is kept in the name.
const NAME = /^["“]?([^"”\n!?;,]+?)(?=["”]|\s+(?:and|but|then|also|please|with)\b|[,;!?\n]|(?<!\b(?:Dr|Mr|Mrs|Ms|St|Mt|Jr|Sr|Co|Inc|Ltd|No))\.(?=\s|$)|$)/i;

/** The new name a prompt asks for, if it asks for one. */
export function renameIn(prompt: string): string | undefined {
  const at = RENAME.exec(prompt);
  if (!at) return undefined;
  const name = NAME.exec(prompt.slice(at.index + at[0].length))?.[1];
  return name === undefined ? undefined : text(name);
}

/** The new headline a prompt gives in quotes, if it gives one. */
export function headlineIn(prompt: string): string | undefined {
  const found = /\b(?:headline|heading|title)\s*(?:to|should\s+be|:|=)?\s*["“]([^"”]+)["”]/i.exec(prompt);
  return found ? text(found[1]!) : undefined;
}

export const UNDERSTOOD_EDITS =
  'rename ("rename it to X", "call it X", "the business is now called X"), the headline or tagline in quotes ("headline: \\"...\\""), colours ("make it green", "use #1e40af", "dark theme", "light theme") and sections ("add a pricing section", "add an FAQ", "remove the testimonials"; sections: services, about, testimonials, pricing, faq, contact)';
