// Renders a brief as a static site: index.html, styles.css and 404.html, with no external
// assets. Every piece of text from the prompt is HTML-escaped; colours are adjusted until text
// reaches WCAG AA contrast.
import type { Brief, Section } from './brief.ts';
import { contrast, ensureContrast, shade, tint } from './colors.ts';
import { kindById, type Kind } from './kinds.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface Palette {
  bg: string;
  surface: string;
  text: string;
  muted: string;
  /** Buttons and links; white text on it reaches 4.5:1. */
  primary: string;
  /** Links and headings accent on the page background. */
  link: string;
  heroBg: string;
  accent: string;
}

export function palette(brief: Brief, kind: Kind): Palette {
  const brand = brief.primary ?? kind.primary;
  const bg = brief.dark ? '#0f172a' : '#ffffff';
  const surface = brief.dark ? '#1e293b' : tint(brand, 0.94);
  const text = brief.dark ? '#e2e8f0' : '#1f2937';
  const muted = ensureContrast(brief.dark ? '#94a3b8' : '#4b5563', surface);
  const primary = ensureContrast(brand, '#ffffff');
  const link = ensureContrast(brand, bg);
  const heroBg = brief.dark ? shade(brand, 0.75) : tint(brand, 0.88);
  return { bg, surface, text, muted, primary, link, heroBg, accent: kind.accent };
}

const ICONS = [
  '<path d="M12 2l3 7h7l-5.5 4.5L18.5 21 12 16.5 5.5 21l2-7.5L2 9h7z"/>',
  '<circle cx="12" cy="12" r="9"/><path d="M8 12l3 3 5-6" fill="none" stroke="#fff" stroke-width="2"/>',
  '<path d="M4 20V10l8-6 8 6v10h-6v-6h-4v6z"/>',
];

function fill(template: string, brief: Brief): string {
  return template.replaceAll('{name}', brief.name).replaceAll('{inPlace}', brief.place ? ` in ${brief.place}` : '').replaceAll('{place}', brief.place ?? '');
}

const TITLES: Record<Section, string> = { services: 'Services', about: 'About', testimonials: 'Reviews', pricing: 'Pricing', faq: 'FAQ', contact: 'Contact' };

function section(id: Section, brief: Brief, kind: Kind): string {
  const e = (s: string) => escapeHtml(fill(s, brief));
  switch (id) {
    case 'services':
      return `<section id="services" class="section" aria-labelledby="services-title"><div class="container">
  <h2 id="services-title">What we do</h2>
  <div class="grid">${kind.services
    .map(
      ([title, text], i) => `
    <article class="card"><svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[i % ICONS.length]}</svg>
      <h3>${e(title)}</h3><p>${e(text)}</p></article>`,
    )
    .join('')}
  </div></div></section>`;
    case 'about':
      return `<section id="about" class="section alt" aria-labelledby="about-title"><div class="container split">
  <div><h2 id="about-title">About ${e(brief.name)}</h2><p class="lead">${e(kind.about)}</p></div>
  <ul class="facts" aria-label="Facts about us"><li><strong>10+</strong> years of experience</li><li><strong>4.9/5</strong> average rating</li><li><strong>100%</strong> local and independent</li></ul>
  </div></section>`;
    case 'testimonials':
      return `<section id="testimonials" class="section" aria-labelledby="testimonials-title"><div class="container">
  <h2 id="testimonials-title">What people say</h2>
  <div class="grid">${kind.testimonials
    .map(([quote, who]) => `
    <figure class="card quote"><blockquote><p>“${e(quote)}”</p></blockquote><figcaption>${e(who)}</figcaption></figure>`)
    .join('')}
  </div></div></section>`;
    case 'pricing':
      return `<section id="pricing" class="section alt" aria-labelledby="pricing-title"><div class="container">
  <h2 id="pricing-title">Pricing</h2>
  <div class="grid">${kind.pricing
    .map(([name, price, what], i) => `
    <article class="card price${i === 1 ? ' featured' : ''}"><h3>${e(name)}</h3><p class="amount">${e(price)}</p><p>${e(what)}</p></article>`)
    .join('')}
  </div></div></section>`;
    case 'faq':
      return `<section id="faq" class="section" aria-labelledby="faq-title"><div class="container narrow">
  <h2 id="faq-title">Questions</h2>${kind.faq
    .map(([q, a]) => `
  <details><summary>${e(q)}</summary><p>${e(a)}</p></details>`)
    .join('')}
  </div></section>`;
    case 'contact':
      return `<section id="contact" class="section alt" aria-labelledby="contact-title"><div class="container split">
  <div><h2 id="contact-title">Get in touch</h2><p class="lead">Tell us what you need and we will get back to you within one working day.</p>
  ${brief.place ? `<p><strong>Where:</strong> ${e(brief.place)}</p>` : ''}</div>
  <form class="form" action="/_forms/contact" method="post">
    <div class="field"><label for="name">Name</label><input id="name" name="name" autocomplete="name" required></div>
    <div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required></div>
    <div class="field"><label for="message">Message</label><textarea id="message" name="message" rows="5" required></textarea></div>
    <div class="gotcha" aria-hidden="true"><label for="_gotcha">Leave this field empty</label><input id="_gotcha" name="_gotcha" tabindex="-1" autocomplete="off"></div>
    <button class="button" type="submit">Send message</button>
  </form></div></section>`;
  }
}

