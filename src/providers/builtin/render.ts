// Renders a brief as a static site: index.html, a page per section the prompt wanted on its own
// page, a shared styles.css and a 404.html, with no external assets. Every piece of text from the
// prompt is HTML-escaped; every colour pair is computed here and adjusted until it reaches WCAG AA
// (text 4.5:1, buttons and fields 3:1 against the page), in light and dark themes and whatever
// colour the prompt asked for.
import { illustration } from './art.ts';
import type { Brief } from './brief.ts';
import {
  asDarkPage,
  asLightPage,
  contrast,
  ensureContrast,
  luminance,
  mix,
  parseHex,
  shade,
  tint,
} from './colors.ts';
import { FONTS } from './fonts.ts';
import type { Kind, SectionId } from './kinds.ts';
import { heroSecondary, renderSection } from './sections.ts';
import { el, escapeHtml, fill, picture, sectionHref, sectionTitle, text, type Site } from './site.ts';

export interface Palette {
  bg: string;
  surface: string;
  text: string;
  muted: string;
  /** Buttons: `onPrimary` on it reaches 4.5:1, and it reaches 3:1 against the page. */
  primary: string;
  onPrimary: string;
  /** Links, icons and prices, on the page and on surfaces. */
  link: string;
  heroBg: string;
  onHero: string;
  accent: string;
  todoBg: string;
  todoText: string;
}

export function palette(brief: Brief, kind: Kind): Palette {
  const brand = brief.primary ?? kind.primary;
  const tone = brief.background && parseHex(brief.background) ? brief.background : null;
  // A light tone is the page of a light theme and the text of a dark one; a dark tone is the page
  // of a dark theme only (a light theme keeps its white page, so "light theme" undoes "black background").
  const lightTone = tone && luminance(tone) >= 0.2 ? tone : null;
  const darkTone = tone && !lightTone ? tone : null;
  const ownPage = brief.dark ? darkTone : lightTone;
  // Without a tone or an accent the colours are those sites were made with before either existed,
  // so re-rendering an older site after an unrelated edit does not recolour it.
  const bg = brief.dark
    ? darkTone
      ? asDarkPage(darkTone)
      : '#0f172a'
    : lightTone
      ? asLightPage(lightTone)
      : '#ffffff';
  const surface = brief.dark
    ? darkTone
      ? mix(mix(bg, '#ffffff', 0.07), brand, 0.05)
      : '#1e293b'
    : lightTone
      ? mix(bg, brand, 0.06)
      : tint(brand, 0.94);
  const text = ensureContrast(ensureContrast(brief.dark ? (lightTone ?? '#e2e8f0') : '#1f2937', surface), bg);
  const muted = ensureContrast(
    ensureContrast(brief.dark ? (lightTone ? mix(text, bg, 0.3) : '#94a3b8') : '#4b5563', surface),
    bg,
  );
  // The hero takes the accent's tint when there is one: the second colour shows where the eye lands.
  const heroBg =
    ownPage || brief.accent
      ? mix(bg, brief.accent ?? brand, 0.12)
      : brief.dark
        ? shade(brand, 0.75)
        : tint(brand, 0.88);
  // Dark: a light button with dark text, so it stands out from the page; light: the reverse. Either
  // way it stands out from the hero it sits on (3:1).
  const primary = ensureContrast(
    brief.dark
      ? ensureContrast(brand, bg, 4.5)
      : ensureContrast(ensureContrast(brand, '#ffffff', 4.5), bg, 3),
    heroBg,
    3,
  );
  const onPrimary = brief.dark ? ensureContrast(darkTone ? bg : '#0f172a', primary) : '#ffffff';
  const link = ensureContrast(ensureContrast(brand, bg), surface);
  const onHero =
    contrast(text, heroBg) >= 4.5 ? text : ensureContrast(brief.dark ? '#ffffff' : '#111827', heroBg);
  // The accent only decorates (illustrations), but at 3:1 it can never vanish into the page.
  const accent = brief.accent && parseHex(brief.accent) ? ensureContrast(brief.accent, bg, 3) : kind.accent;
  const todoBg = brief.dark ? '#422006' : '#fef3c7';
  const todoText = brief.dark ? '#fde68a' : '#78350f';
  return { bg, surface, text, muted, primary, onPrimary, link, heroBg, onHero, accent, todoBg, todoText };
}

