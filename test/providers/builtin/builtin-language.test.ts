// The builtin model writes a site in the prompt's language (one of seven): every word it writes,
// `lang` set, the prompt's pages, colour and facts; a follow-up can translate the site; what it
// cannot do is said in one sentence with what to do instead, never as its grammar.
import { describe, expect, it } from 'vitest';
import { BuiltinProvider } from '../../../src/providers/builtin/index.ts';
import { contactIn, hoursIn } from '../../../src/providers/builtin/facts.ts';
import { languageOf } from '../../../src/providers/builtin/language.ts';
import type { SiteFile } from '../../../src/modules/generations/provider.ts';

const generate = (prompt: string, files: SiteFile[] = []) =>
  new BuiltinProvider().generate({ prompt, model: 'builtin', files, signal: new AbortController().signal });
const page = (files: SiteFile[], path = 'index.html') =>
  files.find((f) => f.path === path)!.content as string;
/** The words a visitor reads (tags, scripts and styles gone). */
const visible = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>|<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

const PHYSIO =
  'Wir brauchen eine Website für unsere Physiotherapiepraxis in München-Schwabing. Die Website soll auf Deutsch sein. ' +
  'Seiten: Start, Leistungen, Team, Kontakt. Farben: salbeigrün und weiß, ruhig und freundlich.';

