// Pages a prompt asks for, in the seven languages and the ways people ask: "X page", "pages for
// X, Y and Z", compounds ("Teamseite", "contactpagina"), "page X" / "página de X", "its own page",
// and the short items of a list that asks for pages; never the site itself ("a landing page")
// nor a form ("a menu page and a booking form").
import { describe, expect, it } from 'vitest';
import { pagesMentioned } from '../../../src/providers/builtin/asked.ts';
import { understand } from '../../../src/providers/builtin/brief.ts';

describe('builtin: the pages a prompt asks for', () => {
  it.each([
    ['A bakery site with an about page and a gallery page', ['gallery', 'about']],
    ['Please create separate pages for Menu, Events and Contact.', ['menu', 'events', 'contact']],
    ['Pages: about, pricing, FAQ', ['pricing', 'about', 'faq']],
    ['Wir möchten eine Preisseite, eine Teamseite und eine FAQ-Seite.', ['pricing', 'team', 'faq']],
    ['Bitte eine eigene Seite für die Speisekarte und eine für Reservierungen.', ['menu', 'booking']],
    ['Il nous faut une page tarifs et une page contact.', ['pricing', 'contact']],
    ['Je voudrais la galerie sur une page à part.', ['gallery']],
    ['Necesito una página de servicios y otra de contacto.', ['services', 'contact']],
    ['Con páginas de equipo, precios y preguntas frecuentes.', ['pricing', 'team', 'faq']],
    ['Vorrei una pagina galleria e una pagina prenotazioni.', ['gallery', 'booking']],
    ['Graag een teampagina, een prijzenpagina en een FAQ.', ['pricing', 'team', 'faq']],
    ['Queremos o menu numa página própria e uma página de contacto.', ['menu', 'contact']],
    ['Want a separate menu page and a page for events (tastings, pop-ups).', ['menu', 'events']],
    [
      'Could we have a home page, a page about the team, a fees page and a contact page?',
      ['pricing', 'team', 'contact'],
    ],
    ['On voudrait une page pour la carte et une page pour réserver.', ['menu', 'booking']],
    ['Con una galería de fotos y una página para reservar.', ['gallery', 'booking']],
  ])('%s', (prompt, pages) => {
    expect(pagesMentioned(prompt)).toEqual(pages);
  });

  it.each([
    'A landing page for Metricly, with pricing and an FAQ',
    'A one-page site for a plumber in Leeds',
    'A homepage for our café with opening hours',
    'Just a single page please, with our menu',
    'A restaurant in Leeds with a menu and a booking form on the home page',
  ])('no page of its own: %s', (prompt) => {
    expect(pagesMentioned(prompt)).toEqual([]);
  });

  it('a services page stays when the prompt says what the business does not do', () => {
    const brief = understand(
      'Heating engineers in Bristol. Separate pages for Services and Contact. No emergency service at weekends.',
    );
    expect(brief.pages).toEqual(['services', 'contact']);
  });
});
