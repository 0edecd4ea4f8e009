// Services with their prices, in the seven languages: the price stands beside the service's name
// (never inside it), the prices section lists exactly the given items with their prices (no
// placeholder asking for a price that was given, no invented tier), and what is no price (a year,
// a time, a phone number, a postcode, a percentage, a size) stays out.
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { understand } from '../../../src/providers/builtin/brief.ts';
import { BuiltinProvider } from '../../../src/providers/builtin/index.ts';
import { pricesIn } from '../../../src/providers/builtin/prices.ts';
import type { SiteFile } from '../../../src/modules/generations/provider.ts';

const generate = (prompt: string) =>
  new BuiltinProvider().generate({
    prompt,
    model: 'builtin',
    files: [],
    signal: new AbortController().signal,
  });
const page = (files: SiteFile[], path = 'index.html') =>
  files.find((f) => f.path === path)!.content as string;

describe('builtin: services with prices', () => {
  it.each([
    [
      'Friseursalon Schnittwerk in Köln. Leistungen: Damenhaarschnitt ab 39 €, Herrenhaarschnitt ab 25 €, Färben ab 60 €.',
      [
        ['Damenhaarschnitt', 'ab 39 €'],
        ['Herrenhaarschnitt', 'ab 25 €'],
        ['Färben', 'ab 60 €'],
      ],
    ],
    [
      'Photographe de mariage à Lyon. Formules : Élopement 900 €, Demi-journée 1 400 €, Journée complète 2.200 €.',
      [
        ['Élopement', '900 €'],
        ['Demi-journée', '1 400 €'],
        ['Journée complète', '2.200 €'],
      ],
    ],
    [
      'Dog grooming in Leeds: full groom £45, bath and brush £25, nail trim £10',
      [
        ['Full groom', '£45'],
        ['Bath and brush', '£25'],
        ['Nail trim', '£10'],
      ],
    ],
    [
      'Wedding films: Elopement (900 €), Half day (1,400 €), Full day (2,100 €).',
      [
        ['Elopement', '900 €'],
        ['Half day', '1,400 €'],
        ['Full day', '2,100 €'],
      ],
    ],
    [
      'Peluquería en Valencia: corte de pelo desde 18 €, tinte desde 35 €, peinado 20 €.',
      [
        ['Corte de pelo', 'desde 18 €'],
        ['Tinte', 'desde 35 €'],
        ['Peinado', '20 €'],
      ],
    ],
    [
      'Barbiere a Torino: taglio 18 €, barba da 10 €, taglio e barba 25 €.',
      [
        ['Taglio', '18 €'],
        ['Barba', 'da 10 €'],
        ['Taglio e barba', '25 €'],
      ],
    ],
    [
      'Kapper in Leiden: knippen vanaf € 24, baard trimmen € 12, kinderen € 15.',
      [
        ['Knippen', 'vanaf € 24'],
        ['Baard trimmen', '€ 12'],
        ['Kinderen', '€ 15'],
      ],
    ],
    [
      'Cabeleireiro no Porto: corte a partir de 15 €, madeixas 45 €, brushing 12 €.',
      [
        ['Corte', 'a partir de 15 €'],
        ['Madeixas', '45 €'],
        ['Brushing', '12 €'],
      ],
    ],
    [
      'Pilates em São Paulo. Planos: 2x por semana R$ 380/mês, 3x por semana R$ 490/mês.',
      [
        ['2x por semana', 'R$ 380/mês'],
        ['3x por semana', 'R$ 490/mês'],
      ],
    ],
    ['A B&B in Bath, rooms from £110 a night.', [['Rooms', 'from £110 a night']]],
    [
      'Pizzeria a Napoli: Margherita 6,00 €, fritti (frittatina, montanara) da 3 €.',
      [
        ['Margherita', '6,00 €'],
        ['Fritti (frittatina, montanara)', 'da 3 €'],
      ],
    ],
  ])('%s', (prompt, pairs) => {
    expect(pricesIn(prompt).map((p) => [p.item, p.price])).toEqual(pairs);
  });

  it.each([
    'Family bakery since 1998 in Leeds, open 7:30-16:00, call 0113 496 0123.',
    'Bäckerei in 04229 Leipzig, Mo–Fr 6–18 Uhr.',
    '20% off for students, studios of 50 m² in Lyon.',
    'find us at 2 lock side, hebden bridge. a table for 4 people.',
  ])('no price in: %s', (prompt) => {
    expect(pricesIn(prompt)).toEqual([]);
  });

  it('names the services without their prices and shows each price beside its service', async () => {
    const prompt =
      'Friseursalon Schnittwerk in Köln. Leistungen: Damenhaarschnitt ab 39 €, Herrenhaarschnitt ab 25 €, Färben ab 60 €.';
    expect(understand(prompt).offers).toEqual(['Damenhaarschnitt', 'Herrenhaarschnitt', 'Färben']);
    const html = page((await generate(prompt)).files);
    expect(html).toContain(
      '<h3 data-sw="services.0.title">Damenhaarschnitt</h3><p class="amount">ab 39 €</p>',
    );
    expect(html).not.toMatch(/<h3[^>]*>[^<]*€/);
  });

  it('the prices section lists the given items and prices, asking for none of them', async () => {
    const { files } = await generate(
      'A dog groomer in Leeds with a prices section: full groom £45, bath and brush £25, nail trim £10',
    );
    const html = page(files);
    const section = html.slice(
      html.indexOf('<section id="pricing"'),
      html.indexOf('</section>', html.indexOf('<section id="pricing"')),
    );
    expect(
      [
        ...section.matchAll(/<h3 data-sw="pricing\.\d\.title">([^<]+)<\/h3><p class="amount">([^<]+)<\/p>/g),
      ].map((m) => [m[1], m[2]]),
    ).toEqual([
      ['Full groom', '£45'],
      ['Bath and brush', '£25'],
      ['Nail trim', '£10'],
    ]);
    expect(section).not.toContain('data-sw-todo');
  });
});

