// The builtin generator's understanding of a site: what it renders, and what it keeps in
// `.sitewright/builtin-brief.json` (builtin/notes.ts) so that a follow-up prompt can change it
// reliably. Facts (phone, email, address, opening hours, prices) are only ever the prompt's own.
import { findNumbers, type CountryCode } from 'libphonenumber-js/max';
import { asDarkPage, asLightPage, BLACK_PAGE, LIGHT_TONES, luminance, mix, NAMED_COLORS, parseHex, toHex } from './colors.ts';
import { FONT_IDS, fontIn, type FontId } from './fonts.ts';
import { escapeRegex, findKind, GENERIC, KINDS, SECTION_IDS, type Kind, type SectionId } from './kinds.ts';
import { languageOf } from './language.ts';
import { findPlace, isKnownPlace, titleCase } from './places.ts';
import { hasAmount, pricesIn, withoutPrice, type GivenPrice } from './prices.ts';
import { ALL_WORDS, kindIn, kindWordsOf, ourBusiness, wordsFor } from './words/index.ts';
import { LANGUAGES, type Language } from './words/types.ts';

export type Density = 'compact' | 'comfortable' | 'spacious';

export interface Brief {
  /** 1: made by the first builtin generator, whose pages this one cannot reproduce. */
  version: 1 | 2;
  /** The language every word of the site is written in. */
  language: Language;
  name: string;
  kind: string;
  place: string | null;
  /** ISO 3166 code of the place's country; null: unknown, and then no currency is shown. */
  country: string | null;
  /** Brand colour as #rrggbb; null: the kind's own. */
  primary: string | null;
  /** A second colour as #rrggbb ("navy and gold": gold), for decoration only; null: the kind's own. */
  accent: string | null;
  /**
   * The page's tone as #rrggbb ("cream and gold": cream; "black background"); null: white, or the
   * dark theme's own. A light tone on a dark theme tints its text instead (render.ts palette).
   */
  background: string | null;
  dark: boolean;
  /** null: the kind's own. */
  font: FontId | null;
  density: Density;
  headline: string | null;
  tagline: string | null;
  /** The sections of the site, in order, after the hero. */
  sections: SectionId[];
  /** Sections that have a page of their own (`about.html` …) instead of a place on the home page. */
  pages: SectionId[];
  /** What the business offers, in the prompt's own words; null: the kind's. */
  offers: string[] | null;
  contact: { phone: string | null; email: string | null; address: string | null };
  /** Opening hours as the prompt gave them, one line each. */
  hours: string[];
  /** Prices the prompt gave. */
  prices: { item: string; price: string }[];
  /** Texts changed after generation (in the builder or by a prompt), by the key of their element. */
  texts: Record<string, string>;
  /**
   * Texts changed after generation in elements without a key (a navigation link, a button, a
   * label): every element of that tag and class that renders `from` says `to` instead, in order.
   */
  replaced: ReplacedText[];
  /** The project's own images the site shows (gallery, products, hero), as they were when it was rendered. */
  images: string[];
  /** Images the person placed (a prompt on a selected picture), by slot: 'hero', 'about', 'gallery.2', 'products.0'. */
  pictures: Record<string, string>;
}

export interface ReplacedText {
  tag: string;
  /** Its class attribute ('' for none), without a placeholder's `todo`. */
  className: string;
  from: string;
  to: string;
}

/** What each section is called in a prompt ("an about page", "add a gallery"). */
export const SECTION_WORDS: Record<SectionId, RegExp> = {
  services: /\bservices?\b|\bwhat we do\b|\btreatments\b/,
  features: /\bfeatures?\b/,
  menu: /\bmenus?\b|\bdrinks list\b|\bwine list\b/,
  products: /\bproducts?\b|\bshop page\b|\bcatalog(?:ue)?\b|\brooms\b|\blistings\b/,
  gallery: /\bgallery\b|\bportfolio\b|\bphotos\b|\bour work\b/,
  timetable: /\btimetable\b|\bschedule\b|\bclass times\b|\bclasses\b/,
  pricing: /\bpricing\b|\bprices\b|\bprice list\b|\brates\b|\bplans\b|\btiers\b/,
  team: /\bteam\b|\bstaff\b|\bteachers\b|\bcoaches\b|\bour people\b/,
  about: /\babout\b|\bour story\b/,
  area: /\bservice area\b|\bareas? (?:we )?cover(?:ed)?\b/,
  emergency: /\bemergency\b|\bcall[- ]outs?\b/,
  events: /\bevents?\b|\bgigs?\b|\btour dates\b|\bwhat'?s on\b/,
  hours: /\bopening hours\b|\bopening times\b|\bhours\b/,
  booking: /\bbooking\b|\bbook(?:ings)? form\b|\breservations?\b|\bappointments?\b/,
  signup: /\bsign[- ]?up\b|\bnewsletter\b|\bwaiting list\b|\bwaitlist\b|\bfree trial\b/,
  donate: /\bdonat(?:e|ions?)\b/,
  faq: /\bfaqs?\b|\bquestions\b/,
  reviews: /\breviews?\b|\btestimonials?\b/,
  contact: /\bcontact\b|\bget in touch\b|\benquir(?:y|ies)\b|\bform\b/,
};

/** How a prompt in any of the other languages names each section ("Leistungen", "tarifs"). */
const OTHER_SECTION_WORDS = Object.fromEntries(
  SECTION_IDS.map((s) => {
    const words = [...new Set(ALL_WORDS.slice(1).flatMap((w) => w.sectionWords[s]))].sort((a, b) => b.length - a.length);
    return [s, new RegExp(`(?<![\\p{L}])(?:${words.map(escapeRegex).join('|')})(?![\\p{L}])`, 'u')];
  }),
) as Record<SectionId, RegExp>;

