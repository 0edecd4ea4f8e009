// Colours a prompt names, in the seven languages, and the role each plays: the brand, an accent,
// the page's tone, a dark theme ("sage green", "cream and gold", "black and gold", "fond noir").
import type { Brief } from './brief-shape.ts';
import {
  asDarkPage,
  asLightPage,
  BLACK_PAGE,
  LIGHT_TONES,
  luminance,
  mix,
  NAMED_COLORS,
  parseHex,
  toHex,
} from './colors.ts';
import { escapeRegex } from './kinds.ts';
import { ALL_WORDS } from './words/index.ts';

/** Colour words of every language, longest first ("vert sauge" before "vert"), to the English colour or light tone. */
const COLOR_WORDS: [RegExp, string][] = [
  ...[...Object.keys(NAMED_COLORS), ...Object.keys(LIGHT_TONES)].map((c): [string, string] => [c, c]),
  ...ALL_WORDS.flatMap((w) => Object.entries(w.colorWords)).filter(
    ([, c]) => c in NAMED_COLORS || c in LIGHT_TONES,
  ),
]
  .sort((a, b) => b[0].length - a[0].length)
  .map(([word, colour]): [RegExp, string] => [
    new RegExp(`(?<![\\p{L}])${escapeRegex(word)}(?![\\p{L}])`, 'gu'),
    colour,
  ])
  // French "or" (gold) is also a conjunction in French and English: it is gold only beside "et" ("crème et or", "or et noir").
  .concat([[/(?<=(?<![\p{L}])et\s+)or(?![\p{L}])|(?<![\p{L}])or(?=\s+et(?![\p{L}]))/gu, 'gold']]);

// Phrases where a colour word names a food or a thing, not a colour: an ice-cream parlour wants no cream page.
const NOT_COLOURS =
  /(?<![\p{L}])(?:(?:ice|sour|clotted|whipped|double|shaving|sun|hand|face)[\s-]cream|cream[\s-](?:teas?|cheese|cakes?|puffs?|scones?|soda|sauce|liqueur)|cr[eè]me\s+(?:br[uû]l[eé]e|fra[iî]che|p[aâ]tissi[eè]re|anglaise|chantilly)|crema\s+(?:catalana|pasticcera|di|de)|white\s+(?:wine|chocolate|bread)|black\s+(?:coffee|pudding|forest|friday|tie))(?![\p{L}])/gu;
/** "dark green", "dunkles Grün", "vert foncé", "verde oscuro": a darker colour, not a dark theme. */
const DARKER_BEFORE = /(?<![\p{L}])(?:dark|deep|dunkel|dunkle[mnrs]?|donkere?)[\s-]+$/u;
const DARKER_AFTER =
  /^[\s-]+(?:fonc[ée]e?s?|sombres?|oscur[oa]s?|scur[oa]|scure|scuri|escur[oa]s?)(?![\p{L}])/u;
const DARK_THEME =
  /(?<![\p{L}])(?:dark|dunkel|dunkle[mnrs]?|dunkelmodus|sombres?|oscur[oa]s?|scur[oaie]|donkere?|escur[oa]s?)(?![\p{L}])/u;
/** "white text", "cream lettering": the colour of the words, not of the page. */
const TEXT_AFTER =
  /^[\s-]+(?:text|fonts?|type|writing|lettering|letters|headings?|schrift|texte?|testo|tekst|texto)(?![\p{L}])/u;
/** "black background", "schwarzer Hintergrund", "zwarte achtergrond", "cream-coloured background". */
const PAGE_AFTER =
  /^(?:[\s-]+(?:colou?red|farbene[mnrs]?|kleurige?))?[\s-]*(?:background|backdrop|hintergrund|achtergrond)(?![\p{L}])/u;
/** "background in navy", "fond noir", "fondo negro", "sfondo nero", "fundo preto", "Hintergrund: weiß". */
const PAGE_BEFORE =
  /(?<![\p{L}])(?:(?:background|backdrop|hintergrund|achtergrond)(?:\s+(?:in|of|is|colou?r))*|(?:fond|arrière-plan|fondo|sfondo|fundo)(?:\s+(?:de|en|di|em|couleur|colore|color|cor))*)\s*:?\s+$/u;
/** Generic hue words that end a compound ("sage green", "navy blue"): the first word says which colour. */
const HUE_NOUNS = new Set([
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'violet',
  'pink',
  'brown',
  'grey',
  'gray',
  'white',
]);
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

const blank = (text: string, from: number, to: number) =>
  text.slice(0, from) + ' '.repeat(to - from) + text.slice(to);

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
      found.push({
        at: m.index,
        end: m.index + m[0].length,
        name,
        hex: light ? LIGHT_TONES[name]! : NAMED_COLORS[name]!,
        light,
        page: false,
      });
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
  const colours = [
    ...found.slice(0, hexes),
    ...words.filter((f, i) => {
      const prev = words[i - 1];
      return !(
        prev &&
        HUE_NOUNS.has(f.name!) &&
        prev.light === f.light &&
        /^[\s-]*$/.test(rest.slice(prev.end, f.at))
      );
    }),
  ];

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
  } else if (
    !lights.length &&
    hues.some((f) => f.name === 'black') &&
    hues.some((f) => !NEUTRALS.has(f.name ?? ''))
  ) {
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
export function briefColours(
  prompt: string,
  name: string | undefined,
): Pick<Brief, 'primary' | 'accent' | 'background' | 'dark'> {
  // A colour word in the business's name ("The Red Lion", "Trattoria Rosa") is its colour only
  // when the rest of the prompt names none.
  // (A "name" read from a #hex, "#1e40af and #f59e0b", leaves the hex alone.)
  const outside = name
    ? findColors(prompt.replace(new RegExp(`(?<!#)${escapeRegex(name)}`, 'gi'), ' '))
    : undefined;
  const c =
    outside && (outside.primary || outside.background || outside.theme) ? outside : findColors(prompt);
  return { primary: c.primary, accent: c.accent, background: c.background, dark: c.theme === 'dark' };
}

/** The brand colour a prompt names: a #hex or a colour word (findColors). */
export function findColor(prompt: string): string | undefined {
  return findColors(prompt).primary ?? undefined;
}