/** The services (or features) cards of a page, as [title, price shown under it or null]. */
const cardsOf = (html: string, id = 'services') =>
  [
    ...html.matchAll(
      new RegExp(`<h3 data-sw="${id}\\.\\d+\\.title">([^<]*)</h3>(?:<p class="amount">([^<]*)</p>)?`, 'g'),
    ),
  ].map((m) => [m[1], m[2] ?? null]);
const sectionOf = (html: string, id: string) => {
  const at = html.indexOf(`<section id="${id}"`);
  return at === -1 ? '' : html.slice(at, html.indexOf('</section>', at));
};
const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });

// One prompt a language: the offers are the priced items' names, each paired with its price.
const PRICED: [string, string, [string, string][]][] = [
  [
    'en',
    'Dog grooming in Leeds offering full groom from £30, bath and brush £25 and nail trim £10.',
    [
      ['Full groom', 'from £30'],
      ['Bath and brush', '£25'],
      ['Nail trim', '£10'],
    ],
  ],
  [
    'en',
    'Wedding photographer in Bath. Packages: Elopement (900 €), Half day (1,400 €), Full day (2,100 €).',
    [
      ['Elopement', '900 €'],
      ['Half day', '1,400 €'],
      ['Full day', '2,100 €'],
    ],
  ],
  [
    'de',
    'Massagepraxis in Berlin seit 2005: Rückenmassage 39,50 €, Hot Stone 59,90 €, Fußreflexzonen ab 29,50 €.',
    [
      ['Rückenmassage', '39,50 €'],
      ['Hot Stone', '59,90 €'],
      ['Fußreflexzonen', 'ab 29,50 €'],
    ],
  ],
  [
    'de',
    'Nagelstudio in Hamburg: Maniküre 25 €, Pediküre 35 €, Gel-Nägel ab 45 €. Mo-Fr 9-18 Uhr, Tel. 040 1234567.',
    [
      ['Maniküre', '25 €'],
      ['Pediküre', '35 €'],
      ['Gel-Nägel', 'ab 45 €'],
    ],
  ],
  [
    'fr',
    'Photographe de mariage à Lyon. Formules : Élopement 900 €, Demi-journée 1 400 €, Journée complète 2 200 €.',
    [
      ['Élopement', '900 €'],
      ['Demi-journée', '1 400 €'],
      ['Journée complète', '2 200 €'],
    ],
  ],
  [
    'fr',
    'Photographe de mariage à Lyon. Formules : Élopement à partir de 900 €, Demi-journée 1.400 €, Journée complète 2.200 €.',
    [
      ['Élopement', 'à partir de 900 €'],
      ['Demi-journée', '1.400 €'],
      ['Journée complète', '2.200 €'],
    ],
  ],
  [
    'es',
    'Peluquería Rizos en Valencia. Servicios: corte de pelo desde 25 €, tinte 40 €, peinado 20 €.',
    [
      ['Corte de pelo', 'desde 25 €'],
      ['Tinte', '40 €'],
      ['Peinado', '20 €'],
    ],
  ],
  [
    'it',
    'Parrucchiere a Milano. Servizi: taglio da 30 €, colore 50 €, piega 20 €.',
    [
      ['Taglio', 'da 30 €'],
      ['Colore', '50 €'],
      ['Piega', '20 €'],
    ],
  ],
  [
    'nl',
    'Kapsalon in Utrecht. Diensten: knippen vanaf € 45, kleuren € 60, föhnen € 20.',
    [
      ['Knippen', 'vanaf € 45'],
      ['Kleuren', '€ 60'],
      ['Föhnen', '€ 20'],
    ],
  ],
  [
    'pt',
    'Cabeleireiro em Lisboa. Serviços: corte a partir de 30 €, coloração 50 €, brushing 20 €.',
    [
      ['Corte', 'a partir de 30 €'],
      ['Coloração', '50 €'],
      ['Brushing', '20 €'],
    ],
  ],
];