/** Sections a prompt mentions, in the site's order. */
export function sectionsMentioned(text: string): SectionId[] {
  const lower = text.toLowerCase();
  return SECTION_IDS.filter((s) => SECTION_WORDS[s].test(lower) || OTHER_SECTION_WORDS[s].test(lower));
}

/** "page" in the seven languages, singular and plural. */
const PAGE = "(?:pages?|seiten?|unterseiten?|páginas?|pagine|pagina(?:'s)?|paginas)";
/** Words between "page" and what it is for: "page for", "Seite für die", "página de", "pagina over ons". */
const PAGE_LINK =
  "(?:\\s+(?:for|about|on|with|of|our|the|für|über|mit|die|der|das|den|unsere[nr]?|de|du|des|la|le|les|sur|avec|pour|nos|notre|del|los|las|el|con|sobre|para|nuestr[oa]s?|di|della|delle|per|sui|sulla|over|met|voor|ons|onze|com|sobre|a|o|os|as|da|do|nossa|nosso))*";
/** A clause of what a page is for ends at a sentence, a bracket or a colon (prices follow one). */
const CLAUSE = "([^.;:!?()\\n]{1,90})";
/** Separate page, in the seven languages: "(página aparte)", "numa página própria", "own page". */
const OWN_PAGE = new RegExp(`(?:(?:separate|own|eigenen?|aparte|propia|própria|propria|séparée|apart(?:e)?|eigen)\\s+${PAGE}|${PAGE}\\s+(?:aparte|propia|própria|propria|à part|séparée|separata|a parte|apart|eigene))`, 'gu');

/**
 * Pages a prompt asks for, in any of the languages: "an about page", "pages: about, gallery",
 * "separate pages for Services, Prices and Contact", "Teamseite und FAQ-Seite", "une page équipe",
 * "páginas de servicios, equipo y contacto", "una pagina galleria", "een contactpagina", "a ementa
 * numa página própria".
 */
