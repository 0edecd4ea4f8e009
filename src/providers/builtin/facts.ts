// Facts a prompt states, in the seven languages, taken as written and never invented: the phone
// number (libphonenumber-js), the email, the address (after a word that introduces it, or a
// street with its number and town) and the opening hours (days with times, wherever they stand).
import { findNumbers, type CountryCode } from 'libphonenumber-js/max';
import type { Brief } from './brief-shape.ts';
import { clean } from './prompt-text.ts';
import type { Language } from './words/types.ts';

const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d[\d\s.-]{5,16}\d/;
export const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;

/** The country whose phone numbers a prompt in each language most likely gives, when no place says. */
export const LANGUAGE_COUNTRY: Record<Language, CountryCode> = {
  en: 'GB',
  de: 'DE',
  fr: 'FR',
  es: 'ES',
  it: 'IT',
  nl: 'NL',
  pt: 'PT',
};
const PHONE_WORD =
  /(?<![\p{L}])(?:phone|call|tel(?:ephone)?|mobile|mob|text|txt|sms|whatsapp|zap|fone|telefone|ligue|ring|telefon|telefono|teléfono|téléphone|tél|telefoon|telemóvel|celular|handy|móvil|cellulare|app me op|contact|kontakt|contacto|contatto)(?![\p{L}])[^\d+(]{0,20}/iu;

/** The phone number a prompt gives, as written: a valid number of the country, else one after a word that says it is one. */
export function phoneIn(prompt: string, country: CountryCode): string | null {
  const at = PHONE_WORD.exec(prompt);
  // A time range ("9.00-14.00") can pass for a number of some country: never a phone.
  const valid = findNumbers(prompt, { defaultCountry: country, v2: true }).find(
    (n) => !/\d{1,2}[.:]\d{2}\s*-/.test(prompt.slice(n.startsAt, n.endsAt)),
  );
  if (!at) return valid ? prompt.slice(valid.startsAt, valid.endsAt) : groupedNumber(prompt);
  const after = prompt.slice(at.index + at[0].length);
  const named = findNumbers(after, { defaultCountry: country, v2: true })[0];
  if (named && named.startsAt === 0) return after.slice(0, named.endsAt);
  if (valid) return prompt.slice(valid.startsAt, valid.endsAt);
  // Fake-looking but well-formed numbers ("+33 6 39 98 12 45") after such a word: the library's
  // POSSIBLE leniency (documented in its README, absent from its type declarations).
  const possibleOnly = { defaultCountry: country, v2: true as const, leniency: 'POSSIBLE' };
  const possible = findNumbers(after, possibleOnly)[0];
  return possible && possible.startsAt === 0
    ? after.slice(0, possible.endsAt)
    : (PHONE.exec(after)?.[0]?.trim() ?? null);
}

/**
 * With no word saying so and no number the library calls valid (the reserved "01632 960 274",
 * "(066) 555 0148"): nine to thirteen digits written in groups as phone numbers are, never a time,
 * a date, an amount or a postcode.
 */
function groupedNumber(prompt: string): string | null {
  for (const m of prompt.matchAll(
    /(?<![\p{L}\d€£$.,:/-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,5}\)\s?)?\d{2,5}(?:[\s.-]\d{2,5}){1,4}(?![\p{L}\d€£%:/]|[.,]\d)/gu,
  )) {
    const digits = m[0].replace(/\D/g, '').length;
    if (digits >= 9 && digits <= 13 && !/\d{1,2}[.:]\d{2}/.test(m[0])) return m[0].trim();
  }
  return null;
}

