// Colour arithmetic for the builtin generator: WCAG contrast, and adjusting a brand colour until
// text on it (or it on the page) reaches AA contrast, whatever colour the prompt asked for.

export type Rgb = [number, number, number];

/** Colours a prompt can ask for as a brand or an accent, by English name. */
export const NAMED_COLORS: Record<string, string> = {
  red: '#c62828',
  crimson: '#b0123b',
  orange: '#c2410c',
  amber: '#b45309',
  yellow: '#a16207',
  gold: '#b8860b',
  green: '#15803d',
  emerald: '#047857',
  olive: '#5b6b1f',
  teal: '#0f766e',
  cyan: '#0e7490',
  turquoise: '#0f766e',
  blue: '#1d4ed8',
  navy: '#1e3a8a',
  indigo: '#4338ca',
  purple: '#7e22ce',
  violet: '#6d28d9',
  magenta: '#a21caf',
  pink: '#be185d',
  rose: '#be123c',
  brown: '#7c4a1e',
  terracotta: '#b4532a',
  black: '#111827',
  grey: '#4b5563',
  gray: '#4b5563',
  slate: '#334155',
  burgundy: '#7f1d1d',
  coral: '#c2410c',
  lavender: '#6d28d9',
  mint: '#047857',
  sage: '#56715a',
  'rose gold': '#b76e79',
};

/**
 * Colours too light to carry text or a button: a prompt naming one wants the page in that tone
 * ("cream and gold"), so they colour the background and never the brand. Pastel has no hue of
 * its own: it becomes a tint of the brand (see brief.ts).
 */
export const LIGHT_TONES: Record<string, string> = {
  cream: '#fbf7ee',
  ivory: '#fdfbf3',
  beige: '#f5efe4',
  sand: '#f4ecdc',
  white: '#ffffff',
  'off-white': '#faf8f4',
  offwhite: '#faf8f4',
  linen: '#faf6ef',
  eggshell: '#fbf9f1',
  pastel: '#f6f2fb',
};

/** The dark theme's page when the prompt asks for black ("black and gold"): near-black, not the default slate. */
export const BLACK_PAGE = '#121212';

export function parseHex(hex: string): Rgb | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return undefined;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

export function toHex([r, g, b]: Rgb): string {
  return (
    '#' +
    [r, g, b]
      .map((v) =>
        Math.round(Math.max(0, Math.min(255, v)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

function relative([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG relative luminance of a #hex colour, 0 (black) ..1 (white). */
export function luminance(hex: string): number {
  return relative(parseHex(hex)!);
}

/** WCAG 2 contrast ratio of two colours, 1..21. */
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (la + 0.05) / (lb + 0.05);
}

/** `color` moved `amount` (0..1) of the way to `toward`. */
export function mix(color: string, toward: string, amount: number): string {
  const a = parseHex(color)!;
  const b = parseHex(toward)!;
  return toHex(a.map((v, i) => v + (b[i]! - v) * amount) as Rgb);
}

function stepUntil(color: string, against: string, ratio: number, direction: string): string {
  let current = color;
  for (let step = 0; step < 20 && contrast(current, against) < ratio; step++)
    current = mix(current, direction, 0.1);
  return current;
}

/** `color` darkened (or lightened) step by step until it has `ratio` contrast against `against`. */
export function ensureContrast(color: string, against: string, ratio = 4.5): string {
  const light = luminance(against) > 0.4;
  const first = stepUntil(color, against, ratio, light ? '#000000' : '#ffffff');
  if (contrast(first, against) >= ratio) return first;
  // A mid-tone background can be out of reach in the expected direction (dark text on a
  // luminance-0.2 button never reaches 4.5:1); the other direction can still get there.
  const other = stepUntil(color, against, ratio, light ? '#ffffff' : '#000000');
  return contrast(other, against) > contrast(first, against) ? other : first;
}

/** A very light tint of the colour, for section backgrounds. */
export function tint(color: string, amount = 0.92): string {
  return mix(color, '#ffffff', amount);
}

export function shade(color: string, amount = 0.6): string {
  return mix(color, '#000000', amount);
}

/** The colour lightened until it can be a light page (luminance at least `min`) under dark text. */
export function asLightPage(color: string, min = 0.8): string {
  let current = color;
  for (let step = 0; step < 30 && luminance(current) < min; step++) current = mix(current, '#ffffff', 0.1);
  return current;
}

/** The colour darkened until it can be a dark page (luminance at most `max`) under light text. */
export function asDarkPage(color: string, max = 0.012): string {
  let current = color;
  for (let step = 0; step < 30 && luminance(current) > max; step++) current = mix(current, '#000000', 0.1);
  return current;
}
