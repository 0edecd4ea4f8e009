// The builtin generator's understanding of a site: what it renders, and what it keeps in
// `.sitewright/builtin-brief.json` (builtin/brief-file.ts) so that a follow-up prompt can change it
// reliably. Facts (phone, email, address, opening hours, prices) are only ever the prompt's own.
import type { CountryCode } from 'libphonenumber-js/max';
import { parseHex } from './colors.ts';
import { FONT_IDS, fontIn, type FontId } from './fonts.ts';
import { escapeRegex, findKind, GENERIC, SECTION_IDS, type Kind, type SectionId } from './kinds.ts';
import { languageOf, writtenIn } from './language.ts';
import { findPlace } from './places.ts';
import { hasAmount, pricesIn, withoutPrice } from './prices.ts';
import { pagesMentioned, sectionsMentioned } from './asked.ts';
import { briefColours } from './colour-words.ts';
import { CLOSED, contactIn, dayTimes, EMAIL, hoursIn, LANGUAGE_COUNTRY, STREET, TIME_LIKE } from './facts.ts';
import { findName } from './names.ts';
import { clean } from './prompt-text.ts';
import { kindIn, ourBusiness, wordsFor } from './words/index.ts';
import { LANGUAGES, type Language } from './words/types.ts';
import type { Brief, Density } from './brief-shape.ts';

export type { Brief, Density, ReplacedText } from './brief-shape.ts';

export { pricesIn };

/**
 * What the business offers, in the prompt's words: the first list of two or more ("X, Y and Z")
 * after a word that introduces one ("offering", "specialising in", "serving", "doing", "with",
 * "show our", a colon …). Items that name a part of the site ("a menu page", "a booking form") or
 * run long are not offers.
 */
export function offersIn(prompt: string): string[] | null {
  const intro =
    /(?:\b(?:offering|offers?|services?(?: are| include)?\s*:|we do|we offer|we treat|speciali[sz]ing in|specialists? in|providing|provides|serving|selling|making|doing|designing|show(?:case)?(?: our| off)?|with|helping [^.,:;!?]{0,40}? with)\s+|:\s*)((?:[^.!?\n]|(?<=\d)\.(?=\d)){3,200})/gi;
  for (const m of prompt.matchAll(intro)) {
    // The list ends where the place or the audience starts: "warm spaces in Glasgow", "… for families".
    const list = m[1]!.split(/\s+(?:in|at|near|across|around|based|for|to|with)\s+(?=\p{L})/u)[0]!;
    const items = list
      // "1,400 €" and "3,50 €" are amounts, not two items.
      .split(/\s*(?:(?<!\d),|,(?!\d))\s*|\s+and\s+|\s*&\s*/)
      .map((s) => clean(s.replace(/^(?:and|also|a|an|the|our|some)\s+/i, '')))
      // An item's price ("Journée complète à partir de 2 200 €") does not make its name long.
      .filter(
        (s) =>
          withoutPrice(s).length >= 3 &&
          withoutPrice(s).split(' ').length <= 4 &&
          !/\b(?:in|for|website|site|page|form|theme|font|colou?r|design)s?$/i.test(withoutPrice(s)) &&
          sectionsMentioned(s).length === 0 &&
          !/^(?:dark|light|shipped|delivered|based|located)\b/i.test(s) &&
          !/\b(?:are|is|was|were|will|be|getting|we|our|us)\b/i.test(s),
      );
    if (items.length < 2) continue;
    // Named with their prices, the offers are the prices' items: "bath and brush £25" is one
    // offer, not two, and "Demi-journée 1.400 €" is no opening time (withoutFacts).
    const priced = pricesIn(list).filter((p) => hasAmount(p.price));
    const names =
      items.filter(hasAmount).length * 2 >= items.length && priced.length >= 2
        ? [
            ...priced.map((p) => p.item),
            ...items.filter(
              (o) => !hasAmount(o) && !priced.some((p) => p.item.toLowerCase().includes(o.toLowerCase())),
            ),
          ]
        : items.map(withoutPrice).filter((o) => o.length >= 3);
    if (names.length >= 2) return names.slice(0, 6).map((s) => s[0]!.toUpperCase() + s.slice(1));
  }
  return null;
}

export function densityIn(prompt: string): Density | undefined {
  if (/\b(compact|denser|tighter|less (?:white ?space|space|padding))\b/i.test(prompt)) return 'compact';
  if (/\b(spacious|airy|more (?:white ?space|space|breathing room|padding)|roomier)\b/i.test(prompt))
    return 'spacious';
  if (/\b(normal|default|regular) (?:spacing|density)\b/i.test(prompt)) return 'comfortable';
  return undefined;
}

/** What the business offers is never a fact: "auf: mo-fr 11-19 uhr, sa 10-16 uhr" lists hours, not services. */
function withoutFacts(offers: string[] | null, language: Language): string[] | null {
  const kept = offers?.filter(
    (o) =>
      !TIME_LIKE.test(o) &&
      !CLOSED.test(o) &&
      !dayTimes(o, language).length &&
      !EMAIL.test(o) &&
      !STREET.test(o) &&
      !/\d[\d\s().-]{5,}\d/.test(o),
  );
  return kept && kept.length >= 2 ? kept : null;
}

