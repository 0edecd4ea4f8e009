// The sections of a builtin site. Each writes only what the kind's copy or the prompt says; a
// fact neither gives (a phone number, a price, a dish, a team member) is a placeholder asking for
// it. `level` is the heading level of the section's title: 2 on the home page, 1 on its own page.
import { icon, illustration, offerIcons, type IconId } from './art.ts';
import { escapeRegex, type SectionId } from './kinds.ts';
import { midSentence } from './words/index.ts';
import {
  altOf,
  el,
  escapeHtml,
  picture,
  price,
  sectionHref,
  sectionTitle,
  text,
  todo,
  type Site,
} from './site.ts';

type Render = (site: Site, level: 1 | 2) => string;

const heading = (site: Site, id: SectionId, level: 1 | 2) =>
  el(site, `h${level}`, `${id}.title`, sectionTitle(site, id), `id="${id}-title"`);
// Sections alternate their background by position (styles.css), whatever the order.
const wrap = (id: SectionId, inner: string, width = '') =>
  `<section id="${id}" class="section" aria-labelledby="${id}-title"><div class="container${width ? ` ${width}` : ''}">\n${inner}\n</div></section>`;

function offers(site: Site): [string, string][] {
  const own = site.brief.offers;
  if (!own) return site.kind.offers;
  // Lines that claim nothing about the business (no years, no prices, no promises of a time).
  const lines = site.words.describe;
  return own.map((o, i) => [
    o,
    lines[i % lines.length]!.replace('{X}', o).replace('{x}', midSentence(site.brief.language, o)),
  ]);
}

function cards(site: Site, id: 'services' | 'features'): string {
  const icons = offerIcons(site.kind.motif);
  return `<div class="grid">${offers(site)
    .map(([title, body], i) => {
      // A price the prompt gave for this offer stands under its name.
      const given = site.brief.offers ? priceFor(site, title) : undefined;
      const amount = given ? `<p class="amount">${escapeHtml(price(site, given.price))}</p>` : '';
      return `
  <article class="card">${icon(icons[i % icons.length]!)}${el(site, 'h3', `${id}.${i}.title`, title)}${amount}${el(site, 'p', `${id}.${i}.text`, body)}</article>`;
    })
    .join('')}
</div>`;
}

/**
 * The price the prompt gave for `name`: the one of its own item, else of the only item that names
 * it in whole words ("Cakes" ~ "Birthday cakes"). With two ("Taglio e barba": "Taglio" and
 * "Barba") either price would be a wrong one.
 */
function priceFor(site: Site, name: string) {
  const wanted = name.toLowerCase();
  const given = site.brief.prices;
  const own = given.find((p) => p.item.toLowerCase() === wanted);
  if (own) return own;
  const near = given.filter(
    (p) => hasWords(p.item.toLowerCase(), wanted) || hasWords(wanted, p.item.toLowerCase()),
  );
  return near.length === 1 ? near[0] : undefined;
}

const hasWords = (text: string, words: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegex(words)}(?![\\p{L}\\p{N}])`, 'u').test(text);

const SECTIONS: Record<SectionId, Render> = {
  services: (site, level) =>
    wrap('services', `${heading(site, 'services', level)}\n${cards(site, 'services')}`),

  features: (site, level) =>
    wrap('features', `${heading(site, 'features', level)}\n${cards(site, 'features')}`),

  menu: (site, level) => {
    const given = site.brief.prices;
    // The prices the prompt gave, then a place for the rest; or, without any, a card per part of the menu.
    const body = given.length
      ? `<ul class="menu-list">${given.map((p, i) => `<li><span data-sw="menu.item.${i}">${text(site, `menu.item.${i}`, p.item)}</span> <span class="amount">${escapeHtml(price(site, p.price))}</span></li>`).join('')}</ul>
${todo(site, 'p', 'menu.more', site.words.menuMore)}`
      : `<div class="grid menu">${(site.kind.menu ?? [site.words.menuDefault])
          .map(
            (g, i) => `
  <article class="card">${el(site, 'h3', `menu.${i}.title`, g)}${todo(site, 'p', `menu.${i}.items`, site.words.menuGroupTodo.replace('{x}', midSentence(site.brief.language, g)))}</article>`,
          )
          .join('')}
</div>`;
    return wrap(
      'menu',
      `${heading(site, 'menu', level)}
