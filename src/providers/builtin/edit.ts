// Follow-up prompts: the changes the builtin generator understands on a site it made. Each is a
// change to the brief; the site is then rendered again from it (with the person's own text changes
// kept, see overrides.ts).
import { pagesMentioned, sectionsMentioned } from './asked.ts';
import { densityIn, pricesIn, type Brief } from './brief.ts';
import { findColors } from './colour-words.ts';
import { contactIn, hoursIn } from './facts.ts';
import { fontIn, FONTS } from './fonts.ts';
import { kindById, SECTION_IDS, type SectionId } from './kinds.ts';
import { LANGUAGE_NAMES, namedLanguage } from './language.ts';
import { findPlace } from './places.ts';

export interface Edit {
  brief: Brief;
  /** What changed, for the generation's summary; empty when nothing was understood. */
  changes: string[];
}

const text = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["“']|["”'.!]+$/g, '')
    .slice(0, 500);
const inOrder = (brief: Brief, wanted: Set<SectionId>) => {
  const kind = kindById(brief.kind);
  const order = [...brief.sections, ...kind.sections, ...SECTION_IDS];
  return [...new Set(order)].filter((s) => wanted.has(s));
};

/** The key of a section's main text, for "change the about text to “…”". */
const MAIN_TEXT: Partial<Record<SectionId | 'hero', string>> = {
  hero: 'hero.text',
  about: 'about.text',
  area: 'area.text',
  emergency: 'emergency.text',
  booking: 'booking.text',
  signup: 'signup.text',
  donate: 'donate.text',
  contact: 'contact.text',
  menu: 'menu.intro',
};

export function applyEdit(current: Brief, prompt: string): Edit {
  const brief: Brief = {
    ...current,
    sections: [...current.sections],
    pages: [...current.pages],
    texts: { ...current.texts },
    contact: { ...current.contact },
    prices: [...current.prices],
  };
  const changes: string[] = [];

  const rename = renameIn(prompt);
  if (rename) {
    brief.name = rename;
    changes.push(`renamed to ${brief.name}`);
    delete brief.texts['about.title'];
  }
  const headline = headlineIn(prompt);
  if (headline) {
    brief.headline = headline;
    delete brief.texts['hero.title'];
    changes.push('new headline');
  }
  const tagline = /\b(?:tagline|subtitle|slogan)\s*(?:to|should\s+be|:|=)?\s*["“]([^"”]+)["”]/i.exec(prompt);
  if (tagline) {
    brief.tagline = text(tagline[1]!);
    delete brief.texts['hero.text'];
    changes.push('new tagline');
  }
  // "change the about text to “…”", "the contact section should say “…”".
  const sectionText =
    /\b(hero|intro|about|area|emergency|booking|sign[- ]?up|donate|contact|menu)\b[^"“]{0,40}?\b(?:text|paragraph|intro|section|copy|blurb)?\b[^"“]{0,30}?(?:to|say|says|read|:)\s*["“]([^"”]{1,500})["”]/i.exec(
      prompt,
    );
  if (sectionText && !tagline && !headline) {
    const id = sectionText[1]!
      .toLowerCase()
      .replace(/^intro$/, 'hero')
      .replace(/^sign[- ]?up$/, 'signup') as SectionId | 'hero';
    const key = MAIN_TEXT[id];
    if (key) {
      brief.texts[key] = text(sectionText[2]!);
      changes.push(`new ${id === 'hero' ? 'introduction' : id} text`);
    }
  }

  // "Translate the site into French", "auf Deutsch bitte": every word the model writes, again in
  // that language (texts the person wrote stay as they wrote them).
  const language =
    namedLanguage(prompt) ?? (/\btranslat/i.test(prompt) ? translationTarget(prompt) : undefined);
  if (language && language !== brief.language) {
    brief.language = language;
    changes.push(`translated into ${LANGUAGE_NAMES[language]}`);
  }

  if (/\b(dark\s+(theme|mode|background|look|colou?rs?)|make\s+it\s+dark)\b/i.test(prompt)) {
    if (!brief.dark) changes.push('dark theme');
    brief.dark = true;
  } else if (/\b(light\s+(theme|mode|background|look|colou?rs?)|make\s+it\s+light)\b/i.test(prompt)) {
    if (brief.dark) changes.push('light theme');
    brief.dark = false;
  }
  // A colour only counts when the prompt is about colour, so "remove the green testimonials" is not a recolour.
  if (
    /\b(colou?rs?|make\s+(?:it|the\s+(?:whole\s+)?(?:site|website|page))|use|brand|primary|theme|palette|background|accents?)\b/i.test(
      prompt,
    )
  ) {
    const colours = findColors(prompt);
    if (colours.primary) {
      brief.primary = colours.primary;
      changes.push(`brand colour ${colours.primary}`);
    }
    // Two colours ("navy and gold") replace the accent; a new brand alone keeps it unless it became the brand.
    if (colours.accent || (colours.primary && brief.accent === colours.primary)) {
      if (colours.accent) changes.push(`accent colour ${colours.accent}`);
      brief.accent = colours.accent;
    }
    if (colours.background && colours.background !== brief.background) {
      brief.background = colours.background;
      changes.push(`background ${colours.background}`);
    }
    // "black and gold", "a cream background": the theme those colours need.
    if (colours.theme && (colours.theme === 'dark') !== brief.dark) {
      brief.dark = colours.theme === 'dark';
      changes.push(brief.dark ? 'dark theme' : 'light theme');
    }
  }
  if (/\b(font|typeface|type|lettering|serif|monospace)\b/i.test(prompt)) {
    const font = fontIn(prompt);
    if (font) {
      brief.font = font;
      changes.push(`${FONTS[font].label} font`);
    }
  }
  const density = densityIn(prompt);
  if (density && density !== brief.density) {
    brief.density = density;
    changes.push(`${density} layout`);
  }

  const place = /\b(?:moved to|move to|now in|relocated to|location to|place to|based in|located in)\b/i.test(
    prompt,
  )
    ? findPlace(prompt)
    : null;
  if (place?.name && place.name !== brief.place) {
    brief.place = place.name;
    brief.country = place.country;
    changes.push(`place: ${place.name}`);
  }

  const contact = contactIn(prompt);
  for (const field of ['phone', 'email', 'address'] as const) {
    const value = contact[field];
    if (value && value !== brief.contact[field]) {
      brief.contact[field] = value;
      changes.push(`${field} ${value}`);
    }
  }
  const hours = hoursIn(prompt);
  if (hours.length) {
    brief.hours = hours;
    if (!brief.sections.includes('hours'))
      brief.sections = inOrder(brief, new Set([...brief.sections, 'hours']));
    for (let i = 0; i < 10; i++) delete brief.texts[`hours.${i}`];
    delete brief.texts['hours.text'];
    changes.push('opening hours');
  }
  const prices = pricesIn(prompt);
  for (const p of prices) {
    const at = brief.prices.findIndex((q) => q.item.toLowerCase() === p.item.toLowerCase());
    if (at >= 0) brief.prices[at] = p;
    else brief.prices.push(p);
    changes.push(`price of ${p.item}: ${p.price}`);
  }

  // Pages and sections: "add an about page", "remove the gallery", "put the menu on the home page".
  const removal = /\b(?:remove|delete|drop|hide|get\s+rid\s+of|without|no\s+more)\b([^.!\n]*)/i.exec(prompt);
  const toHome =
    /\b(?:put|move|merge|bring)\b([^.!\n]*?)\b(?:on|onto|into|to|back\s+(?:on|to))\s+the\s+(?:home|main|front)\s*page\b/i.exec(
      prompt,
    );
  if (toHome) {
    for (const s of sectionsMentioned(toHome[1]!)) {
      if (brief.pages.includes(s)) changes.push(`${s} back on the home page`);
      brief.pages = brief.pages.filter((p) => p !== s);
    }
  } else if (removal) {
    for (const s of sectionsMentioned(removal[1]!)) {
      if (brief.sections.includes(s)) changes.push(`removed ${s}`);
      brief.sections = brief.sections.filter((x) => x !== s);
      brief.pages = brief.pages.filter((x) => x !== s);
    }
  }
  const addition = /\b(?:add|include|put|show|with|create|make|give\s+(?:it|me|us))\b([^.!\n]*)/i.exec(
    prompt,
  );
  if (addition && !toHome) {
    const clause = addition[1]!;
    const pages = pagesMentioned(clause).concat(
      /\bown page\b|\bseparate page\b/i.test(clause)
        ? sectionsMentioned(clause.replace(/\b(?:own|separate)\s+page\b/gi, ''))
        : [],
    );
    const removed = removal ? sectionsMentioned(removal[1]!) : [];
    for (const s of sectionsMentioned(clause).filter((x) => !removed.includes(x))) {
      if (!brief.sections.includes(s)) changes.push(`added ${s}`);
      brief.sections = inOrder(brief, new Set([...brief.sections, s]));
    }
    for (const s of pages.filter((x) => !removed.includes(x))) {
      if (!brief.sections.includes(s)) brief.sections = inOrder(brief, new Set([...brief.sections, s]));
      if (!brief.pages.includes(s)) {
        brief.pages = brief.sections.filter((x) => brief.pages.includes(x) || x === s);
        changes.push(`${s} page`);
      }
    }
  }
  return { brief, changes: [...new Set(changes)] };
}

