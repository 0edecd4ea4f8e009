// The builtin model's colours: the colour words of a prompt, in any of its languages, each in its
// role (brand, accent, page tone, dark theme), and every site they make keeps WCAG AA contrast.
import { describe, expect, it } from 'vitest';
import { parseBrief, understand } from '../../../src/providers/builtin/brief.ts';
import { findColors } from '../../../src/providers/builtin/colour-words.ts';
import {
  contrast,
  LIGHT_TONES,
  luminance,
  NAMED_COLORS,
  parseHex,
  tint,
} from '../../../src/providers/builtin/colors.ts';
import { applyEdit } from '../../../src/providers/builtin/edit.ts';
import { BuiltinProvider } from '../../../src/providers/builtin/index.ts';
import { kindById } from '../../../src/providers/builtin/kinds.ts';
import { palette } from '../../../src/providers/builtin/render.ts';
import type { SiteFile } from '../../../src/modules/generations/provider.ts';

const builtin = new BuiltinProvider();
const generate = (prompt: string, files: SiteFile[] = []) =>
  builtin.generate({ prompt, model: 'builtin', files, signal: new AbortController().signal });
const fileOf = (files: SiteFile[], path: string) => String(files.find((f) => f.path === path)?.content);
const briefOf = (files: SiteFile[]) => JSON.parse(fileOf(files, '.sitewright/builtin-brief.json'));