${el(site, 'p', 'menu.intro', site.words.menuIntro, 'class="lead"')}
${body}`,
    );
  },

  products: (site, level) => {
    const ranges = site.kind.products ?? [site.words.productsDefault];
    const images = site.images;
    return wrap(
      'products',
      `${heading(site, 'products', level)}
<div class="grid">${ranges
        .map((r, i) => {
          const given = priceFor(site, r);
          const shown = picture(
            site,
            `products.${i}`,
            images[i]
              ? `<img src="${escapeHtml(images[i]!)}" alt="" loading="lazy">`
              : illustration(site.kind.motif, i + 3),
          );
          return `
  <article class="card product">${shown}${el(site, 'h3', `products.${i}.title`, r)}${given ? `<p class="amount">${escapeHtml(price(site, given.price))}</p>` : todo(site, 'p', `products.${i}.text`, site.words.productsTodo.replace('{x}', midSentence(site.brief.language, r)))}</article>`;
        })
        .join('')}
</div>`,
    );
  },

  gallery: (site, level) => {
    const own = site.images.slice(0, 9);
    const tiles = own.length
      ? own.map(
          (src, i) =>
            `<figure class="tile">${picture(site, `gallery.${i}`, `<img src="${escapeHtml(src)}" alt="${escapeHtml(altOf(site, src))}" loading="lazy">`)}<figcaption data-sw="gallery.${i}.caption">${text(site, `gallery.${i}.caption`, altOf(site, site.brief.pictures[`gallery.${i}`] ?? src))}</figcaption></figure>`,
        )
      : [0, 1, 2, 3, 4, 5].map((i) => {
          const placed = site.brief.pictures[`gallery.${i}`];
          const caption = placed
            ? el(site, 'figcaption', `gallery.${i}.caption`, altOf(site, placed))
            : todo(site, 'figcaption', `gallery.${i}.caption`, site.words.galleryTodo);
          return `<figure class="tile">${picture(site, `gallery.${i}`, illustration(site.kind.motif, i + 1))}${caption}</figure>`;
        });
    return wrap(
      'gallery',
      `${heading(site, 'gallery', level)}\n<div class="gallery">${tiles.join('\n')}</div>`,
    );
  },

  timetable: (site, level) => {
    const classes = site.kind.classes ?? [site.words.classesDefault];
    return wrap(
      'timetable',
      `${heading(site, 'timetable', level)}