/** "translate it into German": the language after into/to, by its English name. */
export function translationTarget(prompt: string) {
  const named = /\b(?:into|to)\s+(\p{L}+)/iu.exec(prompt)?.[1]?.toLowerCase();
  return (Object.keys(LANGUAGE_NAMES) as (keyof typeof LANGUAGE_NAMES)[]).find(
    (l) => LANGUAGE_NAMES[l].toLowerCase() === named,
  );
}

const RENAME =
  /\b(?:rename(?:\s+(?:it|the\s+(?:site|business|company)))?\s+(?:to|as)|rebrand(?:\s+(?:it|us))?\s+(?:to|as)|call\s+(?:it|us|the\s+(?:site|business|company))|(?:is|are)\s+(?:now\s+)?(?:called|named)|change\s+the\s+(?:business\s+|company\s+|site\s+)?name\s+to|name\s+it|new\s+name\s*:?)\s+/i;
// The name runs to the end of its clause: a quote, a comma, "and ...", or a full stop that ends
// the sentence; the stop of an abbreviation such as "Dr." or "St." is kept in the name.
const NAME =
  /^["“]?([^"”\n!?;,]+?)(?=["”]|\s+(?:and|but|then|also|please|with)\b|[,;!?\n]|(?<!\b(?:Dr|Mr|Mrs|Ms|St|Mt|Jr|Sr|Co|Inc|Ltd|No))\.(?=\s|$)|$)/i;

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