/** The colour custom properties of the generated stylesheet's :root. */
function cssColours(files: SiteFile[]) {
  const root = /:root \{([^}]*)\}/.exec(fileOf(files, 'styles.css'))![1]!;
  const vars = Object.fromEntries(
    [...root.matchAll(/--([\w-]+): (#[0-9a-f]{6});/g)].map((m) => [m[1]!, m[2]!]),
  );
  return { ...vars, scheme: /color-scheme: (\w+)/.exec(root)![1]! } as Record<string, string>;
}

/** Hue in degrees and saturation (HSL), to say "gold-ish" or "navy" without naming one hex. */
function hsl(hex: string) {
  const [r, g, b] = parseHex(hex)!.map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  const l = (max + min) / 2;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  const h =
    d === 0
      ? 0
      : max === r
        ? 60 * (((g - b) / d + 6) % 6)
        : max === g
          ? 60 * ((b - r) / d + 2)
          : 60 * ((r - g) / d + 4);
  return { h, s, l };
}
const goldish = (hex: string) => hsl(hex).h >= 35 && hsl(hex).h <= 55 && hsl(hex).s >= 0.5;
const bluish = (hex: string) => hsl(hex).h >= 200 && hsl(hex).h <= 250;
const greenish = (hex: string) => hsl(hex).h >= 90 && hsl(hex).h <= 160;
const orangish = (hex: string) => hsl(hex).h >= 10 && hsl(hex).h <= 35;
/** A warm off-white page: light, not white, more red than blue. */
const warmLight = (hex: string) =>
  hex !== '#ffffff' && luminance(hex) > 0.85 && parseHex(hex)![0] - parseHex(hex)![2] >= 8;

type Css = Record<string, string>;
const CASES: [string, (css: Css) => void][] = [
  ['A bakery in Bristol, sage green and warm', (c) => expect(c.primary).toBe('#56715a')],
  [
    'A wedding venue in Bath, cream and gold',
    (c) => {
      expect(c.scheme).toBe('light');
      expect(warmLight(c.bg!), c.bg).toBe(true);
      expect(goldish(c.primary!), c.primary).toBe(true);
    },
  ],
  [
    'Un traiteur à Lyon, crème et or',
    (c) => {
      expect(warmLight(c.bg!), c.bg).toBe(true);
      expect(goldish(c.primary!), c.primary).toBe(true);
    },
  ],
  [
    'Eine Konditorei in Wien, creme und gold',
    (c) => {
      expect(warmLight(c.bg!), c.bg).toBe(true);
      expect(goldish(c.primary!), c.primary).toBe(true);
    },
  ],
  [
    'A law firm in Leeds, navy and gold',
    (c) => {
      expect(c.scheme).toBe('light');
      expect(c.bg).toBe('#ffffff');
      expect(bluish(c.primary!), c.primary).toBe(true);
      expect(goldish(c.accent!), c.accent).toBe(true);
    },
  ],
  [
    'A cocktail bar in London, black and gold',
    (c) => {
      expect(c.scheme).toBe('dark');
      expect(luminance(c.bg!)).toBeLessThan(0.02);
      expect(goldish(c.primary!), c.primary).toBe(true);
    },
  ],
  [
    'A florist in York, green and orange',
    (c) => {
      expect(greenish(c.primary!), c.primary).toBe(true);
      expect(orangish(c.accent!), c.accent).toBe(true);
    },
  ],
  ['Ein Café in Köln, dunkles Design', (c) => expect(c.scheme).toBe('dark')],
  [
    'Un café à Paris, thème sombre, bleu marine',
    (c) => {
      expect(c.scheme).toBe('dark');
      expect(bluish(c.primary!), c.primary).toBe(true);
    },
  ],
  ['Una cafetería en Madrid, modo oscuro', (c) => expect(c.scheme).toBe('dark')],
  [
    'Un bar a Roma, tema scuro, nero e oro',
    (c) => {
      expect(c.scheme).toBe('dark');
      expect(goldish(c.primary!), c.primary).toBe(true);
    },
  ],
  ['Een kapsalon in Utrecht, donker thema', (c) => expect(c.scheme).toBe('dark')],
  [
    'Um restaurante em Lisboa, preto e dourado',
    (c) => {
      expect(c.scheme).toBe('dark');
      expect(goldish(c.primary!), c.primary).toBe(true);
    },
  ],
  ['A gym in Leeds with dark mode', (c) => expect(c.scheme).toBe('dark')],
  [
    'A tattoo studio with a black background and red',
    (c) => {
      expect(c.scheme).toBe('dark');
      expect(luminance(c.bg!)).toBeLessThan(0.02);
      expect(hsl(c.primary!).h < 15 || hsl(c.primary!).h > 345, c.primary).toBe(true);
    },
  ],
  ['A software startup, #1e40af and #f59e0b', (c) => expect(c.primary).toBe('#1e40af')],
  [
    'Una pastelería en Sevilla, crema y dorado',
    (c) => {
      expect(warmLight(c.bg!), c.bg).toBe(true);
      expect(goldish(c.primary!), c.primary).toBe(true);
    },
  ],
  [
    'Un centro benessere a Torino, avorio e verde salvia',
    (c) => {
      expect(c.bg).not.toBe('#ffffff');
      expect(luminance(c.bg!)).toBeGreaterThan(0.85);
      expect(greenish(c.primary!), c.primary).toBe(true);
    },
  ],
  [
    'Een advocatenkantoor in Gent, marineblauw en goud',
    (c) => {
      expect(bluish(c.primary!), c.primary).toBe(true);
      expect(goldish(c.accent!), c.accent).toBe(true);
    },
  ],
  [
    'A nail salon, pastel pink',
    (c) => {
      expect(c.bg).not.toBe('#ffffff');
      expect(luminance(c.bg!)).toBeGreaterThan(0.75);
      expect(hsl(c.bg!).h > 300 || hsl(c.bg!).h < 20, c.bg).toBe(true);
    },
  ],
  [
    'A spa, dark theme, cream and gold',
    (c) => {
      expect(c.scheme).toBe('dark');
      expect(c.text).toBe(LIGHT_TONES.cream);
    },
  ],
];

describe('builtin colours: every combination keeps AA contrast', () => {
  it.each(CASES)('%s', async (prompt, roles) => {
    const { files } = await generate(prompt);
    const c = cssColours(files);
    for (const [fg, bg] of [
      ['text', 'bg'],
      ['text', 'surface'],
      ['muted', 'bg'],
      ['muted', 'surface'],
      ['on-primary', 'primary'],
      ['link', 'bg'],
      ['link', 'surface'],
      ['on-hero', 'hero'],
    ] as const) {
      expect(contrast(c[fg]!, c[bg]!), `--${fg} ${c[fg]} on --${bg} ${c[bg]}`).toBeGreaterThanOrEqual(4.5);
    }
    // Buttons stand out from the page and from the hero they sit on (WCAG 1.4.11).
    expect(contrast(c.primary!, c.bg!)).toBeGreaterThanOrEqual(3);
    expect(contrast(c.primary!, c.hero!)).toBeGreaterThanOrEqual(3);
    roles(c);
  });

  const TONES = [null, ...Object.values(LIGHT_TONES), '#121212', '#0d193c'];
  it.each([false, true])(
    'keeps AA contrast for every named brand, accent and page tone (dark: %s)',
    (dark) => {
      for (const primary of Object.values(NAMED_COLORS)) {
        for (const background of TONES) {
          const brief = { ...understand('x'), kind: 'bakery', dark, primary, accent: '#f59e0b', background };
          const p = palette(brief, kindById('bakery'));
          const what = `${primary} on ${background} (dark: ${dark})`;
          for (const [fg, bg] of [
            [p.text, p.bg],
            [p.text, p.surface],
            [p.muted, p.bg],
            [p.muted, p.surface],
            [p.onPrimary, p.primary],
            [p.link, p.bg],
            [p.link, p.surface],
            [p.onHero, p.heroBg],
          ] as const) {
            expect(contrast(fg, bg), `${fg} on ${bg}: ${what}`).toBeGreaterThanOrEqual(4.5);
          }
          expect(contrast(p.primary, p.bg), what).toBeGreaterThanOrEqual(3);
          expect(contrast(p.primary, p.heroBg), what).toBeGreaterThanOrEqual(3);
        }
      }
    },
  );
});

describe('builtin colours: roles', () => {
  it.each([
    ['sage green', { primary: NAMED_COLORS.sage, accent: null, background: null, theme: null }],
    [
      'cream and gold',
      { primary: NAMED_COLORS.gold, accent: null, background: LIGHT_TONES.cream, theme: 'light' },
    ],
    [
      'navy and gold',
      { primary: NAMED_COLORS.navy, accent: NAMED_COLORS.gold, background: null, theme: null },
    ],
    ['navy blue and gold', { primary: NAMED_COLORS.navy, accent: NAMED_COLORS.gold }],
    ['black and gold', { primary: NAMED_COLORS.gold, accent: null, theme: 'dark' }],
    ['black and white', { primary: NAMED_COLORS.black, background: '#ffffff', theme: 'light' }],
    ['#1e40af and #f59e0b', { primary: '#1e40af', accent: '#f59e0b' }],
    ['use #ABC', { primary: '#aabbcc' }],
    ['dark green', { primary: expect.stringMatching(/^#/), theme: null }],
    ['azul oscuro', { primary: NAMED_COLORS.navy, theme: null }],
    ['fond noir, rouge', { primary: NAMED_COLORS.red, theme: 'dark' }],
    ['schwarzer Hintergrund', { primary: null, theme: 'dark' }],
    ['a green background', { primary: NAMED_COLORS.green, theme: 'light' }],
    ['cream text and gold', { primary: NAMED_COLORS.gold, background: LIGHT_TONES.cream, theme: 'dark' }],
    ['an ice cream parlour', { primary: null, background: null }],
    ['call or email us', { primary: null }],
  ])('%s', (prompt, roles) => {
    expect(findColors(prompt)).toMatchObject(roles);
  });

  it('takes "dark green" as a darker green, not a dark theme', () => {
    const { primary, theme } = findColors('a dark green site');
    expect(theme).toBeNull();
    expect(luminance(primary!)).toBeLessThan(luminance(NAMED_COLORS.green!));
  });

  it('prefers colours outside the business name', () => {
    expect(understand('The Red Lion, a pub in York, navy and gold')).toMatchObject({
      primary: NAMED_COLORS.navy,
      accent: NAMED_COLORS.gold,
    });
    expect(understand('Italian restaurant in Manchester called Trattoria Rosa').primary).toBe(
      NAMED_COLORS.pink,
    );
  });

  it('reads a brief written before accents and page tones', () => {
    const old = { ...understand('A bakery in Bristol, green') } as Record<string, unknown>;
    delete old.accent;
    delete old.background;
    expect(parseBrief(JSON.stringify(old))).toMatchObject({
      primary: NAMED_COLORS.green,
      accent: null,
      background: null,
      dark: false,
    });
    expect(parseBrief(JSON.stringify({ ...old, accent: 'gold', background: 42 }))).toMatchObject({
      accent: null,
      background: null,
    });
  });

  it('renders an older site in the colours it was made with', () => {
    const brief = { ...understand('A bakery in Bristol, green'), accent: null, background: null };
    const kind = kindById('bakery');
    expect(palette(brief, kind)).toMatchObject({
      bg: '#ffffff',
      surface: tint('#15803d', 0.94),
      heroBg: tint('#15803d', 0.88),
      primary: '#15803d',
      accent: kind.accent,
    });
    expect(palette({ ...brief, dark: true }, kind)).toMatchObject({
      bg: '#0f172a',
      surface: '#1e293b',
      text: '#e2e8f0',
    });
  });
});

describe('builtin colours: follow-ups', () => {
  it('sets brand, accent, page and theme from a colour change, and keeps them on other edits', async () => {
    const first = await generate('A bakery in Bristol');
    const navy = await generate('Make it navy and gold', first.files);
    expect(briefOf(navy.files)).toMatchObject({
      primary: NAMED_COLORS.navy,
      accent: NAMED_COLORS.gold,
      dark: false,
    });
    expect(navy.summary).toMatch(/brand colour .*accent colour/);

    const cream = await generate('Use a cream background', navy.files);
    expect(briefOf(cream.files)).toMatchObject({
      primary: NAMED_COLORS.navy,
      accent: NAMED_COLORS.gold,
      background: LIGHT_TONES.cream,
    });
    expect(warmLight(cssColours(cream.files).bg!)).toBe(true);

    const black = await generate('Make it black and gold', cream.files);
    expect(briefOf(black.files)).toMatchObject({ primary: NAMED_COLORS.gold, dark: true });
    expect(cssColours(black.files).scheme).toBe('dark');

    const faq = await generate('Add a FAQ', black.files);
    expect(briefOf(faq.files)).toMatchObject({ primary: NAMED_COLORS.gold, dark: true });
    expect(cssColours(faq.files)).toEqual(cssColours(black.files));
  });

  it('keeps the accent when only the brand changes', () => {
    const brief = understand('A law firm in Leeds, navy and gold');
    expect(applyEdit(brief, 'make it green').brief).toMatchObject({
      primary: NAMED_COLORS.green,
      accent: NAMED_COLORS.gold,
    });
    expect(applyEdit(brief, 'make it gold').brief).toMatchObject({
      primary: NAMED_COLORS.gold,
      accent: null,
    });
  });

  it('edits a site whose brief predates accents and page tones', async () => {
    const first = await generate('A bakery in Bristol, green');
    const brief = briefOf(first.files);
    delete brief.accent;
    delete brief.background;
    const old = first.files.map((f) =>
      f.path === '.sitewright/builtin-brief.json' ? { ...f, content: JSON.stringify(brief) } : f,
    );
    const next = await generate('Add a FAQ', old);
    expect(briefOf(next.files)).toMatchObject({
      primary: NAMED_COLORS.green,
      accent: null,
      background: null,
    });
    expect(fileOf(next.files, 'styles.css')).toContain('--bg: #ffffff');
  });
});

describe('a colour is no name', () => {
  it('a #hex is never read as the business name', () => {
    const brief = understand('A software startup, #1e40af and #f59e0b');
    expect(brief.name).not.toMatch(/1e40af|f59e0b/);
    expect(brief).toMatchObject({ primary: '#1e40af', accent: '#f59e0b' });
  });
});