<div class="table-wrap"><table>
<caption class="visually-hidden">${escapeHtml(sectionTitle(site, 'timetable'))}</caption>
<thead><tr>${site.words.timetableHead.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>
<tbody>${classes.map((c, i) => `<tr><th scope="row" data-sw="timetable.${i}.class">${text(site, `timetable.${i}.class`, c)}</th>${todo(site, 'td', `timetable.${i}.when`, site.words.addDayAndTime)}${todo(site, 'td', `timetable.${i}.with`, site.words.addName)}</tr>`).join('\n')}</tbody>
</table></div>`,
    );
  },

  pricing: (site, level) => {
    const given = site.brief.prices;
    // Exactly the prompt's own items with their prices, when it gave them (each its own: matching
    // names could give "Taglio e barba" the price of "Taglio"); else the kind's tiers, asking for theirs.
    const cards = given.length
      ? given.map(
          (p, i) => `
  <article class="card price">${el(site, 'h3', `pricing.${i}.title`, p.item)}<p class="amount">${escapeHtml(price(site, p.price))}</p></article>`,
        )
      : (site.kind.tiers ?? site.words.tiersDefault).map(
          (t, i) => `
  <article class="card price${i === 1 ? ' featured' : ''}">${el(site, 'h3', `pricing.${i}.title`, t)}${todo(site, 'p', `pricing.${i}.price`, site.words.addPrice)}${todo(site, 'p', `pricing.${i}.text`, site.words.addIncluded)}</article>`,
        );
    return wrap('pricing', `${heading(site, 'pricing', level)}\n<div class="grid">${cards.join('')}\n</div>`);
  },

  team: (site, level) =>
    wrap(
      'team',
      `${heading(site, 'team', level)}
<div class="grid team">${[0, 1, 2]
        .map(
          (i) => `
  <article class="card person">${icon('users', 'avatar')}${todo(site, 'h3', `team.${i}.name`, site.words.addName)}${todo(site, 'p', `team.${i}.role`, site.words.teamRole)}</article>`,
        )
        .join('')}
</div>`,
    ),

  about: (site, level) =>
    wrap(
      'about',
      `<div class="split"><div>
${el(site, `h${level}`, 'about.title', site.words.aboutTitle, 'id="about-title"')}
${el(site, 'p', 'about.text', site.kind.about, 'class="lead"')}
${todo(site, 'p', 'about.story', site.words.aboutStory)}
</div>
${picture(site, 'about', illustration(site.kind.motif, 9))}</div>`,
    ),

  area: (site, level) =>
    wrap(
      'area',
      `${heading(site, 'area', level)}
${site.brief.place ? el(site, 'p', 'area.text', site.words.areaText, 'class="lead"') : todo(site, 'p', 'area.text', site.words.areaTodo, 'lead')}`,
      'narrow',
    ),

  emergency: (site, level) => {
    const phone = site.brief.contact.phone;
    return wrap(
      'emergency',
      `<div class="callout">${icon('call', 'icon big')}<div>
${heading(site, 'emergency', level)}
${el(site, 'p', 'emergency.text', site.words.emergencyText)}
${phone ? `<p>${telLink(phone, site.words.callPhone.replace('{phone}', phone), 'button')}</p>` : todo(site, 'p', 'emergency.phone', `${site.words.emergencyTodo}${forExample(site)}`)}
</div></div>`,
    );
  },

  events: (site, level) =>
    wrap(
      'events',
      `${heading(site, 'events', level)}
<ul class="events">${[0, 1]
        .map(
          (i) =>
            `<li class="card">${icon('calendar')}${todo(site, 'p', `events.${i}`, site.words.eventsTodo)}</li>`,
        )
        .join('')}</ul>`,
      'narrow',
    ),

  hours: (site, level) => {
    const lines = site.brief.hours;
    return wrap(
      'hours',
      `${heading(site, 'hours', level)}
${lines.length ? `<ul class="hours">${lines.map((l, i) => `<li data-sw="hours.${i}">${text(site, `hours.${i}`, l)}</li>`).join('')}</ul>` : todo(site, 'p', 'hours.text', site.words.hoursTodo)}`,
      'narrow',
    );
  },

  booking: (site, level) =>
    wrap(
      'booking',
      `<div class="split"><div>
${heading(site, 'booking', level)}
${el(site, 'p', 'booking.text', site.words.bookingText, 'class="lead"')}
</div>
<form class="form" action="/_forms/booking" method="post">
  ${field('booking-name', 'name', site.words.labelName, 'autocomplete="name" required')}
  ${field('booking-email', 'email', site.words.labelEmail, 'type="email" autocomplete="email" required')}
  ${field('booking-phone', 'phone', site.words.labelPhoneOptional, 'type="tel" autocomplete="tel"')}
  ${field('booking-date', 'date', site.words.labelDate, 'type="date" required')}
  <div class="field"><label for="booking-message">${escapeHtml(site.words.labelAnything)}</label><textarea id="booking-message" name="message" rows="3"></textarea></div>
  ${honeypot(site, 'booking')}
  <button class="button" type="submit">${escapeHtml(sectionTitle(site, 'booking'))}</button>
</form></div>`,
    ),

  signup: (site, level) =>
    wrap(
      'signup',
      `<div class="callout">${icon(site.kind.motif, 'icon big')}<div>
${heading(site, 'signup', level)}
${el(site, 'p', 'signup.text', ['software', 'app'].includes(site.kind.id) ? site.words.signupTextProduct : site.words.signupText)}
<form class="inline-form" action="/_forms/signup" method="post">
  <label for="signup-email">${escapeHtml(site.words.labelEmail)}</label><input id="signup-email" name="email" type="email" autocomplete="email" required>
  ${honeypot(site, 'signup')}
  <button class="button" type="submit">${escapeHtml(site.kind.cta[1] === 'signup' ? site.kind.cta[0] : sectionTitle(site, 'signup'))}</button>
</form></div></div>`,
    ),

  donate: (site, level) =>
    wrap(
      'donate',
      `<div class="callout">${icon('heart', 'icon big')}<div>
${heading(site, 'donate', level)}
${el(site, 'p', 'donate.text', site.words.donateText)}
${todo(site, 'p', 'donate.link', site.words.donateTodo)}
<p><a class="button" href="${sectionHref(site, 'contact', level === 2)}">${escapeHtml(site.words.volunteer)}</a></p>
</div></div>`,
    ),

  faq: (site, level) => {
    const questions = site.kind.faq ?? site.words.faqDefault;
    return wrap(
      'faq',
      `${heading(site, 'faq', level)}${questions
        .map(
          (q, i) => `
<details>${el(site, 'summary', `faq.${i}.q`, q)}${todo(site, 'p', `faq.${i}.a`, site.words.addAnswer)}</details>`,
        )
        .join('')}`,
      'narrow',
    );
  },

  reviews: (site, level) =>
    wrap(
      'reviews',
      `${heading(site, 'reviews', level)}
<div class="grid">${[0, 1]
        .map(
          (i) => `
  <figure class="card quote">${todo(site, 'blockquote', `reviews.${i}.quote`, site.words.reviewTodo)}${todo(site, 'figcaption', `reviews.${i}.who`, site.words.reviewWho)}</figure>`,
        )
        .join('')}
</div>`,
    ),

  contact: (site, level) => {
    const { phone, email, address } = site.brief.contact;
    const item = (name: IconId, body: string) => `<li>${icon(name)}${body}</li>`;
    const phoneItem = item(
      'call',
      phone
        ? telLink(phone)
        : todo(site, 'span', 'contact.phone', `${site.words.phoneTodo}${forExample(site)}`),
    );
    const emailItem = item(
      'mail',
      email
        ? `<a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>`
        : todo(site, 'span', 'contact.email', site.words.emailTodo),
    );
    const addressItem = item(
      'pin',
      address
        ? `<span>${escapeHtml(address)}</span>`
        : todo(
            site,
            'span',
            'contact.address',
            site.brief.place
              ? site.words.addressInTodo.replace('{place}', site.brief.place)
              : site.words.addressTodo,
          ),
    );
    // An online product is reached by email: no phone or street address to ask for.
    const online = ['software', 'app'].includes(site.kind.id);
    const facts = online
      ? [emailItem, ...(phone ? [phoneItem] : []), ...(address ? [addressItem] : [])]
      : [phoneItem, emailItem, addressItem];
    return wrap(
      'contact',
      `<div class="split"><div>
${el(site, `h${level}`, 'contact.title', site.words.contactTitle, 'id="contact-title"')}
${el(site, 'p', 'contact.text', site.words.contactText, 'class="lead"')}
<ul class="contact-list">${facts.join('')}</ul>
</div>
<form class="form" action="/_forms/contact" method="post">
  ${field('contact-name', 'name', site.words.labelName, 'autocomplete="name" required')}
  ${field('contact-email', 'email', site.words.labelEmail, 'type="email" autocomplete="email" required')}
  <div class="field"><label for="contact-message">${escapeHtml(site.words.labelMessage)}</label><textarea id="contact-message" name="message" rows="5" required></textarea></div>
  ${honeypot(site, 'contact')}
  <button class="button" type="submit">${escapeHtml(site.words.send)}</button>
</form></div>`,
    );
  },
};

/** A phone number as a link that dials it; the number itself never breaks across lines. */
function telLink(phone: string, label = phone, className = ''): string {
  const unbroken = label.replace(phone, phone.replace(/-/g, '\u2011')).replace(/ /g, '\u00a0');
  return `<a${className ? ` class="${className}"` : ''} href="tel:${escapeHtml(phone.replace(/[^\d+]/g, ''))}">${escapeHtml(unbroken)}</a>`;
}

function field(id: string, name: string, label: string, attrs: string): string {
  const type = /\btype=/.test(attrs) ? '' : 'type="text" ';
  return `<div class="field"><label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${name}" ${type}${attrs}></div>`;
}

/** The forms' spam trap: real people never see nor fill it. */
function honeypot(site: Site, form: string): string {
  return `<div class="gotcha" aria-hidden="true"><label for="${form}-gotcha">${escapeHtml(site.words.honeypot)}</label><input id="${form}-gotcha" name="_gotcha" type="text" tabindex="-1" autocomplete="off"></div>`;
}

/** " (for example +44 20 7946 0000)" in the site's words, when the country is known. */
const forExample = (site: Site) =>
  site.country ? site.words.forExample.replace('{example}', site.country.phoneExample) : '';

export function renderSection(site: Site, id: SectionId, level: 1 | 2 = 2): string {
  return SECTIONS[id](site, level);
}

/** Sections the home page links to from its hero's second button. */
export function heroSecondary(site: Site): SectionId | undefined {
  const [, target] = site.kind.cta;
  return site.brief.sections.find((s) => s !== target && s !== 'contact' && s !== 'hours');
}