/** The business's initial on its brand colour, inline: no request for /favicon.ico. */
function favicon(site: Site, p: Palette): string {
  const initial = escapeHtml((site.brief.name.trim()[0] ?? 'S').toUpperCase());
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'><rect width='64' height='64' rx='14' fill='${p.primary}'/><text x='32' y='44' font-size='36' font-family='system-ui,sans-serif' font-weight='700' text-anchor='middle' fill='${p.onPrimary}'>${initial}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const NAV_LIMIT = 6;

function nav(site: Site, fromHome: boolean, current?: SectionId): string {
  const linked = site.brief.sections.filter((s) => s !== 'hours' || site.brief.pages.includes(s));
  const pages = linked.filter((s) => site.brief.pages.includes(s));
  const anchors = linked
    .filter((s) => !site.brief.pages.includes(s))
    .slice(0, Math.max(0, NAV_LIMIT - pages.length));
  const items = linked.filter((s) => pages.includes(s) || anchors.includes(s));
  const home = site.brief.pages.length
    ? `<li><a href="index.html"${fromHome ? ' aria-current="page"' : ''}>${escapeHtml(site.words.home)}</a></li>`
    : '';
  return `${home}${items.map((s) => `<li><a href="${sectionHref(site, s, fromHome)}"${s === current ? ' aria-current="page"' : ''}>${escapeHtml(sectionTitle(site, s))}</a></li>`).join('')}`;
}

function page(
  site: Site,
  p: Palette,
  o: { title: string; description: string; body: string; fromHome: boolean; current?: SectionId },
): string {
  const { brief } = site;
  const place = brief.place ? ` · ${escapeHtml(brief.place)}` : '';
  return `<!DOCTYPE html>
<html lang="${brief.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title}</title>
<meta name="description" content="${o.description}">
<link rel="icon" href="${favicon(site, p)}">
<link rel="stylesheet" href="styles.css">
</head>
<body id="top">
<a class="skip" href="#main">${escapeHtml(site.words.skip)}</a>
<header class="site-header"><div class="container bar">
  <a class="brand" href="${o.fromHome ? '#top' : 'index.html'}">${escapeHtml(brief.name)}</a>
  <nav aria-label="${escapeHtml(site.words.mainNav)}"><ul>${nav(site, o.fromHome, o.current)}</ul></nav>
</div></header>
<main id="main">
${o.body}
</main>
<footer class="site-footer"><div class="container bar">
  <p>© ${new Date().getUTCFullYear()} ${escapeHtml(brief.name)}${place}</p>
  <p><a href="${o.fromHome ? '#top' : 'index.html'}">${escapeHtml(o.fromHome ? site.words.backToTop : site.words.home)}</a></p>
</div></footer>
</body>
</html>
`;
}

export function renderIndex(site: Site, p: Palette): string {
  const { brief, kind } = site;
  const [ctaLabel, ctaTarget] = kind.cta;
  const target = brief.sections.includes(ctaTarget)
    ? ctaTarget
    : brief.sections.includes('contact')
      ? 'contact'
      : brief.sections[0];
  const second = heroSecondary(site);
  const headline = brief.headline ?? fill(site, kind.headline);
  const tagline = brief.tagline ?? fill(site, kind.tagline);
  const hero = `<section class="hero" aria-labelledby="hero-title"><div class="container hero-grid"><div>
  <p class="eyebrow">${escapeHtml(kind.label)}${brief.place ? ` · ${escapeHtml(brief.place)}` : ''}</p>
  ${el(site, 'h1', 'hero.title', headline, 'id="hero-title"')}
  ${el(site, 'p', 'hero.text', tagline, 'class="lead"')}
  <p class="actions">${target ? `<a class="button" href="${sectionHref(site, target, true)}">${escapeHtml(target === ctaTarget ? ctaLabel : sectionTitle(site, target))}</a>` : ''}${second && second !== target ? ` <a class="button ghost" href="${sectionHref(site, second, true)}">${escapeHtml(sectionTitle(site, second))}</a>` : ''}</p>
</div>
${picture(site, 'hero', site.images[0] && !brief.sections.includes('gallery') ? `<img class="art" src="${escapeHtml(site.images[0])}" alt="">` : illustration(kind.motif))}
</div></section>`;
  const onHome = brief.sections.filter((s) => !brief.pages.includes(s));
  return page(site, p, {
    title: `${escapeHtml(brief.name)} | ${escapeHtml(kind.label)}${brief.place ? escapeHtml(site.words.inPlace.replace('{place}', brief.place)) : ''}`,
    description: text(site, 'hero.text', tagline),
    body: [hero, ...onHome.map((s) => renderSection(site, s))].join('\n'),
    fromHome: true,
  });
}

export function renderPage(site: Site, p: Palette, id: SectionId): string {
  return page(site, p, {
    title: `${escapeHtml(sectionTitle(site, id))} | ${escapeHtml(site.brief.name)}`,
    description: `${escapeHtml(sectionTitle(site, id))}: ${escapeHtml(fill(site, '{name}{inPlace}'))}`,
    body: renderSection(site, id, 1),
    fromHome: false,
    current: id,
  });
}

export function render404(site: Site, p: Palette): string {
  return page(site, p, {
    title: `${escapeHtml(site.words.notFound)} | ${escapeHtml(site.brief.name)}`,
    description: escapeHtml(site.words.notFoundText),
    body: `<section class="section"><div class="container narrow">
<h1>${escapeHtml(site.words.notFound)}</h1><p class="lead">${escapeHtml(site.words.notFoundText)} <a href="/">${escapeHtml(fill(site, site.words.backTo))}</a></p>
</div></section>`,
    fromHome: false,
  }).replace('href="styles.css"', 'href="/styles.css"');
}

const DENSITY = {
  compact: 'clamp(2.25rem, 5vw, 3.5rem)',
  comfortable: 'clamp(3.5rem, 9vw, 6rem)',
  spacious: 'clamp(5rem, 12vw, 8.5rem)',
};

export function renderCss(site: Site, p: Palette): string {
  const { brief, kind } = site;
  const font = FONTS[brief.font ?? kind.font].stack;
  return `:root {
  --bg: ${p.bg}; --surface: ${p.surface}; --text: ${p.text}; --muted: ${p.muted};
  --primary: ${p.primary}; --on-primary: ${p.onPrimary}; --link: ${p.link}; --hero: ${p.heroBg}; --on-hero: ${p.onHero}; --accent: ${p.accent};
  --todo-bg: ${p.todoBg}; --todo-text: ${p.todoText};
  --radius: 14px; --shadow: 0 10px 30px rgba(15, 23, 42, .08); --section: ${DENSITY[brief.density]};
  font-family: ${font};
  color-scheme: ${brief.dark ? 'dark' : 'light'};
}
*, *::before, *::after { box-sizing: border-box; }
html { scroll-behavior: smooth; }
@media (prefers-reduced-motion: reduce) { html { scroll-behavior: auto; } * { transition: none !important; } }
body { margin: 0; background: var(--bg); color: var(--text); line-height: 1.6; font-size: 1.0625rem; overflow-wrap: break-word; }
img, svg { max-width: 100%; }
img { height: auto; display: block; border-radius: var(--radius); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 3px solid var(--link); outline-offset: 3px; }
/* Headings break words only where the page's language allows (hyphens, with <html lang>), never mid-syllable. */
h1, h2, h3 { line-height: 1.15; letter-spacing: -0.02em; margin: 0 0 .6em; overflow-wrap: normal; hyphens: auto; text-wrap: balance; }
p, li, dd, figcaption { hyphens: auto; }
h1 { font-size: clamp(2rem, 6vw, 3.8rem); }
h2 { font-size: clamp(1.7rem, 4vw, 2.5rem); }
h3 { font-size: 1.25rem; }
p { margin: 0 0 1em; }
.container { width: min(1120px, 100% - 2.5rem); margin-inline: auto; }
.narrow { width: min(760px, 100% - 2.5rem); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip { position: absolute; left: -999px; top: 0; background: var(--primary); color: var(--on-primary); padding: .75rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }
.site-header { position: sticky; top: 0; z-index: 5; background: var(--bg); border-bottom: 1px solid var(--surface); }
.bar { display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; padding-block: .9rem; }
.brand { font-weight: 800; font-size: 1.2rem; color: var(--text); text-decoration: none; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; margin: 0; padding: 0; }
nav a { color: var(--text); text-decoration: none; font-weight: 500; }
nav a:hover, nav a[aria-current="page"] { color: var(--link); text-decoration: underline; text-underline-offset: .3em; }
.hero { background: var(--hero); color: var(--on-hero); padding-block: clamp(3.5rem, 10vw, 7rem); }
.hero-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr)); gap: 2.5rem; align-items: center; }
.hero .lead { max-width: 38rem; }
.eyebrow { text-transform: uppercase; letter-spacing: .12em; font-size: .85rem; font-weight: 700; }
.lead { font-size: 1.2rem; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; margin-top: 2rem; }
.button { display: inline-block; background: var(--primary); color: var(--on-primary); border: 2px solid var(--primary); border-radius: 999px; padding: .8rem 1.5rem; font: inherit; font-weight: 700; font-size: 1rem; text-decoration: none; cursor: pointer; }
.button:hover { filter: brightness(1.08); }
.button.ghost { background: transparent; color: var(--on-hero); border-color: currentColor; }
.section { padding-block: var(--section); }
.section:nth-of-type(odd) { background: var(--surface); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 260px), 1fr)); gap: 1.5rem; }
.card { background: var(--bg); border: 1px solid var(--surface); border-radius: var(--radius); padding: 1.75rem; box-shadow: var(--shadow); margin: 0; }
.icon { width: 2.5rem; height: 2.5rem; fill: none; stroke: var(--link); stroke-width: 1.6; stroke-linecap: round; stroke-linejoin: round; margin-bottom: 1rem; flex: none; }
.icon.big { width: 3.5rem; height: 3.5rem; }
.avatar { width: 4rem; height: 4rem; padding: .8rem; border-radius: 50%; background: var(--surface); fill: none; stroke: var(--link); stroke-width: 1.6; margin-bottom: 1rem; }
.art { width: 100%; height: auto; }
.art-bg { fill: var(--surface); }
.art-a { fill: var(--accent); opacity: .35; }
.art-b { fill: var(--primary); opacity: .18; }
.art-dots { fill: var(--link); opacity: .35; }
.art-line { fill: none; stroke: var(--link); stroke-width: .9; stroke-linecap: round; stroke-linejoin: round; }
.split { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr)); gap: 2.5rem; align-items: start; }
.callout { display: flex; gap: 1.5rem; align-items: flex-start; }
.todo { background: var(--todo-bg); color: var(--todo-text); outline: 2px dashed var(--todo-text); outline-offset: 2px; border-radius: 6px; padding: .1em .4em; font-style: italic; }
.menu-list, .hours, .contact-list, .events { list-style: none; padding: 0; margin: 0 0 1.5rem; display: grid; gap: .75rem; }
.menu-list li { display: flex; justify-content: space-between; gap: 1rem; border-bottom: 1px dotted var(--muted); padding-bottom: .4rem; }
.contact-list li, .events li { display: flex; gap: .75rem; align-items: center; }
.contact-list .icon, .events .icon { width: 1.5rem; height: 1.5rem; margin: 0; }
.events li { padding: 1rem 1.25rem; }
.events p { margin: 0; }
.amount { font-size: 1.6rem; font-weight: 800; color: var(--link); }
.menu-list .amount { font-size: 1.1rem; }
.price.featured { border: 2px solid var(--primary); }
.product .art, .product img { margin-bottom: 1rem; }
.gallery { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 240px), 1fr)); gap: 1rem; }
.tile { margin: 0; }
.tile figcaption { margin-top: .5rem; color: var(--muted); }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; background: var(--bg); border-radius: var(--radius); }
th, td { text-align: left; padding: .85rem 1rem; border-bottom: 1px solid var(--surface); }
details { border-bottom: 1px solid var(--muted); padding-block: 1rem; }
summary { cursor: pointer; font-weight: 700; }
.quote blockquote { margin: 0 0 1rem; font-size: 1.1rem; }
.form { background: var(--bg); border-radius: var(--radius); padding: clamp(1.25rem, 4vw, 2rem); box-shadow: var(--shadow); display: grid; gap: 1rem; }
.inline-form { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
.inline-form input { flex: 1 1 16rem; width: auto; }
.field { display: grid; gap: .35rem; }
label { font-weight: 600; }
input, textarea { font: inherit; color: var(--text); background: var(--bg); border: 1.5px solid var(--muted); border-radius: 10px; padding: .7rem .85rem; width: 100%; }
.gotcha { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
.site-footer { background: ${brief.dark ? '#020617' : '#111827'}; color: #e5e7eb; }
.site-footer a { color: #e5e7eb; }
.site-footer p { margin: 0; }
`;
}