describe('builtin: the prompt’s language', () => {
  it.each([
    ['A website for Luna Bakery in Bristol: sourdough, pastries and cakes', 'en'],
    [PHYSIO, 'de'],
    ['Un site pour mon activité de photographe de mariage à Lyon, avec mes forfaits et un portfolio', 'fr'],
    ['Una web para mi panadería en Sevilla, con el horario y los pedidos', 'es'],
    ['Un sito per la mia pizzeria a Napoli con il menù e le prenotazioni', 'it'],
    ['Een website voor onze bakkerij in Utrecht met openingstijden', 'nl'],
    ['Um site para a minha padaria em Lisboa com o horário e os contactos', 'pt'],
    ['Build a site for our bakery in Leeds, in German please', 'de'],
    // Few or no small words: the language's own words for the business and the site decide.
    ['Bäckerei Luna', 'de'],
    [
      'Friseursalon Schnittwerk in Köln. Leistungen: Damenhaarschnitt ab 39 €, Herrenhaarschnitt ab 25 €.',
      'de',
    ],
    ['Barbiere a Torino: taglio 18 €, barba da 10 €, taglio e barba 25 €.', 'it'],
    ['Kapsalon in Utrecht: knippen vanaf € 24, baard trimmen € 12.', 'nl'],
    ['Luna Rossa', 'en'],
  ])('%s → %s', (prompt, language) => {
    expect(languageOf(prompt)).toBe(language);
  });

  it('writes a German prompt’s site in German: lang, navigation, forms, pages, colour', async () => {
    const { files } = await generate(PHYSIO);
    const index = page(files);
    expect(index).toMatch(/<html lang="de">/);
    const words = visible(index);
    expect(words).toContain('Kontakt');
    expect(words).toContain('Zum Inhalt');
    for (const english of [
      'Get in touch',
      'Send message',
      'Skip to content',
      'Opening hours',
      'Back to top',
      'Add your',
    ])
      expect(words).not.toContain(english);
    // The requested pages are made and linked.
    for (const path of ['services.html', 'team.html', 'contact.html']) {
      expect(files.some((f) => f.path === path)).toBe(true);
      expect(index).toContain(`href="${path}"`);
      expect(page(files, path)).toMatch(/<html lang="de">/);
    }
    expect(visible(page(files, '404.html'))).not.toContain('Page not found');
    // Sage green, not the kind's own colour.
    expect(page(files, 'styles.css')).toMatch(/--primary: #[0-9a-f]{6}/);
    expect(page(files, 'styles.css')).not.toContain('--primary: #0f766e');
    // Headings never break a word in the middle.
    expect(page(files, 'styles.css')).toMatch(/h1, h2, h3 \{[^}]*overflow-wrap: normal; hyphens: auto/);
  });

  it.each([
    ['fr', 'Un site pour mon salon de coiffure à Lyon, avec les tarifs et la prise de rendez-vous'],
    ['es', 'Una web para mi peluquería en Valencia, con precios y reservas'],
    ['it', 'Un sito per il mio salone di parrucchiere a Torino, con prezzi e prenotazioni'],
    ['nl', 'Een website voor mijn kapsalon in Utrecht, met prijzen en afspraken'],
    ['pt', 'Um site para o meu salão de cabeleireiro em Lisboa, com preços e marcações'],
  ])('writes a site in %s with no English words of its own', async (language, prompt) => {
    const { files } = await generate(prompt);
    const index = page(files);
    expect(index).toContain(`<html lang="${language}">`);
    const words = visible(index);
    for (const english of [
      'Get in touch',
      'Send message',
      'Skip to content',
      'Back to top',
      'Add your',
      'Leave this field',
      'About ',
    ]) {
      expect(words).not.toContain(english);
    }
  });

  it('translates a site on request, and says plainly what it cannot do', async () => {
    const first = await generate('A website for Luna Bakery in Bristol with a contact form');
    expect(page(first.files)).toContain('<html lang="en">');
    const french = await generate('Translate the site into French', first.files);
    expect(page(french.files)).toContain('<html lang="fr">');
    expect(french.summary).toMatch(/translated into French/);
    expect(visible(page(french.files))).not.toContain('Get in touch');

    const japanese = generate('Translate the site into Japanese', first.files);
    await expect(japanese).rejects.toThrow(
      /only, so the site was not translated; connect an AI model in Settings/,
    );
    const vague = generate('make it pop more', first.files);
    await expect(vague).rejects.toThrow(
      /^The builtin model \(Templates, offline\) did not understand what to change, so nothing changed: edit a text/,
    );
    await expect(vague).rejects.not.toThrow(/understands|"rename/);
    // A combined request does what it can and names what it did not do.
    const both = await generate('Make it green and show the photo images/wedding1.png here', first.files);
    expect(both.summary).toMatch(
      /brand colour .*Not done: There is no image images\/wedding1.png in the project: upload it/,
    );
  });
});

describe('builtin: facts in any of the languages', () => {
  it.each([
    [
      'Öffnungszeiten: Di–Fr 9–18 Uhr, Sa 8–14 Uhr. Adresse: Karl-Heine-Straße 71, 04229 Leipzig, Telefon 0341 5550 1923.',
      'DE',
      {
        hours: ['Di–Fr 9–18 Uhr', 'Sa 8–14 Uhr'],
        address: 'Karl-Heine-Straße 71, 04229 Leipzig',
        phone: '0341 5550 1923',
      },
    ],
    [
      'Tél. 02 61 91 23 45, contact@plomberie-lemoine.fr. Horaires : lun-ven 8h-18h, sam 9h-12h.',
      'FR',
      {
        hours: ['lun-ven 8h-18h', 'sam 9h-12h'],
        address: null,
        phone: '02 61 91 23 45',
        email: 'contact@plomberie-lemoine.fr',
      },
    ],
    [
      'Open: di t/m za 7.00-18.00 uur, zo 9.00-14.00 uur. Adres: Haarlemmerdijk 112, 1013 JJ Amsterdam. Tel. 020 555 0142.',
      'NL',
      {
        hours: ['di t/m za 7.00-18.00 uur', 'zo 9.00-14.00 uur'],
        address: 'Haarlemmerdijk 112, 1013 JJ Amsterdam',
        phone: '020 555 0142',
      },
    ],
    ['Contact: +33 6 39 98 12 45', 'FR', { hours: [], address: null, phone: '+33 6 39 98 12 45' }],
    [
      'A bakery in Bristol, open Mon-Fri 8am-5pm, Sat 9am-2pm. Phone 0117 496 0123',
      'GB',
      { hours: ['Mon-Fri 8am-5pm', 'Sat 9am-2pm'], address: null, phone: '0117 496 0123' },
    ],
  ] as const)('%s', (prompt, country, expected) => {
    const contact = contactIn(prompt, country);
    expect(hoursIn(prompt)).toEqual(expected.hours);
    expect(contact.address).toBe(expected.address);
    expect(contact.phone).toBe(expected.phone);
    if ('email' in expected) expect(contact.email).toBe(expected.email);
  });

  it('places a German prompt’s facts as facts, never as a service or a heading', async () => {
    const prompt =
      'Wir sind Salon Haarmonie in Leipzig. Leistungen: Damenhaarschnitt, Herrenhaarschnitt und Balayage. Öffnungszeiten: Di–Fr 9–18 Uhr, Sa 8–14 Uhr. ' +
      'Adresse: Karl-Heine-Straße 71, 04229 Leipzig, Telefon 0341 5550 1923.';
    const { files } = await generate(prompt);
    const index = page(files).replace(/\u00a0/g, ' ');
    const headings = [...index.matchAll(/<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/g)].map((m) => m[1]!);
    for (const fact of ['Karl-Heine-Straße 71', '0341 5550 1923', 'Di–Fr 9–18 Uhr']) {
      expect(index).toContain(fact);
      expect(headings.join(' | ')).not.toContain(fact);
    }
    expect(index).toContain('href="tel:034155501923"');
  });
});