/** A first prompt understood as a brief. `projectName` names the site when the prompt does not. */
export function understand(prompt: string, projectName?: string): Brief {
  const language = languageOf(prompt);
  let place = findPlace(prompt, writtenIn(prompt));
  const kind: Kind = findKind(prompt);
  const given = findName(prompt, place?.name || null);
  // "The Reading Nook" is a name, not a place in Reading.
  if (given && place && given.toLowerCase().includes(place.name.toLowerCase()))
    place = findPlace(prompt.replace(new RegExp(escapeRegex(given), 'i'), ' '), writtenIn(prompt));
  const label = kind === GENERIC ? ourBusiness(language) : kindIn(kind, language).label;
  const name =
    given ??
    (projectName?.trim() ||
      `${label}${place?.name ? wordsFor(language).inPlace.replace('{place}', place.name) : ''}`);
  // Sections the prompt asks for: after "with", "including", "sections:" … (not any word that
  // happens to name one: a "product-analytics startup" wants no shop).
  const asked =
    /\b(?:with|including|include|includes|featuring|plus|has|have|should have|sections?\s*:|pages?\s*:)\b([\s\S]*)/i.exec(
      prompt,
    );
  const mentioned = asked ? sectionsMentioned(asked[1]!) : [];
  const pages = pagesMentioned(prompt);
  const without = /\b(?:without|no|skip|leave out)\s+(?:an?\s+|the\s+)?([^.,;!?\n]+)/i.exec(prompt);
  const unwanted = without ? sectionsMentioned(without[1]!) : [];
  const contact = contactIn(
    prompt,
    (place?.country as CountryCode | undefined) ?? LANGUAGE_COUNTRY[language],
  );
  const hours = hoursIn(prompt, language);
  const prices = pricesIn(prompt);
  const wanted = new Set<SectionId>([
    ...kind.sections,
    ...mentioned.filter((s) => s !== 'contact' || kind.sections.includes('contact')),
    ...pages,
  ]);
  if (hours.length) wanted.add('hours');
  if (!wanted.has('contact') && !wanted.has('booking') && !wanted.has('signup')) wanted.add('contact');
  // "No emergency service at weekends" does not take away a services page the prompt asks for.
  for (const s of unwanted) if (!pages.includes(s)) wanted.delete(s);
  // The kind's own order, then what the prompt added, then the ways to get in touch last.
  const last: SectionId[] = ['booking', 'signup', 'contact'];
  const order = [
    ...kind.sections.filter((s) => !last.includes(s)),
    ...SECTION_IDS.filter((s) => !kind.sections.includes(s) && !last.includes(s)),
    ...last,
  ];
  return {
    version: 2,
    language,
    name,
    kind: kind.id,
    place: place?.name || null,
    country: place?.country ?? null,
    ...briefColours(prompt, given),
    font: fontIn(prompt) ?? null,
    density: densityIn(prompt) ?? 'comfortable',
    headline: null,
    tagline: null,
    sections: order.filter((s) => wanted.has(s)),
    pages: pages.filter((s) => wanted.has(s)),
    offers: withoutFacts(offersIn(prompt), language),
    contact,
    hours,
    prices,
    texts: {},
    replaced: [],
    images: [],
    pictures: {},
  };
}

const OLD_SECTIONS: Record<string, SectionId> = { testimonials: 'reviews' };
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/** A brief as stored; a first-version brief (before kinds had their own sections) is read too. */
export function parseBrief(text: string): Brief | undefined {
  try {
    const b = JSON.parse(text) as Partial<Brief> & { sections?: string[] };
    if (typeof b.name !== 'string' || typeof b.kind !== 'string' || !Array.isArray(b.sections))
      return undefined;
    const sections = b.sections
      .map((s) => OLD_SECTIONS[s] ?? s)
      .filter((s): s is SectionId => (SECTION_IDS as readonly string[]).includes(s));
    const contact = (b.contact ?? {}) as Partial<Brief['contact']>;
    return {
      version: b.version === 2 ? 2 : 1,
      language: LANGUAGES.includes(b.language as Language) ? (b.language as Language) : 'en',
      name: b.name,
      kind: b.kind,
      place: str(b.place),
      country: str(b.country),
      primary: typeof b.primary === 'string' && parseHex(b.primary) ? b.primary : null,
      // Briefs written before accents and page tones have neither: the kind's accent, a white page.
      accent: typeof b.accent === 'string' && parseHex(b.accent) ? b.accent : null,
      background: typeof b.background === 'string' && parseHex(b.background) ? b.background : null,
      dark: b.dark === true,
      font: FONT_IDS.includes(b.font as FontId) ? (b.font as FontId) : null,
      density: b.density === 'compact' || b.density === 'spacious' ? b.density : 'comfortable',
      headline: str(b.headline),
      tagline: str(b.tagline),
      sections: [...new Set(sections)],
      pages: Array.isArray(b.pages) ? b.pages.filter((s) => sections.includes(s)) : [],
      offers: Array.isArray(b.offers)
        ? b.offers.filter((o): o is string => typeof o === 'string').slice(0, 6)
        : null,
      contact: { phone: str(contact.phone), email: str(contact.email), address: str(contact.address) },
      hours: Array.isArray(b.hours) ? b.hours.filter((h): h is string => typeof h === 'string') : [],
      prices: Array.isArray(b.prices)
        ? b.prices.filter((p) => p && typeof p.item === 'string' && typeof p.price === 'string')
        : [],
      texts:
        b.texts && typeof b.texts === 'object'
          ? Object.fromEntries(Object.entries(b.texts).filter(([, v]) => typeof v === 'string'))
          : {},
      replaced: Array.isArray(b.replaced)
        ? b.replaced.filter(
            (r) =>
              r &&
              typeof r.tag === 'string' &&
              typeof r.className === 'string' &&
              typeof r.from === 'string' &&
              typeof r.to === 'string',
          )
        : [],
      images: Array.isArray(b.images) ? b.images.filter((i): i is string => typeof i === 'string') : [],
      pictures:
        b.pictures && typeof b.pictures === 'object'
          ? Object.fromEntries(Object.entries(b.pictures).filter(([, v]) => typeof v === 'string'))
          : {},
    };
  } catch {
    return undefined;
  }
}