describe('builtin: offers named with their prices', () => {
  it.each(PRICED)('%s: %s', (_language, prompt, pairs) => {
    const brief = understand(prompt);
    expect(brief.offers).toEqual(pairs.map(([item]) => item));
    expect(brief.prices).toEqual(pairs.map(([item, price]) => ({ item, price })));
    // No amount, bracket or stray piece of a number in an offer's name.
    for (const offer of brief.offers!) expect(offer).not.toMatch(/[\d()€£$]/);
  });

  it.each(PRICED)(
    '%s: shows each price under its service, and lists them in the prices section: %s',
    async (_language, prompt, pairs) => {
      const { files } = await generate(`${prompt} With a prices section.`);
      const html = page(files);
      expect(cardsOf(html)).toEqual(pairs);
      expect(html).not.toMatch(/<h3[^>]*>[^<]*(?:\d|€|£)/);
      const pricing = sectionOf(html, 'pricing');
      expect(cardsOf(pricing, 'pricing')).toEqual(pairs);
      expect(pricing).not.toContain('data-sw-todo');
      for (const f of files.filter((f) => f.path.endsWith('.html'))) {
        const report = await validator.validateString(f.content as string, f.path);
        expect(
          report.valid,
          JSON.stringify(report.results.flatMap((r) => r.messages.map((m) => m.message))),
        ).toBe(true);
      }
    },
  );

  it('gives each offer its own price, not that of an offer whose name is part of its own', async () => {
    const prompt =
      'Un sito per il mio barbiere a Torino. Servizi: taglio 18 €, barba da 10 €, taglio e barba 25 €.';
    const pairs = [
      ['Taglio', '18 €'],
      ['Barba', 'da 10 €'],
      ['Taglio e barba', '25 €'],
    ];
    const html = page((await generate(prompt)).files);
    expect(cardsOf(html)).toEqual(pairs);
    expect(cardsOf(sectionOf(html, 'pricing'), 'pricing')).toEqual(pairs);
  });

  it('writes a bare price in the currency of the country, and no price where none was given', async () => {
    const html = page(
      (
        await generate(
          'Dog walker in Leeds offering solo walks, group walks and puppy visits. Solo walks cost 15, group walks cost 10.',
        )
      ).files,
    );
    expect(cardsOf(html)).toEqual([
      ['Solo walks', '£15'],
      ['Group walks', '£10'],
      ['Puppy visits', null],
    ]);
    expect(cardsOf(sectionOf(html, 'pricing'), 'pricing')).toEqual([
      ['Solo walks', '£15'],
      ['Group walks', '£10'],
    ]);
  });

  it('escapes an item’s name and keeps its key', async () => {
    const html = page(
      (await generate('Salon in Leeds with a prices section. Prices: wash & cut £40, colour £60')).files,
    );
    expect(html).toContain('<h3 data-sw="services.0.title">Wash &amp; cut</h3><p class="amount">£40</p>');
    expect(html).toContain('<h3 data-sw="pricing.0.title">Wash &amp; cut</h3><p class="amount">£40</p>');
  });

  it('without given prices, the prices section still asks for the kind’s own', async () => {
    const pricing = sectionOf(page((await generate('A yoga studio in Bristol')).files), 'pricing');
    expect(cardsOf(pricing, 'pricing')).toEqual([
      ['Drop-in class', null],
      ['Class pass', null],
      ['Monthly membership', null],
    ]);
    expect(pricing).toContain('data-sw="pricing.0.price" class="todo" data-sw-todo');
  });

  it.each([
    'We open at 9 and close at 18. Founded in 2005.',
    'A restaurant in Rome, tables for 4, open at 7:30, booking for 20 people.',
    'Bäckerei in 04229 Leipzig, Mo–Fr 9-18 Uhr, seit 1998, Tel. 0341 1234567.',
    'Boulangerie à Lyon depuis 1998, ouverte de 7h30 à 19h, 69003 Lyon, tél. 04 78 00 00 00.',
    'Panadería en Madrid desde 1998, abierta de 8 a 20 h, 28001 Madrid.',
    'Gym in Berlin: 500 m² Trainingsfläche, 24/7 geöffnet, 10% Rabatt für Studenten.',
    'Yoga in Utrecht, lessen van 60 minuten, sinds 2010, 3511 AB Utrecht.',
    'Dentist in Leeds, call 0113 496 0000 or +44 113 496 0000, LS1 4AP.',
  ])('no price in: %s', (prompt) => {
    expect(pricesIn(prompt)).toEqual([]);
  });
});
