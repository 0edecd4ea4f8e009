// The font stacks a builtin site can use: system fonts only, so a site loads nothing from elsewhere
// and shows text at once. A kind has its own; a follow-up prompt can ask for another.

export const FONTS = {
  sans: {
    label: 'sans-serif',
    stack: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  serif: {
    label: 'serif',
    stack:
      '"Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "Times New Roman", serif',
  },
  rounded: {
    label: 'rounded',
    stack:
      'ui-rounded, "SF Pro Rounded", "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, Manjari, "Arial Rounded MT", "Arial Rounded MT Bold", Calibri, source-sans-pro, sans-serif',
  },
  mono: {
    label: 'monospace',
    stack: 'ui-monospace, "Cascadia Code", "Source Code Pro", Menlo, Consolas, "DejaVu Sans Mono", monospace',
  },
  classic: {
    label: 'classic serif',
    stack: 'Didot, "Bodoni MT", "Noto Serif Display", "URW Palladio L", P052, Sylfaen, Georgia, serif',
  },
  humanist: {
    label: 'humanist',
    stack: 'Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", source-sans-pro, sans-serif',
  },
} as const;

export type FontId = keyof typeof FONTS;
export const FONT_IDS = Object.keys(FONTS) as FontId[];

/** The font a prompt asks for ("a serif font", "monospace", "more elegant"), if it asks for one. */
export function fontIn(prompt: string): FontId | undefined {
  const p = prompt.toLowerCase();
  if (/\b(mono(space)?|typewriter|code font)\b/.test(p)) return 'mono';
  if (/\bsans[\s-]?serif\b|\b(modern|clean|geometric)\s+(font|type|typeface)/.test(p)) return 'sans';
  if (/\b(classic|elegant|luxur\w*|fashion)\b.*\b(font|type|typeface|look)\b|\bdidot\b/.test(p))
    return 'classic';
  if (/\bserif\b/.test(p)) return 'serif';
  if (/\b(rounded|friendly|playful)\b.*\b(font|type|typeface)\b/.test(p)) return 'rounded';
  if (/\bhumanist\b/.test(p)) return 'humanist';
  return undefined;
}