/** "Adresse: Karl-Heine-Straße 71, 04229 Leipzig, Telefon ...": the address runs to the next fact or sentence. */
const ADDRESS =
  /(?<![\p{L}])(?:address(?: is)?|located at|find us at|we are at|we're at|adresse|anschrift|dirección|direccion|indirizzo|adres|morada|endereço)\s*:?\s+([^;\n]{4,120}?)(?=,?\s+(?:tel|telefon|phone|tél|e-?mail|fax|call)\b|\.\s|[;\n]|\.?$)/iu;

/** Contact details the prompt gives (never invented). */
export function contactIn(prompt: string, country: CountryCode = 'GB'): Brief['contact'] {
  const email = EMAIL.exec(prompt)?.[0];
  const address = ADDRESS.exec(prompt)?.[1] ?? streetAddressIn(prompt);
  return { phone: phoneIn(prompt, country), email: email ?? null, address: address ? clean(address) : null };
}

// A street with its number, in the seven languages, for an address no word introduces
// ("Estamos en Calle de Fuencarral 123, 28010 Madrid", "siamo in via garibaldi 88", "Our yard is at Unit 7, Feeder Road ...").
const STREET_AFTER =
  'street|st|road|rd|lane|ln|avenue|ave|way|drive|close|crescent|terrace|square|parade|row|hill|place|boulevard|bd|quai';
const STREET_BEFORE =
  'rue|avenue|boulevard|bd|place|quai|chemin|allée|impasse|cours|calle|c/|avenida|av\\.|plaza|paseo|camino|carrer|via|viale|piazza|corso|vicolo|largo|rua|praça|travessa|estrada|alameda';
const STREET_SUFFIX =
  'straße|strasse|str\\.|weg|gasse|platz|allee|ring|damm|ufer|straat|laan|gracht|plein|kade|dijk|singel|steeg';
const WORD = "[\\p{L}][\\p{L}'’.-]*";
const NUMBER = '\\d{1,4}[a-z]?';
/** A number that counts something ("corso di 4 settimane", "12 people") ends no street. */
const NOT_COUNT =
  '(?!\\s*(?:settimane|weeks?|semaines?|wochen|semanas|weken|persone|people|personnes|personen|pessoas|personas|min|minutes?|ore|hours?|heures|stunden|horas|uur|giorni|days?|jours|tage|días|dias|dagen|anni|years?|ans|jahre|años|anos|jaar|x|€|%)(?![\\p{L}]))';
export const STREET = new RegExp(
  [
    // "40 Cwmbwrla Street", "27 boulevard Longchamp", "12 Princess Victoria Street"
    `${NUMBER}\\s+(?:${WORD}\\s+){0,3}(?:${STREET_AFTER})(?![\\p{L}])(?:\\s+${WORD}){0,2}`,
    `${NUMBER}\\s+(?:${STREET_BEFORE})\\s+(?:${WORD}\\s+){0,3}${WORD}`,
    // "Calle de Fuencarral 123", "via garibaldi 88", "place du Marché 14"
    `(?:${STREET_BEFORE})\\s+(?:${WORD}\\s+){0,4}?${NUMBER}(?!\\d|[:.]\\d)${NOT_COUNT}`,
    // "Karl-Heine-Straße 71", "venloer str. 312", "Haarlemmerdijk 112"
    `${WORD}(?:${STREET_SUFFIX})\\s*${NUMBER}(?!\\d|[:.]\\d)${NOT_COUNT}`,
    `${WORD}\\s+(?:str\\.|straße|strasse|weg|gasse|platz|allee)\\s*${NUMBER}(?!\\d|[:.]\\d)${NOT_COUNT}`,
    // "Unit 7, Feeder Road Trade Park": a unit, then a street without a number
    `(?:unit|suite|flat|building|block)\\s+${NUMBER},\\s+(?:${WORD}\\s+){0,2}(?:${STREET_AFTER})(?:\\s+${WORD}){0,3}`,
  ].join('|'),
  'iu',
);
/** After the street: ", 28010 Madrid", ", Bristol BS2 0TX", ", Swansea SA5 8AZ", ", 9000 Gent". */
const TOWN =
  /^,?\s+(?:\d{4,5}(?:-\d{3})?\s+[\p{L}][\p{L}' -]{1,30}|[\p{Lu}][\p{L}'-]+(?:\s[\p{Lu}][\p{L}'-]+)?(?:\s+[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})?)(?=[,.;!?\n]|\s*$|\s+(?:tel|phone|call|email|e-mail|and|und|et|y|e|en)\b)/u;
/** Before the number: "Unit 7, ", "St Jude's Church Hall, ". */
const PREMISES =
  /(?:(?:unit|suite|flat|floor|building|block)\s+\d{1,4}[a-z]?|(?:[\p{Lu}][\p{L}'’]*\s+){1,4}(?:hall|house|centre|center|church|building|court|mill|works|yard|estate))\s*,\s*$/iu;

function streetAddressIn(prompt: string): string | undefined {
  const street = STREET.exec(prompt);
  if (!street) return undefined;
  let start = street.index;
  let end = start + street[0].length;
  const premises = PREMISES.exec(prompt.slice(Math.max(0, start - 60), start));
  if (premises) start -= premises[0].length;
  const town = TOWN.exec(prompt.slice(end));
  if (town) end += town[0].length;
  return prompt.slice(start, end).replace(/[,\s]+$/, '');
}

// Days as prompts write them in the seven languages ("Mo–Fr", "lun-ven", "L-V", "di t/m za", "seg a sex", "2.ª a 6.ª").
const DAY =
  '(?:mon|tue|wed|thu|fri|sat|sun|week|daily|every day|weekend|mo|di|mi|do|fr|sa|so|täglich|lun|mar|mer|jeu|ven|sam|dim|tous les jours|' +
  'l-v|lunes|martes|mié|jue|vie|sáb|dom|de lunes|de martes|todos los días|gio|sab|tutti i giorni|ma|wo|vr|za|zo|dagelijks|seg|ter|qua|qui|sex|todos os dias|\\d\\.ª)';
const HOURS_WORD =
  '(?:opening hours|opening times|hours|open|öffnungszeiten|geöffnet|auf(?=\\s*:)|horaires|ouvert|horario|abierto|orari|aperti|aperto|openingstijden|geopend|horário|aberto)';
/** Opening hours the prompt gives: "open Mon–Fri 8am–6pm, Sat 9–4", "opening hours: ...". */
export function hoursIn(prompt: string, language: Language = 'en'): string[] {
  const m = new RegExp(
    `(?<![\\p{L}])${HOURS_WORD}(?![\\p{L}])\\s*(?:are|is|sind|sont|son|sono|zijn|são)?\\s*:?\\s*((?:${DAY}|\\d)[^\\n]*?)(?=\\.\\s|\\n|\\.?$)`,
    'iu',
  ).exec(prompt);
  const scanned = dayTimes(prompt, language);
  if (!m || !/\d|closed|daily|every day/i.test(m[1]!)) return scanned;
  const listed = m[1]!
    .split(/\s*[;,]\s*(?:and\s+)?|\s+(?:and|und|et|en)\s+(?=\p{L}{2,})/u)
    .map((s) => clean(s))
    // "... at St Jude's Church Hall, 40 Cwmbwrla Street": the list goes on past the hours.
    .filter((s) => s.length > 1 && (TIME_LIKE.test(s) || CLOSED.test(s) || /daily|every day/i.test(s)));
  // A list led by "open" that holds no day and time ("open to everyone, 9-5") is the scanner's to read.
  // Days with times as the scanner reads them (without what follows: "... at the Old School Hall"), and
  // what else the list says ("closed Sundays").
  if (!scanned.length) return listed.slice(0, 10);
  const rest = listed.filter(
    (l) =>
      !scanned.some((d) => l.toLowerCase().includes(d.toLowerCase())) &&
      !dayTimes(l, language).length &&
      CLOSED.test(l),
  );
  return [...scanned, ...rest].slice(0, 10);
}

export const TIME_LIKE =
  /\d{1,2}\s*(?:[:.h]\d{2}|am|pm|h(?![\p{L}])|uhr|hs|uur)|\d{1,2}\s*[-–]\s*\d{1,2}(?!\d)/iu;
export const CLOSED =
  /(?<![\p{L}])(?:closed|geschlossen|ruhetag|fermé|cerrado|chius[oi]|gesloten|fechado)(?![\p{L}])/iu;

/** Day names and their short forms, English and each other language ("Mo", "lun", "L", "seg", "2.ª"). */
const DAY_NAMES: Record<Language, string> = {
  en: 'm-f|mon(?:day)?s?|tue(?:s(?:day)?)?s?|wed(?:nesday)?s?|thu(?:rs?(?:day)?)?s?|fri(?:day)?s?|sat(?:urday)?s?|sun(?:day)?s?|weekdays|weekends?|every day|daily',
  de: 'mo(?:ntag)?|di(?:enstag)?|mi(?:ttwoch)?|do(?:nnerstag)?|fr(?:eitag)?|sa(?:mstag)?|so(?:nntag)?|täglich',
  fr: 'lun(?:di)?|mar(?:di)?|mer(?:credi)?|jeu(?:di)?|ven(?:dredi)?|sam(?:edi)?|dim(?:anche)?|tous les jours',
  es: 'lun(?:es)?|mar(?:tes)?|mi[eé](?:rcoles)?|jue(?:ves)?|vie(?:rnes)?|s[aá]b(?:ados?)?|dom(?:ingos?)?|l|v|s|d|todos los días',
  it: 'lun(?:edì)?|mar(?:tedì)?|mer(?:coledì)?|gio(?:vedì)?|ven(?:erdì)?|sab(?:ato)?|dom(?:enica)?|tutti i giorni',
  nl: 'ma(?:andag)?|di(?:nsdag)?|wo(?:ensdag)?|do(?:nderdag)?|vr(?:ijdag)?|za(?:terdag)?|zo(?:ndag)?|dagelijks',
  pt: 'seg(?:unda)?|ter(?:ça)?|qua(?:rta)?|qui(?:nta)?|sex(?:ta)?|s[aá]b(?:ados?)?|dom(?:ingos?)?|\\d\\.ª|todos os dias',
};
const TIME = String.raw`\d{1,2}(?:[:.h]\d{2})?\s*(?:a\.m\.|p\.m\.|am|pm|h|uhr|hs|u|m\.)?`;
const UNTIL = String.raw`\s*(?:-|–|—|to|till|until|a|à|às|au|bis|alle|al|tot|t/m)\s*`;
const RANGE = String.raw`(?:(?:from|von|de|des|das|dalle|dal|van)\s+)?${TIME}${UNTIL}${TIME}(?:\s*(?:uhr|uur|hs|h))?`;

/**
 * Days followed by times, wherever they stand: "mon-fri 9-7 sat 8-5", "di-vr 9-17 en za 9-13",
 * "lunes a viernes 9 a 20 hs", "seg a sex 6h às 21h", "2.ª a 6.ª das 9h às 18h". The short day
 * names of the prompt's own language only (German "do" is Thursday; English "do" is a verb).
 */
export function dayTimes(prompt: string, language: Language): string[] {
  const day = `(?:${DAY_NAMES.en}${language === 'en' ? '' : `|${DAY_NAMES[language]}`})\\.?`;
  // "le dimanche", "il sabato", "Mo, Di, Do", "Mi und Fr", "lunes a sábado".
  const one = `(?:(?:le|la|il|el|los|las|am|op|on|the|de|du|dal|van|das|from|von)\\s+)?${day}`;
  const days = `${one}(?:${UNTIL}${day}|(?:\\s*,\\s*|\\s+(?:und|and|et|y|e|en)\\s+)${day})*`;
  const pattern = new RegExp(
    `(?<![\\p{L}\\d])${days}[\\s,:]+${RANGE}(?:\\s*(?:y|e|et|und|and|en|,|/)\\s*${RANGE})*(?![\\p{L}\\d])`,
    'giu',
  );
  // As written, "p.m." with its dot.
  return [...prompt.matchAll(pattern)].map((m) => (/[ap]\.m\.$/i.test(m[0]) ? m[0].trim() : clean(m[0])));
}
