// What `npm run bench:generation` judges in a generated site, each list kept in one place: the
// prompts' format, which kind ids count as the same kind, which html-validate rules are off, and
// the patterns of facts a generator invents when the prompt gave none.
import { readFileSync } from 'node:fs';

export interface Expect {
  /** The business (or person, couple, product) name the site must show; null when the prompt has none (not checked). */
  name: string | null;
  /** The place the site must show (text or title); null when the prompt names none (then the generator must not detect one). */
  place: string | null;
  /** ISO 3166 country of the place, for the currency of any price shown; null when none. */
  country: string | null;
  /** A plain descriptive kind id, compared through KIND_ALIASES. */
  kind: string;
  /** File names of the pages the prompt asks for (index.html included); each must exist and be linked from index.html's navigation. */
  pages?: string[];
  /** Words or phrases that must appear in the site's visible text (any page, case-insensitive). */
  sections?: string[];
  /** ISO 639-1 language the site must be written in (`<html lang>`); absent: English. */
  language?: string;
  /** The facts the prompt states, as written: each must be on the site, and never as a heading. */
  facts?: { address?: string; phone?: string; email?: string; hours?: string[] };
  /** The English colour word the prompt asks for (not checked by colour science: noted only). */
  color?: string;
}

export interface BenchPrompt {
  id: string;
  prompt: string;
  expect: Expect;
  /** Why an expectation is what it is (e.g. a name the prompt does not give). */
  note?: string;
}

export function loadPrompts(file: string): BenchPrompt[] {
  const prompts = JSON.parse(readFileSync(file, 'utf8')) as BenchPrompt[];
  const ids = new Set<string>();
  for (const p of prompts) {
    if (!/^[a-z0-9-]+$/.test(p.id) || ids.has(p.id))
      throw new Error(`${file}: bad or repeated id ${JSON.stringify(p.id)}`);
    ids.add(p.id);
    if (typeof p.prompt !== 'string' || !p.expect || typeof p.expect.kind !== 'string')
      throw new Error(`${file}: ${p.id} needs prompt and expect.kind`);
  }
  return prompts;
}

/**
 * Kind ids that mean the same kind of site, whoever names them (the prompts here or the generator
 * in its notes): each group's first id is the one both sides are reduced to. Ids in no group
 * stand for themselves. A kind matches when both sides reduce to the same id.
 */
const KIND_GROUPS: string[][] = [
  [
    'trades',
    'plumber',
    'plumbing',
    'electrician',
    'electrical',
    'builder',
    'handyman',
    'roofer',
    'carpenter',
    'tradesperson',
  ],
  ['law', 'lawyer', 'legal', 'solicitor', 'attorney', 'law-firm'],
  ['accounting', 'accountant', 'accountancy', 'bookkeeping', 'tax'],
  ['dentist', 'dental'],
  ['clinic', 'medical', 'health', 'healthcare', 'physio', 'physiotherapy', 'therapist', 'doctor'],
  ['fitness', 'gym', 'studio', 'yoga', 'pilates', 'personal-trainer'],
  ['generic', 'business', 'other'],
  ['software', 'saas', 'tech', 'startup'],
  ['app', 'mobile-app', 'mobile'],
  ['hotel', 'bnb', 'b&b', 'guesthouse', 'accommodation', 'inn'],
  ['realestate', 'real-estate', 'estate-agent', 'property', 'realtor'],
  ['vet', 'veterinary', 'veterinarian'],
  ['garage', 'mechanic', 'automotive', 'car-repair', 'auto'],
  ['architect', 'architecture'],
  ['artist', 'painter', 'art', 'illustrator'],
  ['consultant', 'consulting', 'consultancy'],
  ['school', 'tutor', 'tutoring', 'education', 'teacher'],
  ['music', 'band', 'musician'],
  ['events', 'event', 'wedding'],
  ['nonprofit', 'charity', 'non-profit', 'ngo'],
  ['photographer', 'photography'],
  ['pets', 'pet', 'grooming', 'groomer', 'dog-grooming', 'pet-care'],
  [
    'shop',
    'store',
    'retail',
    'ecommerce',
    'e-commerce',
    'online-shop',
    'bookshop',
    'bookstore',
    'wine',
    'wine-shop',
  ],
  ['florist', 'flowers'],
  ['cafe', 'coffee', 'coffee-shop'],
  ['salon', 'hairdresser', 'barber', 'beauty', 'hair'],
];
const CANONICAL = new Map(KIND_GROUPS.flatMap((group) => group.map((id) => [id, group[0]!] as const)));
export const canonicalKind = (id: string): string => CANONICAL.get(id.toLowerCase()) ?? id.toLowerCase();
export const kindsMatch = (expected: string, detected: string | undefined): boolean =>
  detected !== undefined && canonicalKind(expected) === canonicalKind(detected);