/** The business's initial on its brand colour, inline: no request for /favicon.ico. */
function favicon(brief: Brief): string {
  const initial = escapeHtml((brief.name.trim()[0] ?? 'S').toUpperCase());
  const color = palette(brief, kindById(brief.kind)).primary;
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'><rect width='64' height='64' rx='14' fill='${color}'/><text x='32' y='44' font-size='36' font-family='system-ui,sans-serif' font-weight='700' text-anchor='middle' fill='#fff'>${initial}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export function renderIndex(brief: Brief): string {
  const kind = kindById(brief.kind);
  const e = (s: string) => escapeHtml(fill(s, brief));
  const headline = brief.headline ?? kind.headline;
  const tagline = brief.tagline ?? kind.tagline;
  const nav = brief.sections.map((s) => `<li><a href="#${s}">${TITLES[s]}</a></li>`).join('');
  const cta = brief.sections.includes('contact') ? '#contact' : `#${brief.sections[0] ?? 'top'}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(brief.name)} | ${e(kind.label)}${brief.place ? ` in ${e(brief.place)}` : ''}</title>
<meta name="description" content="${e(tagline)}">
<link rel="icon" href="${favicon(brief)}">
<link rel="stylesheet" href="styles.css">
</head>
<body id="top">
<a class="skip" href="#main">Skip to content</a>
<header class="site-header"><div class="container bar">
  <a class="brand" href="#top">${e(brief.name)}</a>
  <nav aria-label="Main"><ul>${nav}</ul></nav>
</div></header>
<main id="main">
<section class="hero" aria-labelledby="hero-title"><div class="container">
  <p class="eyebrow">${e(kind.label)}${brief.place ? ` · ${e(brief.place)}` : ''}</p>
  <h1 id="hero-title">${e(headline)}</h1>
  <p class="lead">${e(tagline)}</p>
  <p class="actions"><a class="button" href="${cta}">${e(kind.cta)}</a>${brief.sections.includes('services') ? ' <a class="button ghost" href="#services">Our services</a>' : ''}</p>
</div></section>
${brief.sections.map((s) => section(s, brief, kind)).join('\n')}
</main>
<footer class="site-footer"><div class="container bar">
  <p>© ${new Date().getUTCFullYear()} ${e(brief.name)}${brief.place ? ` · ${e(brief.place)}` : ''}</p>
  <p><a href="#top">Back to top</a></p>
</div></footer>
</body>
</html>
`;
}