export function pagesMentioned(text: string): SectionId[] {
  const asked = new Set<SectionId>();
  for (const sentence of text.toLowerCase().split(/[.!?\n]/)) {
    const here = new Set<SectionId>();
    const add = (words: string) => sectionsMentioned(words).forEach((s) => here.add(s));
    // "an about page", "the menu and gallery pages".
    for (const m of sentence.matchAll(/\b((?:[\w'-]+\s+){0,2}[\w'-]+)\s+pages?\b/g)) add(m[1]!);
    // "Teamseite", "FAQ-Seite", "Preisseite", "contactpagina", "boekingspagina" (a linking s, a plural e).
    for (const m of sentence.matchAll(/(\p{L}{3,})-?(?:seite|pagina)(?!\p{L})/gu)) add(`${m[1]} ${m[1]!.replace(/s$/, '')} ${m[1]}e`);
    // "page équipe", "pagina galleria", "página de carta y otra de reservas", "pages for X, Y and Z":
    // what follows a page word, to the end of its clause. Not the site itself ("a landing page for
    // Metricly"), nor a list that goes on ("a menu page and a booking form").
    for (const m of sentence.matchAll(new RegExp(`(?<!\\p{L})(?<!(?:landing|home|one|single|web|start)[- ]?)${PAGE}${PAGE_LINK}\\s*:?\\s+${CLAUSE}`, 'gu'))) {
      if (!/^(?:and|or|und|oder|et|ou|y|o|e|en|of|that|which|where)\b/.test(m[1]!)) add(m[1]!);
    }
    // "galería (página aparte)", "a ementa numa página própria": the words just before.
    for (const m of sentence.matchAll(OWN_PAGE)) {
      const before = sentence.slice(Math.max(0, m.index - 40), m.index).split(/[,;:]|\s(?:and|und|et|y|e|en)\s/).pop()!;
      add(before.split(/\s+/).slice(-3).join(' '));
    }
    // A list that asks for pages makes a page of each short item in it: "een tarievenpagina en een FAQ".
    if (here.size > 0) {
      for (const item of sentence.split(/,|\s(?:and|und|et|y|e|en|or|oder|ou|o)\s/)) {
        const bare = /^\s*(?:a|an|the|een|het|de|eine?n?|une?|la|le|les|una?|el|il|uma?|o)?\s*([\p{L}-]+(?:\s[\p{L}-]+)?)\s*$/u.exec(item);
        if (bare && !/form|formul|section|sektion|abschnitt|sezione|sección|secção|sectie|^(?:with|mit|avec|con|com|met|for|für)\s/.test(bare[1]!)) add(bare[1]!);
      }
    }
    here.forEach((s) => asked.add(s));
  }
  return SECTION_IDS.filter((s) => asked.has(s));
}

// Words that start a sentence or describe rather than name: never a business name on their own.
const NOT_NAMES = new Set(
  `a an the make build create design need want website web site page landing portfolio homepage online official personal please i we my our for with new modern simple one it hi hello dark light
  can could would you me us call email visit contact book order find open show include add use get see a business company small local family independent professional best
  italian french thai indian chinese japanese mexican greek spanish turkish lebanese vietnamese korean british english scottish irish welsh american german portuguese
  monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun uk us usa eu ai seo b2b b2c saas api crm faq
  eine ein einen website webseite homepage seite seiten startseite start für unsere unser wir ich mein meine bitte erstelle erstellen baue brauche
  site pour notre nos mon ma crée créer créez besoin voici accueil sitio página web para nuestra nuestro mi crea necesito inicio
  sito per nostra nostro mio mia crea serve voor onze ons mijn maak nossa nosso minha meu crie cria preciso een um uma un una une ein
  hi hey hello hallo hoi moin servus bonjour salut coucou hola buenas ciao salve buongiorno oi olá ola
  we're we’re i'm i’m we've i've somos soy sono siamo sind bin suis sommes zijn ben sou estamos nous noi wij nós nosotros ik je io yo eu`.split(/\s+/),
);
const KIND_WORDS = new Set(
  [...KINDS.flatMap((k) => [...k.words, ...(k.hints ?? []), ...kindWordsOf(k.id)]), ...ALL_WORDS.flatMap((w) => Object.values(w.sectionWords).flat())].flatMap((w) =>
    w.split(/\s+/),
  ),
);

const clean = (text: string) =>
  text.replace(/\s+/g, ' ').replace(/^[\s,.;:'"“”]+|[\s,.;:'"“”!?]+$/g, '').slice(0, 80);
const isDescription = (words: string[]) => words.every((w) => NOT_NAMES.has(w.toLowerCase()) || KIND_WORDS.has(w.toLowerCase().replace(/(?:'s|s)$/, '')) || KIND_WORDS.has(w.toLowerCase()));

/** An article alone, at the start of a sentence ("Il", "Die", "Het"): never a name. */
const ARTICLE = /^(?:il|lo|la|le|les|el|los|las|der|die|das|de|het|o|os|as)$/i;

/** Capitalised word runs (allowing 's, &, and, of, de …) that can be a business name. */
const NAME_RUN =
  /[\p{Lu}\d][\p{L}\d'’.&-]*(?:\s+(?:(?:&|and|of|de|del|della|dei|di|da|do|dos|das|des|la|le|du|ai|al|the|von|van)(?![\p{L}])|[\p{Lu}\d][\p{L}\d'’.&-]*))*(?<![\s&.])/gu;
/** A connecting word a name does not end with ("… 6am-2pm and"). */
const TRAILING_LINK = /\s+(?:&|and|of|de|del|della|dei|di|da|do|dos|das|des|la|le|du|ai|al|the|von|van)$/u;
/** "'zweite runde'", "‘Bloom’": single quotes around a name (not an apostrophe inside a word). */
const SINGLE_QUOTED = /(?<![\p{L}])['‘]((?:[^'’\s]+\s){0,2}[^'’\s]+)['’](?![\p{L}])/u;
/** A part of an address, never a name: a unit, a street. */
const ADDRESS_PART =
  /^(?:Unit|Suite|Flat|Floor|Level|Building|Block|Room|Apartment|Shop|Stall|Office|No\.?|Number|Rue|Via|Viale|Calle|Avenida|Rua|Travessa|Largo|Piazza|Plaza|Place)\s|\s(?:Lane|Road|Street|St|Avenue|Ave|Way|Drive|Close|Crescent|Terrace|Square|Gardens|Parade|Row|Hill)$|(?:straße|strasse|weg|gasse|platz|allee|laan|straat|gracht|plein|kade)$/iu;
const STYLE_WORDS = /(?<![\p{L}])(?:theme|thème|thema|tema|design|style|stil|estilo|stile|stijl|mode|modo|look|colou?rs?|couleurs?|farben?|colores|colori|kleuren|cores)(?![\p{L}])/iu;
/** A prompt in lower case: "website for rise and shine bakery in whitby", "une crêperie à quimper, la crêpe dentelle,". */
const FOR_NAME = /(?<![\p{L}])(?:for|für|pour|para|per|voor)\s+(.{3,50}?)\s+(?:in|à|a|en|em|te)\s+PLACE(?![\p{L}])/iu;
const AFTER_PLACE = /(?<![\p{L}])PLACE,\s+([\p{L}][\p{L}'’ -]{2,40}?)(?=\s*(?:[,.!;:(]|\p{Extended_Pictographic}|$))/u;

function findName(prompt: string, placeName: string | null): string | undefined {
  const quoted = /["“]([^"”]{2,80})["”]/.exec(prompt) ?? SINGLE_QUOTED.exec(prompt);
  if (quoted && !isDescription(quoted[1]!.split(/\s+/))) return clean(quoted[1]!);
  // "called rise and shine", "named Luna": any case, to the end of the phrase.
  const called = /(?<![\p{L}])(?:called|named|name is|business name is|brand is|namens|heißt|genannt|s'appelle|appelée?|nommée?|llamad[oa]|se llama|chiamat[oa]|si chiama|genaamd|heet|chamad[oa]|se chama)\s+(.{2,80}?)(?=\s+(?:in|at|for|with|which|that|based|located|near|who|and we|we)\b|[,.;:!?\n(]|$)/iu.exec(prompt);
  if (called && !isDescription(called[1]!.split(/\s+/))) {
    const name = clean(called[1]!);
    return name === name.toLowerCase() ? titleCase(name) : name;
  }
  const place = placeName?.toLowerCase();
  if (place && (prompt.match(/\p{Lu}/gu)?.length ?? 0) < 3) {
    // In lower case a name has no capitals to find it by: the words between "for" and the place, or right after the place.
    const at = (pattern: RegExp) => new RegExp(pattern.source.replace('PLACE', escapeRegex(place)), 'iu').exec(prompt)?.[1];
    for (const [candidate, afterKind] of [[at(FOR_NAME), true], [at(AFTER_PLACE), false]] as const) {
      const words = candidate?.replace(/^(?:my|our|mein\w*|unser\w*|mon|ma|mes|notre|nos|mi|mis|nuestr[oa]s?|il mio|la mia|mio|mia|mijn|onze|m'n|o meu|a minha|meu|minha)\s+/iu, '').trim().split(/\s+/);
      // "barbershop Fade Factory": the kind before the name is not part of it.
      while (afterKind && words && words.length > 1 && !ARTICLE.test(words[0]!) && KIND_WORDS.has(words[0]!.toLowerCase())) words.shift();
      // "à paris, thème sombre": the look of the site, not its name.
      if (words?.length && words.length <= 5 && !isDescription(words) && !STYLE_WORDS.test(words.join(' ')) && !findColor(words.join(' ')) && !words.some((w) => NOT_NAMES.has(w.toLowerCase()) && !ARTICLE.test(w) && !/^(?:and|of|de|la|le|du|the)$/.test(w))) return titleCase(words.join(' '));
    }
  }
  for (const m of prompt.matchAll(NAME_RUN)) {
    // "#1e40af" is a colour.
    if (prompt[m.index - 1] === '#') continue;
    const words = m[0].split(/\s+/);
    // A run that starts a sentence may start with a word like "Make" or "Website": drop those
    // (but "The" of "The Velvet Hours" belongs to the name).
    while (words.length && NOT_NAMES.has(words[0]!.toLowerCase()) && !(words[0] === 'The' && words.length > 1 && !isDescription(words.slice(1)))) words.shift();
    const candidate = clean(words.join(' ').replace(TRAILING_LINK, ''));
    // "6am-2pm", "70er-style": a lone token that starts with a digit is a time or a number; "Unit 4", "Mill Lane": an address.
    if (/^\d\S*$/u.test(candidate) || ADDRESS_PART.test(candidate)) continue;
    if (candidate.length < 2 || !/\p{L}{2}/u.test(candidate) || ARTICLE.test(candidate) || isDescription(words) || isKnownPlace(candidate) || (place && place.split(/[\s-]+/).includes(candidate.toLowerCase()))) continue;
    // "Luna Bakery in Bristol" keeps the bakery; a run that is only the place is not a name.
    if (place && candidate.toLowerCase().endsWith(` ${place}`) && isDescription(words.slice(0, -place.split(' ').length))) continue;
    return candidate;
  }
  return undefined;
}

/** Colour words of every language, longest first ("vert sauge" before "vert"), to the English colour or light tone. */
const COLOR_WORDS: [RegExp, string][] = [
  ...[...Object.keys(NAMED_COLORS), ...Object.keys(LIGHT_TONES)].map((c): [string, string] => [c, c]),
  ...ALL_WORDS.flatMap((w) => Object.entries(w.colorWords)).filter(([, c]) => c in NAMED_COLORS || c in LIGHT_TONES),
]
  .sort((a, b) => b[0].length - a[0].length)
  .map(([word, colour]): [RegExp, string] => [new RegExp(`(?<![\\p{L}])${escapeRegex(word)}(?![\\p{L}])`, 'gu'), colour])
  // French "or" (gold) is also a conjunction in French and English: it is gold only beside "et" ("crème et or", "or et noir").
  .concat([[/(?<=(?<![\p{L}])et\s+)or(?![\p{L}])|(?<![\p{L}])or(?=\s+et(?![\p{L}]))/gu, 'gold']]);

// Phrases where a colour word names a food or a thing, not a colour: an ice-cream parlour wants no cream page.
const NOT_COLOURS =
  /(?<![\p{L}])(?:(?:ice|sour|clotted|whipped|double|shaving|sun|hand|face)[\s-]cream|cream[\s-](?:teas?|cheese|cakes?|puffs?|scones?|soda|sauce|liqueur)|cr[eè]me\s+(?:br[uû]l[eé]e|fra[iî]che|p[aâ]tissi[eè]re|anglaise|chantilly)|crema\s+(?:catalana|pasticcera|di|de)|white\s+(?:wine|chocolate|bread)|black\s+(?:coffee|pudding|forest|friday|tie))(?![\p{L}])/gu;
/** "dark green", "dunkles Grün", "vert foncé", "verde oscuro": a darker colour, not a dark theme. */
const DARKER_BEFORE = /(?<![\p{L}])(?:dark|deep|dunkel|dunkle[mnrs]?|donkere?)[\s-]+$/u;
const DARKER_AFTER = /^[\s-]+(?:fonc[ée]e?s?|sombres?|oscur[oa]s?|scur[oa]|scure|scuri|escur[oa]s?)(?![\p{L}])/u;
const DARK_THEME = /(?<![\p{L}])(?:dark|dunkel|dunkle[mnrs]?|dunkelmodus|sombres?|oscur[oa]s?|scur[oaie]|donkere?|escur[oa]s?)(?![\p{L}])/u;
/** "white text", "cream lettering": the colour of the words, not of the page. */
const TEXT_AFTER = /^[\s-]+(?:text|fonts?|type|writing|lettering|letters|headings?|schrift|texte?|testo|tekst|texto)(?![\p{L}])/u;
/** "black background", "schwarzer Hintergrund", "zwarte achtergrond", "cream-coloured background". */
const PAGE_AFTER = /^(?:[\s-]+(?:colou?red|farbene[mnrs]?|kleurige?))?[\s-]*(?:background|backdrop|hintergrund|achtergrond)(?![\p{L}])/u;
/** "background in navy", "fond noir", "fondo negro", "sfondo nero", "fundo preto", "Hintergrund: weiß". */
const PAGE_BEFORE = /(?<![\p{L}])(?:(?:background|backdrop|hintergrund|achtergrond)(?:\s+(?:in|of|is|colou?r))*|(?:fond|arrière-plan|fondo|sfondo|fundo)(?:\s+(?:de|en|di|em|couleur|colore|color|cor))*)\s*:?\s+$/u;
/** Generic hue words that end a compound ("sage green", "navy blue"): the first word says which colour. */
const HUE_NOUNS = new Set(['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'violet', 'pink', 'brown', 'grey', 'gray', 'white']);
const NEUTRALS = new Set(['black', 'grey', 'gray', 'slate']);

export interface Colours {
  primary: string | null;
  accent: string | null;
  background: string | null;
  /** What the prompt says of the theme: a dark word, a dark page or "black and gold"; a light page. */
  theme: 'dark' | 'light' | null;
}

interface Found {
  at: number;
  end: number;
  /** The English colour name; none for a #hex. */
  name?: string;
  hex: string;
  light: boolean;
  /** The prompt says this is the page's colour ("black background"). */
  page: boolean;
  /** The prompt says this is the text's colour ("cream text"). */
  text?: boolean;
}

const blank = (text: string, from: number, to: number) => text.slice(0, from) + ' '.repeat(to - from) + text.slice(to);

/**
 * The colours a prompt names, each in its role: the first hue is the brand, the second an accent;
 * a light tone (cream, ivory, white …) or a colour said to be the background is the page; dark
 * words or a dark page make a dark theme. A #hex is taken before any colour word.
 */
export function findColors(prompt: string): Colours {
  let rest = prompt.toLowerCase().replace(NOT_COLOURS, (m) => ' '.repeat(m.length));
  const found: Found[] = [];
  for (const m of rest.matchAll(/#(?:[0-9a-f]{6}|[0-9a-f]{3})(?![0-9a-z])/g)) {
    const hex = toHex(parseHex(m[0])!);
    found.push({ at: m.index, end: m.index + m[0].length, hex, light: luminance(hex) >= 0.8, page: false });
  }
  for (const f of found) rest = blank(rest, f.at, f.end);
  const hexes = found.length;
  for (const [word, name] of COLOR_WORDS) {
    for (const m of rest.matchAll(word)) {
      const light = name in LIGHT_TONES;
      found.push({ at: m.index, end: m.index + m[0].length, name, hex: light ? LIGHT_TONES[name]! : NAMED_COLORS[name]!, light, page: false });
      rest = blank(rest, m.index, m.index + m[0].length);
    }
  }
  const words = found.slice(hexes).sort((a, b) => a.at - b.at);
  for (const f of found) {
    const before = DARKER_BEFORE.exec(rest.slice(0, f.at));
    const after = DARKER_AFTER.exec(rest.slice(f.end));
    if (f.name && !f.light && (before || after)) f.hex = mix(f.hex, '#000000', 0.3);
    if (before) rest = blank(rest, before.index, f.at);
    if (after) rest = blank(rest, f.end, f.end + after[0].length);
    f.page = PAGE_AFTER.test(rest.slice(f.end)) || PAGE_BEFORE.test(rest.slice(0, f.at));
    f.text = TEXT_AFTER.test(rest.slice(f.end));
  }
  // "sage green" is one colour; "black gold" or "pastel pink" are two.
  const colours = [...found.slice(0, hexes), ...words.filter((f, i) => {
    const prev = words[i - 1];
    return !(prev && HUE_NOUNS.has(f.name!) && prev.light === f.light && /^[\s-]*$/.test(rest.slice(prev.end, f.at)));
  })];

  let theme: Colours['theme'] = DARK_THEME.test(rest) ? 'dark' : null;
  let background: string | null = null;
  let hues = colours.filter((f) => !f.light && !f.page);
  const lights = colours.filter((f) => f.light && !f.page);
  const page = colours.find((f) => f.page);
  let pageHue: string | undefined;
  if (page) {
    const dark = !page.light && luminance(page.hex) < 0.08;
    // A mid colour ("green background") is a tint of itself, so dark text still reads on it.
    background = page.name === 'black' ? BLACK_PAGE : dark ? asDarkPage(page.hex) : asLightPage(page.hex);
    if (dark) theme = 'dark';
    else theme ??= 'light';
    if (page.name && !page.light && !NEUTRALS.has(page.name)) pageHue = page.hex;
  } else if (!lights.length && hues.some((f) => f.name === 'black') && hues.some((f) => !NEUTRALS.has(f.name ?? ''))) {
    // "black and gold" is the look of a black page with gold on it; read as a black brand on a
    // white page with a gold accent it would be the inverse of what was asked.
    theme = 'dark';
    background = BLACK_PAGE;
    hues = hues.filter((f) => f.name !== 'black');
  }
  const primary = hues[0]?.hex ?? pageHue ?? null;
  const accent = hues.find((f) => f.hex !== primary)?.hex ?? null;
  if (!background && lights.length) {
    const tone = lights[0]!;
    // Pastel names no hue: a pale tint of the brand ("pastel pink") or a soft lilac.
    background = tone.name === 'pastel' && primary ? mix(primary, '#ffffff', 0.9) : tone.hex;
    // Light words ("cream text") need a dark page; a dark theme's light tone tints its text.
    theme ??= tone.text ? 'dark' : 'light';
  }
  return { primary, accent, background, theme };
}

/** A first prompt's colours, as the brief keeps them. */
function briefColours(prompt: string, name: string | undefined): Pick<Brief, 'primary' | 'accent' | 'background' | 'dark'> {
  // A colour word in the business's name ("The Red Lion", "Trattoria Rosa") is its colour only
  // when the rest of the prompt names none.
  // (A "name" read from a #hex, "#1e40af and #f59e0b", leaves the hex alone.)
  const outside = name ? findColors(prompt.replace(new RegExp(`(?<!#)${escapeRegex(name)}`, 'gi'), ' ')) : undefined;
  const c = outside && (outside.primary || outside.background || outside.theme) ? outside : findColors(prompt);
  return { primary: c.primary, accent: c.accent, background: c.background, dark: c.theme === 'dark' };
}

/** The brand colour a prompt names: a #hex or a colour word (findColors). */
export function findColor(prompt: string): string | undefined {
  return findColors(prompt).primary ?? undefined;
}

const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d[\d\s.-]{5,16}\d/;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;

/** The country whose phone numbers a prompt in each language most likely gives, when no place says. */
const LANGUAGE_COUNTRY: Record<Language, CountryCode> = { en: 'GB', de: 'DE', fr: 'FR', es: 'ES', it: 'IT', nl: 'NL', pt: 'PT' };
const PHONE_WORD = /(?<![\p{L}])(?:phone|call|tel(?:ephone)?|mobile|whatsapp|zap|fone|telefone|ligue|ring|telefon|telefono|teléfono|téléphone|tél|telefoon|telemóvel|celular|handy|móvil|cellulare|app me op|contact|kontakt|contacto|contatto)(?![\p{L}])[^\d+(]{0,20}/iu;

/** The phone number a prompt gives, as written: a valid number of the country, else one after a word that says it is one. */
export function phoneIn(prompt: string, country: CountryCode): string | null {
  const at = PHONE_WORD.exec(prompt);
  // A time range ("9.00-14.00") can pass for a number of some country: never a phone.
  const valid = findNumbers(prompt, { defaultCountry: country, v2: true }).find((n) => !/\d{1,2}[.:]\d{2}\s*-/.test(prompt.slice(n.startsAt, n.endsAt)));
  if (!at) return valid ? prompt.slice(valid.startsAt, valid.endsAt) : null;
  const after = prompt.slice(at.index + at[0].length);
  const named = findNumbers(after, { defaultCountry: country, v2: true })[0];
  if (named && named.startsAt === 0) return after.slice(0, named.endsAt);
  if (valid) return prompt.slice(valid.startsAt, valid.endsAt);
  // Fake-looking but well-formed numbers ("+33 6 39 98 12 45") after such a word: the library's
  // POSSIBLE leniency (documented in its README, absent from its type declarations).
  const possibleOnly = { defaultCountry: country, v2: true as const, leniency: 'POSSIBLE' };
  const possible = findNumbers(after, possibleOnly)[0];
  return possible && possible.startsAt === 0 ? after.slice(0, possible.endsAt) : (PHONE.exec(after)?.[0]?.trim() ?? null);
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
const STREET_AFTER = 'street|st|road|rd|lane|ln|avenue|ave|way|drive|close|crescent|terrace|square|parade|row|hill|place|boulevard|bd|quai';
const STREET_BEFORE =
  'rue|avenue|boulevard|bd|place|quai|chemin|allée|impasse|cours|calle|c/|avenida|av\\.|plaza|paseo|camino|carrer|via|viale|piazza|corso|vicolo|largo|rua|praça|travessa|estrada|alameda';
const STREET_SUFFIX = 'straße|strasse|str\\.|weg|gasse|platz|allee|ring|damm|ufer|straat|laan|gracht|plein|kade|dijk|singel|steeg';
const WORD = "[\\p{L}][\\p{L}'’.-]*";
const NUMBER = '\\d{1,4}[a-z]?';
/** A number that counts something ("corso di 4 settimane", "12 people") ends no street. */
const NOT_COUNT = "(?!\\s*(?:settimane|weeks?|semaines?|wochen|semanas|weken|persone|people|personnes|personen|pessoas|personas|min|minutes?|ore|hours?|heures|stunden|horas|uur|giorni|days?|jours|tage|días|dias|dagen|anni|years?|ans|jahre|años|anos|jaar|x|€|%)(?![\\p{L}]))";
const STREET = new RegExp(
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
const TOWN = /^,?\s+(?:\d{4,5}(?:-\d{3})?\s+[\p{L}][\p{L}' -]{1,30}|[\p{Lu}][\p{L}'-]+(?:\s[\p{Lu}][\p{L}'-]+)?(?:\s+[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})?)(?=[,.;!?\n]|\s*$|\s+(?:tel|phone|call|email|e-mail|and|und|et|y|e|en)\b)/u;
/** Before the number: "Unit 7, ", "St Jude's Church Hall, ". */
const PREMISES = /(?:(?:unit|suite|flat|floor|building|block)\s+\d{1,4}[a-z]?|(?:[\p{Lu}][\p{L}'’]*\s+){1,4}(?:hall|house|centre|center|church|building|court|mill|works|yard|estate))\s*,\s*$/iu;

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
  const m = new RegExp(`(?<![\\p{L}])${HOURS_WORD}(?![\\p{L}])\\s*(?:are|is|sind|sont|son|sono|zijn|são)?\\s*:?\\s*((?:${DAY}|\\d)[^\\n]*?)(?=\\.\\s|\\n|\\.?$)`, 'iu').exec(prompt);
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
  const rest = listed.filter((l) => !scanned.some((d) => l.toLowerCase().includes(d.toLowerCase())) && !dayTimes(l, language).length && CLOSED.test(l));
  return [...scanned, ...rest].slice(0, 10);
}

const TIME_LIKE = /\d{1,2}\s*(?:[:.h]\d{2}|am|pm|h(?![\p{L}])|uhr|hs|uur)|\d{1,2}\s*[-–]\s*\d{1,2}(?!\d)/iu;
const CLOSED = /(?<![\p{L}])(?:closed|geschlossen|ruhetag|fermé|cerrado|chius[oi]|gesloten|fechado)(?![\p{L}])/iu;

/** Day names and their short forms, English and each other language ("Mo", "lun", "L", "seg", "2.ª"). */
const DAY_NAMES: Record<Language, string> = {
  en: 'mon(?:day)?s?|tue(?:s(?:day)?)?s?|wed(?:nesday)?s?|thu(?:rs?(?:day)?)?s?|fri(?:day)?s?|sat(?:urday)?s?|sun(?:day)?s?|weekdays|weekends?|every day|daily',
  de: 'mo(?:ntag)?|di(?:enstag)?|mi(?:ttwoch)?|do(?:nnerstag)?|fr(?:eitag)?|sa(?:mstag)?|so(?:nntag)?|täglich',
  fr: 'lun(?:di)?|mar(?:di)?|mer(?:credi)?|jeu(?:di)?|ven(?:dredi)?|sam(?:edi)?|dim(?:anche)?|tous les jours',
  es: 'lun(?:es)?|mar(?:tes)?|mi[eé](?:rcoles)?|jue(?:ves)?|vie(?:rnes)?|s[aá]b(?:ados?)?|dom(?:ingos?)?|l|v|s|d|todos los días',
  it: 'lun(?:edì)?|mar(?:tedì)?|mer(?:coledì)?|gio(?:vedì)?|ven(?:erdì)?|sab(?:ato)?|dom(?:enica)?|tutti i giorni',
  nl: 'ma(?:andag)?|di(?:nsdag)?|wo(?:ensdag)?|do(?:nderdag)?|vr(?:ijdag)?|za(?:terdag)?|zo(?:ndag)?|dagelijks',
  pt: 'seg(?:unda)?|ter(?:ça)?|qua(?:rta)?|qui(?:nta)?|sex(?:ta)?|s[aá]b(?:ados?)?|dom(?:ingos?)?|\\d\\.ª|todos os dias',
};
const TIME = String.raw`\d{1,2}(?:[:.h]\d{2})?\s*(?:am|pm|h|uhr|hs|u)?`;
const UNTIL = String.raw`\s*(?:-|–|—|to|till|until|a|à|às|au|bis|alle|al|tot|t/m)\s*`;
const RANGE = String.raw`(?:(?:from|von|de|des|das|dalle|dal|van)\s+)?${TIME}${UNTIL}${TIME}(?:\s*(?:uhr|uur|hs|h))?`;

/**
 * Days followed by times, wherever they stand: "mon-fri 9-7 sat 8-5", "di-vr 9-17 en za 9-13",
 * "lunes a viernes 9 a 20 hs", "seg a sex 6h às 21h", "2.ª a 6.ª das 9h às 18h". The short day
 * names of the prompt's own language only (German "do" is Thursday; English "do" is a verb).
 */
function dayTimes(prompt: string, language: Language): string[] {
  const day = `(?:${DAY_NAMES.en}${language === 'en' ? '' : `|${DAY_NAMES[language]}`})\\.?`;
  const days = `(?:(?:from|von|de|du|dal|van|das)\\s+)?${day}(?:${UNTIL}${day})?`;
  const pattern = new RegExp(`(?<![\\p{L}\\d])${days}[\\s,:]+${RANGE}(?:\\s*(?:y|e|et|und|and|en|,|/)\\s*${RANGE})*(?![\\p{L}\\d])`, 'giu');
  return [...prompt.matchAll(pattern)].map((m) => clean(m[0]));
}

export { pricesIn };

/**
 * What the business offers, in the prompt's words: the first list of two or more ("X, Y and Z")
 * after a word that introduces one ("offering", "specialising in", "serving", "doing", "with",
 * "show our", a colon …). Items that name a part of the site ("a menu page", "a booking form") or
 * run long are not offers.
 */
export function offersIn(prompt: string): string[] | null {
  const intro = /(?:\b(?:offering|offers?|services?(?: are| include)?\s*:|we do|we offer|we treat|speciali[sz]ing in|specialists? in|providing|provides|serving|selling|making|doing|designing|show(?:case)?(?: our| off)?|with|helping [^.,:;!?]{0,40}? with)\s+|:\s*)([^.!?\n]{3,200})/gi;
  for (const m of prompt.matchAll(intro)) {
    // The list ends where the place or the audience starts: "warm spaces in Glasgow", "… for families".
    const items = m[1]!
      .split(/\s+(?:in|at|near|across|around|based|for|to|with)\s+(?=\p{L})/u)[0]!
      .split(/\s*,\s*|\s+and\s+|\s*&\s*/)
      .map((s) => clean(s.replace(/^(?:and|also|a|an|the|our|some)\s+/i, '')))
      .filter((s) => s.length >= 3 && s.split(' ').length <= 4 && !/\b(?:in|for|website|site|page|form|theme|font|colou?r|design)s?$/i.test(s) && sectionsMentioned(s).length === 0 && !/^(?:dark|light|shipped|delivered|based|located)\b/i.test(s) && !/\b(?:are|is|was|were|will|be|getting|we|our|us)\b/i.test(s));
    if (items.length >= 2) return items.slice(0, 6).map((s) => s[0]!.toUpperCase() + s.slice(1));
  }
  return null;
}

export function densityIn(prompt: string): Density | undefined {
  if (/\b(compact|denser|tighter|less (?:white ?space|space|padding))\b/i.test(prompt)) return 'compact';
  if (/\b(spacious|airy|more (?:white ?space|space|breathing room|padding)|roomier)\b/i.test(prompt)) return 'spacious';
  if (/\b(normal|default|regular) (?:spacing|density)\b/i.test(prompt)) return 'comfortable';
  return undefined;
}

/** What the business offers is never a fact: "auf: mo-fr 11-19 uhr, sa 10-16 uhr" lists hours, not services. */
function withoutFacts(offers: string[] | null, language: Language): string[] | null {
  const kept = offers?.filter((o) => !TIME_LIKE.test(o) && !CLOSED.test(o) && !dayTimes(o, language).length && !EMAIL.test(o) && !STREET.test(o) && !/\d[\d\s().-]{5,}\d/.test(o));
  return kept && kept.length >= 2 ? kept : null;
}

/**
 * Offers named with their prices ("Damenhaarschnitt ab 39 €") are named without them: the price
 * is shown beside the name. When most of the list is priced, the priced items are the offers (the
 * list reader would split "bath and brush £25" in two).
 */
function offersWithPrices(offers: string[] | null, prices: GivenPrice[]): string[] | null {
  if (!offers) return null;
  const priced = offers.filter(hasAmount);
  if (priced.length * 2 < offers.length || prices.length < 2) return offers.map(withoutPrice).filter((o) => o.length >= 2);
  const names = prices.map((p) => p.item);
  const rest = offers.filter((o) => !hasAmount(o)).filter((o) => !names.some((n) => n.toLowerCase().includes(o.toLowerCase())));
  return [...names, ...rest].slice(0, 6);
}

/** A first prompt understood as a brief. `projectName` names the site when the prompt does not. */
export function understand(prompt: string, projectName?: string): Brief {
  const language = languageOf(prompt);
  let place = findPlace(prompt, language);
  const kind: Kind = findKind(prompt);
  const given = findName(prompt, place?.name || null);
  // "The Reading Nook" is a name, not a place in Reading.
  if (given && place && given.toLowerCase().includes(place.name.toLowerCase())) place = findPlace(prompt.replace(new RegExp(escapeRegex(given), 'i'), ' '), language);
  const label = kind === GENERIC ? ourBusiness(language) : kindIn(kind, language).label;
  const name = given ?? (projectName?.trim() || `${label}${place?.name ? wordsFor(language).inPlace.replace('{place}', place.name) : ''}`);
  // Sections the prompt asks for: after "with", "including", "sections:" … (not any word that
  // happens to name one: a "product-analytics startup" wants no shop).
  const asked = /\b(?:with|including|include|includes|featuring|plus|has|have|should have|sections?\s*:|pages?\s*:)\b([\s\S]*)/i.exec(prompt);
  const mentioned = asked ? sectionsMentioned(asked[1]!) : [];
  const pages = pagesMentioned(prompt);
  const without = /\b(?:without|no|skip|leave out)\s+(?:an?\s+|the\s+)?([^.,;!?\n]+)/i.exec(prompt);
  const unwanted = without ? sectionsMentioned(without[1]!) : [];
  const contact = contactIn(prompt, (place?.country as CountryCode | undefined) ?? LANGUAGE_COUNTRY[language]);
  const hours = hoursIn(prompt, language);
  const prices = pricesIn(prompt);
  const wanted = new Set<SectionId>([...kind.sections, ...mentioned.filter((s) => s !== 'contact' || kind.sections.includes('contact')), ...pages]);
  if (hours.length) wanted.add('hours');
  if (!wanted.has('contact') && !wanted.has('booking') && !wanted.has('signup')) wanted.add('contact');
  // "No emergency service at weekends" does not take away a services page the prompt asks for.
  for (const s of unwanted) if (!pages.includes(s)) wanted.delete(s);
  // The kind's own order, then what the prompt added, then the ways to get in touch last.
  const last: SectionId[] = ['booking', 'signup', 'contact'];
  const order = [...kind.sections.filter((s) => !last.includes(s)), ...SECTION_IDS.filter((s) => !kind.sections.includes(s) && !last.includes(s)), ...last];
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
    offers: offersWithPrices(withoutFacts(offersIn(prompt), language), prices),
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
    if (typeof b.name !== 'string' || typeof b.kind !== 'string' || !Array.isArray(b.sections)) return undefined;
    const sections = b.sections.map((s) => OLD_SECTIONS[s] ?? s).filter((s): s is SectionId => (SECTION_IDS as readonly string[]).includes(s));
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
      offers: Array.isArray(b.offers) ? b.offers.filter((o): o is string => typeof o === 'string').slice(0, 6) : null,
      contact: { phone: str(contact.phone), email: str(contact.email), address: str(contact.address) },
      hours: Array.isArray(b.hours) ? b.hours.filter((h): h is string => typeof h === 'string') : [],
      prices: Array.isArray(b.prices) ? b.prices.filter((p) => p && typeof p.item === 'string' && typeof p.price === 'string') : [],
      texts: b.texts && typeof b.texts === 'object' ? Object.fromEntries(Object.entries(b.texts).filter(([, v]) => typeof v === 'string')) : {},
      replaced: Array.isArray(b.replaced)
        ? b.replaced.filter((r) => r && typeof r.tag === 'string' && typeof r.className === 'string' && typeof r.from === 'string' && typeof r.to === 'string')
        : [],
      images: Array.isArray(b.images) ? b.images.filter((i): i is string => typeof i === 'string') : [],
      pictures: b.pictures && typeof b.pictures === 'object' ? Object.fromEntries(Object.entries(b.pictures).filter(([, v]) => typeof v === 'string')) : {},
    };
  } catch {
    return undefined;
  }
}
