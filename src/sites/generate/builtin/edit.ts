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

  const rename = /\b(?:rename(?:\s+(?:it|the\s+(?:site|business|company)))?\s+(?:to|as)|call\s+(?:it|us|the\s+business)|change\s+the\s+(?:business\s+)?name\s+to|name\s+it|new\s+name\s*:?)\s+["“]?([^"”\n.!]+)/i.exec(prompt);
  if (rename) {
    brief.name = text(rename[1]!);
    changes.push(`renamed to ${brief.name}`);
  }

  const headline = /\b(?:headline|heading|title)\s*(?:to|should\s+be|:|=)?\s*["“]([^"”]+)["”]/i.exec(prompt);
  if (headline) {
    brief.headline = text(headline[1]!);
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
  if (/\b(colou?rs?|make\s+it|use|brand|primary|theme|palette)\b/i.test(prompt)) {
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

export const UNDERSTOOD_EDITS =
  'rename ("rename it to X", "call it X"), the headline or tagline in quotes ("headline: \\"...\\""), colours ("make it green", "use #1e40af", "dark theme", "light theme") and sections ("add a pricing section", "add an FAQ", "remove the testimonials"; sections: services, about, testimonials, pricing, faq, contact)';