/**
 * html-validate: the recommended preset minus rules about style only (how markup is written, not
 * whether it is right): the doctype's case, attribute quoting, `<br>` vs `<br/>`, trailing
 * whitespace, inline `style` attributes, and titles longer than 70 characters.
 */
export const STYLISTIC_RULES_OFF = [
  'doctype-style',
  'attr-quotes',
  'void-style',
  'no-trailing-whitespace',
  'no-inline-style',
  'long-title',
] as const;

/**
 * Facts a generator makes up when the prompt gave none, as they show in a page's visible text
 * (innerText). Each pattern is global; every match counts. Prices are facts too unless the prompt
 * itself gives that amount (see allowedPrice).
 */
export const INVENTED_FACTS: { name: string; pattern: RegExp }[] = [
  // Ratings: "4.9/5", "4.8 out of 5", star glyphs, "5 stars".
  {
    name: 'rating',
    pattern: /\b[0-5](?:[.,]\d)?\s*(?:\/|out of)\s*5\b|[★⭐]+|\b[0-5](?:\.\d)?[- ]stars?\b/gi,
  },
  // Experience and track record: "20 years", "15+ years", "since 1998", "established 2004".
  {
    name: 'years',
    pattern: /\b\d+\+?\s*years?\b|\b(?:since|established|est\.|founded(?: in)?)\s+(?:19|20)\d\d\b/gi,
  },
  // Head counts: "500+ happy clients", "1,000 customers", "200 patients".
  {
    name: 'clients',
    pattern:
      /\b\d[\d,.]*\s*\+?\s*(?:happy\s+|satisfied\s+|loyal\s+)?(?:clients|customers|patients|students|members|guests)\b/gi,
  },
  // Testimonials attributed to a name: a quote followed (same line or the next) by "— Name" or a
  // line that is a name ("Claire M.", "Anna & Leo", "Tom R., Bristol"), or an attribution line "— Claire M.".
  {
    name: 'testimonial',
    pattern:
      /[“"«][^”"»\n]{8,}[”"»]\s*(?:[—–-]\s*)?\p{Lu}[\p{L}'’-]+(?:\s+(?:&\s+|and\s+)?\p{Lu}[\p{L}.'’-]*)?\s*(?:,|$)|^\s*[—–]\s*\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}.'’-]*)?\s*,?\s*$/gmu,
  },
  // Phone numbers: international (+44 ...), national with a leading 0 or (area code), US 555-123-4567.
  {
    name: 'phone',
    pattern:
      /(?:\+\d{1,3}[\s.-]?\(?\d{1,5}\)?|\(?0\d{1,5}\)?|\(\d{3}\))[\s.-]?\d{3,4}[\s.-]?\d{3,4}\b|\b\d{3}[.-]\d{3}[.-]\d{4}\b/g,
  },
  // Street addresses ("12 Harbour Street", "5 rue de la Paix", "Hauptstraße 5") and UK postcodes
  // (a year is no house number: "© 2026 Ledger Lane Accountants").
  {
    name: 'address',
    pattern:
      /(?<!©\s?)\b(?!(?:19|20)\d\d\b)\d{1,4}[a-z]?,?\s+(?:\p{Lu}[\p{L}'’-]*\s+){1,3}(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Way|Boulevard|Blvd|Place|Square|Drive|Terrace|Close|Crescent|Row|Parade|Quay|Wharf)\b|\b\d{1,4},?\s+(?:rue|avenue|boulevard|place|via|calle)\s+\p{L}+|\b\p{Lu}\p{L}+(?:straße|strasse|weg|platz|gasse)\s+\d+|\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b/gu,
  },
  // Prices: a currency symbol or code next to an amount ("£65", "from €45", "18 EUR", "USD 20").
  { name: 'price', pattern: pricePattern() },
];

function pricePattern(): RegExp {
  return /(?:[£$€¥]|\b(?:USD|EUR|GBP|JPY|DKK|CHF)\s?)\s?\d+(?:,\d{3})*(?:\.\d{1,2})?|\b\d+(?:[,.]\d{3})*(?:[.,]\d{1,2})?\s?(?:€|£|¥|\$|kr\b|(?:USD|EUR|GBP|JPY|DKK|CHF)\b)/g;
}

const amount = (price: string): number =>
  Number(
    (/\d+(?:[,.]\d{3})*(?:[.,]\d{1,2})?/.exec(price)?.[0] ?? 'NaN')
      .replace(/[,.](\d{3})/g, '$1')
      .replace(',', '.'),
  );

/** A price shown is no invented fact when the prompt itself gives that amount. */
export function allowedPrice(prompt: string, price: string): boolean {
  const given = [...prompt.matchAll(pricePattern())].map((m) => amount(m[0]));
  return given.includes(amount(price));
}

export interface FactsFound {
  count: number;
  first?: string;
  /** Every match, as `kind: text`. */
  all: string[];
  /** Prices in another currency than the country's. */
  wrongCurrency: string[];
}

const CURRENCIES: Record<string, RegExp> = {
  GB: /£|GBP/,
  US: /\$|USD/,
  IE: /€|EUR/,
  FR: /€|EUR/,
  DE: /€|EUR/,
  PT: /€|EUR/,
  ES: /€|EUR/,
  IT: /€|EUR/,
  NL: /€|EUR/,
  DK: /kr|DKK/,
  JP: /¥|JPY|円/,
  CH: /CHF/,
};

export function inventedFacts(text: string, prompt: string, country: string | null): FactsFound {
  const found: FactsFound = { count: 0, all: [], wrongCurrency: [] };
  for (const { name, pattern } of INVENTED_FACTS) {
    for (const m of text.matchAll(new RegExp(pattern.source, pattern.flags))) {
      const match = m[0].trim();
      // A phone number or an address the prompt gave is a stated fact, not an invented one.
      if ((name === 'phone' || name === 'address') && stated(prompt, match)) continue;
      if (name === 'price') {
        const currency = country ? CURRENCIES[country] : undefined;
        if (currency && !currency.test(match)) found.wrongCurrency.push(match);
        if (allowedPrice(prompt, match)) continue;
      }
      found.count++;
      found.all.push(`${name}: ${match.replace(/\s+/g, ' ').slice(0, 40)}`);
      found.first ??= found.all[0];
    }
  }
  return found;
}

const digits = (s: string) => s.replace(/\D/g, '');
/** The prompt gives this text (an address), or these digits in one number (a phone written with other spaces). */
function stated(prompt: string, match: string): boolean {
  if (contains(prompt, match)) return true;
  const wanted = digits(match);
  return (
    wanted.length >= 6 &&
    (prompt.match(/[+(]?\d[\d\s()./-]{4,}\d/g) ?? []).some((n) => digits(n).includes(wanted))
  );
}

/** Text as compared: case, accents as typed (NFC), curly apostrophes and runs of whitespace made alike. */
export const normalize = (text: string): string =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/\u2011/g, '-')
    .replace(/\s+/g, ' ');
export const contains = (haystack: string, needle: string): boolean =>
  normalize(haystack).includes(normalize(needle));