export function render404(brief: Brief): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found | ${escapeHtml(brief.name)}</title><link rel="stylesheet" href="/styles.css"></head>
<body><main id="main" class="section"><div class="container narrow">
<h1>Page not found</h1><p class="lead">This page does not exist. <a href="/">Back to ${escapeHtml(brief.name)}</a></p>
</div></main></body>
</html>
`;
}

export function renderCss(brief: Brief): string {
  const p = palette(brief, kindById(brief.kind));
  const onHero = contrast(p.text, p.heroBg) >= 4.5 ? p.text : brief.dark ? '#ffffff' : '#111827';
  return `:root {
  --bg: ${p.bg}; --surface: ${p.surface}; --text: ${p.text}; --muted: ${p.muted};
  --primary: ${p.primary}; --link: ${p.link}; --hero: ${p.heroBg}; --on-hero: ${onHero}; --accent: ${p.accent};
  --radius: 14px; --shadow: 0 10px 30px rgba(15, 23, 42, .08);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color-scheme: ${brief.dark ? 'dark' : 'light'};
}
*, *::before, *::after { box-sizing: border-box; }
html { scroll-behavior: smooth; }
@media (prefers-reduced-motion: reduce) { html { scroll-behavior: auto; } * { transition: none !important; } }
body { margin: 0; background: var(--bg); color: var(--text); line-height: 1.6; font-size: 1.0625rem; overflow-wrap: break-word; }
img, svg { max-width: 100%; }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; }
h1, h2, h3 { line-height: 1.15; letter-spacing: -0.02em; margin: 0 0 .6em; }
h1 { font-size: clamp(2.2rem, 6vw, 4rem); }
h2 { font-size: clamp(1.7rem, 4vw, 2.5rem); }
h3 { font-size: 1.25rem; }
p { margin: 0 0 1em; }
.container { width: min(1120px, 100% - 2.5rem); margin-inline: auto; }
.narrow { width: min(760px, 100% - 2.5rem); }
.skip { position: absolute; left: -999px; top: 0; background: var(--primary); color: #fff; padding: .75rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }
.site-header { position: sticky; top: 0; z-index: 5; background: color-mix(in srgb, var(--bg) 92%, transparent); backdrop-filter: blur(8px); border-bottom: 1px solid color-mix(in srgb, var(--text) 10%, transparent); }
.bar { display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; padding-block: .9rem; }
.brand { font-weight: 800; font-size: 1.2rem; color: var(--text); text-decoration: none; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; margin: 0; padding: 0; }
nav a { color: var(--text); text-decoration: none; font-weight: 500; }
nav a:hover { color: var(--link); text-decoration: underline; }
.hero { background: radial-gradient(circle at 85% 20%, color-mix(in srgb, var(--accent) 22%, transparent) 0, transparent 40%), var(--hero); color: var(--on-hero); padding-block: clamp(4rem, 12vw, 8rem); }
.hero .lead { max-width: 38rem; }
.eyebrow { text-transform: uppercase; letter-spacing: .12em; font-size: .85rem; font-weight: 700; }
.lead { font-size: 1.2rem; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; margin-top: 2rem; }
.button { display: inline-block; background: var(--primary); color: #fff; border: 2px solid var(--primary); border-radius: 999px; padding: .8rem 1.5rem; font-weight: 700; font-size: 1rem; text-decoration: none; cursor: pointer; }
.button:hover { filter: brightness(1.1); }
.button.ghost { background: transparent; color: var(--on-hero); border-color: currentColor; }
.section { padding-block: clamp(3.5rem, 9vw, 6rem); }
.section.alt { background: var(--surface); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 260px), 1fr)); gap: 1.5rem; }
.card { background: var(--bg); border: 1px solid color-mix(in srgb, var(--text) 10%, transparent); border-radius: var(--radius); padding: 1.75rem; box-shadow: var(--shadow); margin: 0; }
.alt .card { background: var(--bg); }
.icon { width: 2.5rem; height: 2.5rem; fill: var(--link); margin-bottom: 1rem; }
.split { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr)); gap: 2.5rem; align-items: start; }
.facts { list-style: none; padding: 0; margin: 0; display: grid; gap: 1rem; }
.facts li { background: var(--bg); border-radius: var(--radius); padding: 1.25rem 1.5rem; box-shadow: var(--shadow); }
.facts strong { display: block; font-size: 1.8rem; color: var(--link); }
.quote blockquote { margin: 0 0 1rem; font-size: 1.1rem; }
.quote figcaption { font-weight: 700; color: var(--muted); }
.price .amount { font-size: 2rem; font-weight: 800; color: var(--link); }
.price.featured { border: 2px solid var(--primary); }
details { border-bottom: 1px solid color-mix(in srgb, var(--text) 15%, transparent); padding-block: 1rem; }
summary { cursor: pointer; font-weight: 700; }
.form { background: var(--bg); border-radius: var(--radius); padding: clamp(1.25rem, 4vw, 2rem); box-shadow: var(--shadow); display: grid; gap: 1rem; }
.field { display: grid; gap: .35rem; }
label { font-weight: 600; }
input, textarea { font: inherit; color: var(--text); background: var(--bg); border: 1.5px solid var(--muted); border-radius: 10px; padding: .7rem .85rem; width: 100%; }
.gotcha { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
.site-footer { background: ${brief.dark ? '#020617' : '#111827'}; color: #e5e7eb; }
.site-footer a { color: #e5e7eb; }
.site-footer p { margin: 0; }
`;
}
