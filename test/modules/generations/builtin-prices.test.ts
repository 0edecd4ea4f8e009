// Services with their prices, in the seven languages: the price stands beside the service's name
// (never inside it), the prices section lists exactly the given items with their prices (no
// placeholder asking for a price that was given, no invented tier), and what is no price (a year,
// a time, a phone number, a postcode, a percentage, a size) stays out.
import { describe, expect, it } from 'vitest';
import { understand } from '../../../src/modules/generations/builtin/brief.ts';
import { BuiltinProvider } from '../../../src/modules/generations/builtin/index.ts';
import { pricesIn } from '../../../src/modules/generations/builtin/prices.ts';
import type { SiteFile } from '../../../src/modules/generations/provider.ts';

const generate = (prompt: string) => new BuiltinProvider().generate({ prompt, model: 'builtin', files: [], signal: new AbortController().signal });
const page = (files: SiteFile[], path = 'index.html') => files.find((f) => f.path === path)!.content as string;

describe('builtin: services with prices', () => {
  it.each([
    ['Friseursalon Schnittwerk in Köln. Leistungen: Damenhaarschnitt ab 39 €, Herrenhaarschnitt ab 25 €, Färben ab 60 €.',
      [['Damenhaarschnitt', 'ab 39 €'], ['Herrenhaarschnitt', 'ab 25 €'], ['Färben', 'ab 60 €']]],
    ['Photographe de mariage à Lyon. Formules : Élopement 900 €, Demi-journée 1 400 €, Journée complète 2.200 €.',
      [['Élopement', '900 €'], ['Demi-journée', '1 400 €'], ['Journée complète', '2.200 €']]],
    ['Dog grooming in Leeds: full groom £45, bath and brush £25, nail trim £10',
      [['Full groom', '£45'], ['Bath and brush', '£25'], ['Nail trim', '£10']]],
    ['Wedding films: Elopement (900 €), Half day (1,400 €), Full day (2,100 €).', [['Elopement', '900 €'], ['Half day', '1,400 €'], ['Full day', '2,100 €']]],
    ['Peluquería en Valencia: corte de pelo desde 18 €, tinte desde 35 €, peinado 20 €.', [['Corte de pelo', 'desde 18 €'], ['Tinte', 'desde 35 €'], ['Peinado', '20 €']]],
    ['Barbiere a Torino: taglio 18 €, barba da 10 €, taglio e barba 25 €.', [['Taglio', '18 €'], ['Barba', 'da 10 €'], ['Taglio e barba', '25 €']]],
    ['Kapper in Leiden: knippen vanaf € 24, baard trimmen € 12, kinderen € 15.', [['Knippen', 'vanaf € 24'], ['Baard trimmen', '€ 12'], ['Kinderen', '€ 15']]],
    ['Cabeleireiro no Porto: corte a partir de 15 €, madeixas 45 €, brushing 12 €.', [['Corte', 'a partir de 15 €'], ['Madeixas', '45 €'], ['Brushing', '12 €']]],
    ['Pilates em São Paulo. Planos: 2x por semana R$ 380/mês, 3x por semana R$ 490/mês.', [['2x por semana', 'R$ 380/mês'], ['3x por semana', 'R$ 490/mês']]],
    ['A B&B in Bath, rooms from £110 a night.', [['Rooms', 'from £110 a night']]],
  ])('%s', (prompt, pairs) => {
    expect(pricesIn(prompt).map((p) => [p.item, p.price])).toEqual(pairs);
  });

  it.each([
    'Family bakery since 1998 in Leeds, open 7:30-16:00, call 0113 496 0123.',
    'Bäckerei in 04229 Leipzig, Mo–Fr 6–18 Uhr.',
    '20% off for students, studios of 50 m² in Lyon.',
  ])('no price in: %s', (prompt) => {
    expect(pricesIn(prompt)).toEqual([]);
  });

  it('names the services without their prices and shows each price beside its service', async () => {
    const prompt = 'Friseursalon Schnittwerk in Köln. Leistungen: Damenhaarschnitt ab 39 €, Herrenhaarschnitt ab 25 €, Färben ab 60 €.';
    expect(understand(prompt).offers).toEqual(['Damenhaarschnitt', 'Herrenhaarschnitt', 'Färben']);
    const html = page((await generate(prompt)).files);
    expect(html).toContain('<h3 data-sw="services.0.title">Damenhaarschnitt</h3><p class="amount">ab 39 €</p>');
    expect(html).not.toMatch(/<h3[^>]*>[^<]*€/);
  });

  it('the prices section lists the given items and prices, asking for none of them', async () => {
    const { files } = await generate('A dog groomer in Leeds with a prices section: full groom £45, bath and brush £25, nail trim £10');
    const html = page(files);
    const section = html.slice(html.indexOf('<section id="pricing"'), html.indexOf('</section>', html.indexOf('<section id="pricing"')));
    expect([...section.matchAll(/<h3 data-sw="pricing\.\d\.title">([^<]+)<\/h3><p class="amount">([^<]+)<\/p>/g)].map((m) => [m[1], m[2]])).toEqual([
      ['Full groom', '£45'], ['Bath and brush', '£25'], ['Nail trim', '£10'],
    ]);
    expect(section).not.toContain('data-sw-todo');
  });
});
