// What rendering one builtin site needs: the brief, its kind and country, the images the project
// already has, and the helpers every section uses to write text. Every text a person may change
// carries `data-sw="<key>"`: a change made in the builder is read back from that element
// (overrides.ts) and kept when the site is rendered again. A fact the prompt did not give is an
// obvious placeholder (`data-sw-todo`), highlighted in the builder and named before publishing.
import type { Brief } from './brief.ts';
import { kindById, type Kind, type SectionId } from './kinds.ts';
import { countryOf, type Country } from './places.ts';
import { kindIn, wordsFor, type Words } from './words/index.ts';

export interface Site {
  brief: Brief;
  kind: Kind;
  country: Country | undefined;
  /** The words of the site's language. */
  words: Words;
  /** Images the project has (uploaded), by path: used for the gallery, products and hero. */
  images: string[];
}

export function siteOf(brief: Brief, images: string[] = []): Site {
  return {
    brief,
    kind: kindIn(kindById(brief.kind), brief.language),
    country: countryOf(brief.country),
    words: wordsFor(brief.language),
    images,
  };
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** {name}, {inPlace} and {place} filled in. */
export function fill(site: Site, template: string): string {
  const { name, place } = site.brief;
  // "Bakery in York" needs no second "in York".
  const inPlace = place && !name.includes(place) ? site.words.inPlace.replace('{place}', place) : '';
  return template
    .replaceAll('{name}', name)
    .replaceAll('{inPlace}', inPlace)
    .replaceAll('{place}', place ?? '');
}

/** The text of `key`: as changed by the person, else the default (with {name} … filled in), escaped. */
export function text(site: Site, key: string, fallback: string): string {
  return escapeHtml(site.brief.texts[key] ?? fill(site, fallback)).replace(/\r?\n/g, '<br>');
}

/** An element holding the text of `key`. */
export function el(site: Site, tag: string, key: string, fallback: string, attrs = ''): string {
  return `<${tag} data-sw="${key}"${attrs ? ` ${attrs}` : ''}>${text(site, key, fallback)}</${tag}>`;
}

/**
 * A fact still to give: shown as a highlighted placeholder until the person writes it (in the
 * builder, or with a prompt); once written it is plain text like any other.
 */
export function todo(site: Site, tag: string, key: string, request: string, className = ''): string {
  // Written once the person gives the fact: exactly what the builder's text edit leaves behind.
  if (site.brief.texts[key] !== undefined)
    return `<${tag} data-sw="${key}"${className ? ` class="${className}"` : ''}>${text(site, key, '')}</${tag}>`;
  return `<${tag} data-sw="${key}" class="todo${className ? ` ${className}` : ''}" data-sw-todo>${escapeHtml(request)}</${tag}>`;
}

/** A name for an image from its file name ("wedding-1.jpg": "Wedding 1"). */
export function altOf(site: Site, path: string): string {
  const base = path
    .split('/')
    .pop()!
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return base ? base[0]!.toUpperCase() + base.slice(1) : site.words.photo;
}

/**
 * The picture of a slot ('hero', 'about', 'gallery.2' …): the image the person placed there (a
 * prompt on the selected picture, pictures.ts), else `fallback`. Either carries
 * `data-sw-picture="<slot>"`, which is how a selected element names its slot.
 */
export function picture(site: Site, slot: string, fallback: string): string {
  const placed = site.brief.pictures[slot];
  if (!placed) return fallback.replace(/^<([a-z]+)/, `<$1 data-sw-picture="${slot}"`);
  const className = /^<[a-z]+[^>]*?\sclass="([^"]*)"/.exec(fallback)?.[1];
  // The alt text the person wrote (the builder's Replace image), else one from the file's name.
  const alt = site.brief.texts[`${slot}.alt`] ?? altOf(site, placed);
  return `<img${className ? ` class="${className}"` : ''} src="${escapeHtml(placed)}" alt="${escapeHtml(alt)}" loading="lazy" data-sw-picture="${slot}">`;
}

/** What a section is called, in the navigation and as its heading. */
export function sectionTitle(site: Site, id: SectionId): string {
  const k = site.kind;
  const w = site.words.titles;
  const product = ['software', 'app'].includes(k.id);
  const titles: Record<SectionId, string> = {
    services: k.offerTitle,
    features: w.features,
    menu: k.id === 'bar' ? w.drinks : w.menu,
    products: k.id === 'hotel' ? w.rooms : k.id === 'realestate' ? w.properties : w.shop,
    gallery: ['photographer', 'artist', 'architect', 'agency'].includes(k.id) ? w.portfolio : w.gallery,
    timetable: w.timetable,
    pricing: product ? w.pricing : w.prices,
    team: k.team ?? w.team,
    about: w.about,
    area: w.area,
    emergency: w.emergency,
    events: k.id === 'music' ? w.tourDates : w.events,
    hours: w.hours,
    booking: k.cta[1] === 'booking' ? k.cta[0] : w.book,
    signup: product ? w.getStarted : w.signUp,
    donate: w.donate,
    faq: w.faq,
    reviews: w.reviews,
    contact: w.contact,
  };
  return titles[id];
}

/** A price as the prompt wrote it, with the country's currency when it wrote a bare number. */
export function price(site: Site, written: string): string {
  if (/[£$€¥₹]|\b(?:eur|gbp|usd|chf|kr)\b|euros?|pounds|dollars/i.test(written) || !site.country)
    return written;
  const c = site.country.currency;
  return c.before ? `${c.symbol}${written}` : `${written} ${c.symbol}`;
}

/** The file a page of the site is in, and the link to a section from any page. */
export const pageFile = (id: SectionId) => `${id}.html`;
export function sectionHref(site: Site, id: SectionId, fromHome: boolean): string {
  if (site.brief.pages.includes(id)) return pageFile(id);
  return fromHome ? `#${id}` : `index.html#${id}`;
}
