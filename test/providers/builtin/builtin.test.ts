// The builtin model: what it understands from a prompt, the edits it applies, and the care it
// takes with user text and colour contrast.
import { describe, expect, it } from 'vitest';
import { understand } from '../../../src/providers/builtin/brief.ts';
import { applyEdit } from '../../../src/providers/builtin/edit.ts';
import { contrast } from '../../../src/providers/builtin/colors.ts';
import { BuiltinProvider } from '../../../src/providers/builtin/index.ts';
import { palette } from '../../../src/providers/builtin/render.ts';
import { KINDS, kindById } from '../../../src/providers/builtin/kinds.ts';
import { HtmlValidate } from 'html-validate';
import { parse } from 'parse5';
import { replaceElementText } from '../../../src/modules/files/text-edit.ts';
import { GenerationError, type SiteFile } from '../../../src/modules/generations/provider.ts';

const builtin = new BuiltinProvider();
const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });
const generate = (prompt: string, files: SiteFile[] = []) =>
  builtin.generate({ prompt, model: 'builtin', files, signal: new AbortController().signal });
const fileOf = (files: SiteFile[], path: string) => String(files.find((f) => f.path === path)?.content);

describe('understanding a first prompt', () => {
  it.each([
    [
      "A website for Bella's Bakery in Lyon",
      { name: "Bella's Bakery", kind: 'bakery', place: 'Lyon', country: 'FR' },
    ],
    [
      'Acme Plumbing, emergency plumber in Leeds',
      { name: 'Acme Plumbing', kind: 'trades', place: 'Leeds', country: 'GB' },
    ],
    [
      'Make a site for a dentist called "Bright Smile Dental" based in San Diego',
      { name: 'Bright Smile Dental', kind: 'dentist', place: 'San Diego', country: 'US' },
    ],
    [
      'landing page for Northwind, a marketing agency',
      { name: 'Northwind', kind: 'agency', place: null, country: null },
    ],
    ['a cozy coffee shop', { name: 'Café', kind: 'cafe', place: null }],
    ['something for my business', { name: 'Our business', kind: 'business', place: null }],
    // The six prompts of the issue, and the one that used to be called "Business".
    ['A bakery in Bristol', { kind: 'bakery', place: 'Bristol', country: 'GB' }],
    ['A dental clinic in Leeds', { kind: 'dentist', place: 'Leeds', country: 'GB' }],
    ['An Italian restaurant in Manchester', { kind: 'restaurant', place: 'Manchester', country: 'GB' }],
    [
      'A wedding photographer in Edinburgh with a dark theme',
      { kind: 'photographer', place: 'Edinburgh', dark: true },
    ],
    ['A SaaS product-analytics startup', { kind: 'software', place: null, country: null }],
    ['A yoga studio in Brighton', { kind: 'studio', place: 'Brighton' }],
    ['i need a website for my dog grooming business in york', { kind: 'pets', place: 'York', country: 'GB' }],
    ['Sakura Sushi in Osaka', { name: 'Sakura Sushi', kind: 'restaurant', place: 'Osaka', country: 'JP' }],
    ['Boulangerie Étoile, Lyon', { name: 'Boulangerie Étoile', kind: 'bakery', country: 'FR' }],
    ['a bookshop called the reading nook', { name: 'The Reading Nook', kind: 'bookshop', place: null }],
  ])('%s', (prompt, expected) => {
    expect(understand(prompt)).toMatchObject(expected);
  });

  it('names the site after the project when the prompt gives no name', () => {
    expect(understand('i need a website for my dog grooming business in york', 'Pawfect Grooming').name).toBe(
      'Pawfect Grooming',
    );
    expect(understand('Luna Bakery in Bristol', 'Project 7').name).toBe('Luna Bakery');
  });

  it('takes colours, a dark theme, a font and extra sections from the prompt', () => {
    const brief = understand(
      'Photography portfolio for Lena Park in Berlin, dark theme, green accents, serif font, with pricing and a FAQ',
    );
    expect(brief).toMatchObject({
      kind: 'photographer',
      dark: true,
      primary: '#15803d',
      font: 'serif',
      country: 'DE',
    });
    expect(brief.sections).toEqual(['gallery', 'services', 'about', 'pricing', 'faq', 'booking', 'contact']);
  });

  it('takes the facts the prompt gives, and no others', () => {
    const brief = understand(
      'Luna Bakery in Bristol. Call us on 0117 496 0123 or email hello@luna.test. Open Mon-Fri 8am-5pm, Sat 9am-2pm. Sourdough £4.50, croissants £2',
    );
    expect(brief.contact).toEqual({ phone: '0117 496 0123', email: 'hello@luna.test', address: null });
    expect(brief.hours).toEqual(['Mon-Fri 8am-5pm', 'Sat 9am-2pm']);
    expect(brief.prices).toEqual([
      { item: 'Sourdough', price: '£4.50' },
      { item: 'Croissants', price: '£2' },
    ]);
    expect(understand('A bakery in Bristol')).toMatchObject({
      contact: { phone: null, email: null, address: null },
      hours: [],
      prices: [],
    });
  });

  it('uses the prompt’s own words for what a business of no known kind offers', () => {
    expect(
      understand(
        'A site for Tidewater, offering kayak tours, paddleboard hire and river safaris in Cornwall',
      ),
    ).toMatchObject({
      kind: 'business',
      offers: ['Kayak tours', 'Paddleboard hire', 'River safaris'],
      country: 'GB',
    });
  });

  it('turns what the prompt lists into the site’s offers, whatever the kind, and not its pages or forms', () => {
    expect(
      understand(
        'A website for Luna Bakery in Bristol. Show our sourdough, pastries and celebration cakes, and our opening hours.',
      ).offers,
    ).toEqual(['Sourdough', 'Pastries', 'Celebration cakes']);
    expect(
      understand(
        'Northside Motors, a car garage in Newcastle: MOT testing, servicing and repairs for all makes.',
      ).offers,
    ).toEqual(['MOT testing', 'Servicing', 'Repairs']);
    expect(
      understand('Sakura Sushi, a sushi restaurant in Osaka with an omakase counter and a lunch set.').offers,
    ).toEqual(['Omakase counter', 'Lunch set']);
    expect(
      understand(
        'Italian restaurant in Manchester called Trattoria Rosa, with a menu page and a booking form.',
      ).offers,
    ).toBeNull();
    expect(
      understand('A website for our wedding: Emma & James are getting married at Kelburn Castle.').offers,
    ).toBeNull();
  });

  it('makes the pages the prompt asks for', () => {
    expect(
      understand('An Italian restaurant in Manchester with an about page and a menu page').pages,
    ).toEqual(['menu', 'about']);
    expect(understand('A law firm in Leeds. Pages: about, team and contact').pages).toEqual([
      'team',
      'about',
      'contact',
    ]);
  });
});

const visibleText = (html: string) =>
  html
    .replace(/<(script|style|svg|title)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<([a-z0-9]+)[^>]*data-sw-todo[^>]*>[^<]*<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/© \d{4}/, '');

describe('the generated site', () => {
  it('is complete, with the kind’s sections, forms with a honeypot, and its brief', async () => {
    const { files, summary } = await generate("Bella's Bakery in Lyon");
    expect(files.map((f) => f.path).sort()).toEqual([
      '.sitewright/builtin-brief.json',
      '404.html',
      'index.html',
      'styles.css',
    ]);
    const html = fileOf(files, 'index.html');
    expect(html).toContain('<html lang="en">');
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    for (const id of ['services', 'menu', 'about', 'hours', 'contact']) expect(html).toContain(`id="${id}"`);
    expect(html).toContain('action="/_forms/contact" method="post"');
    expect(html).toContain('name="_gotcha"');
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(summary).toContain("Bella's Bakery");
  });

  it('escapes every piece of user text', async () => {
    const { files } = await generate('A site for "<script>alert(1)</script> & Co" in <b>Paris</b>');
    const html = fileOf(files, 'index.html');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
  });

  it.each(KINDS.map((k) => [k.id, k.words[0]!]))(
    '%s: its own sections, valid HTML, and no invented facts',
    async (id, word) => {
      const { files } = await generate(`A ${word} in Leeds called Test Co, with an about page`);
      expect(JSON.parse(fileOf(files, '.sitewright/builtin-brief.json')).kind).toBe(id);
      const pages = files.filter((f) => f.path.endsWith('.html'));
      expect(pages.map((p) => p.path).sort()).toEqual(['404.html', 'about.html', 'index.html']);
      for (const page of pages) {
        const html = String(page.content);
        expect(html.match(/<h1[\s>]/g), page.path).toHaveLength(1);
        const report = await validator.validateString(html, page.path);
        expect(
          report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${m.message}`)),
          page.path,
        ).toEqual([]);
        // No number, rating, review or price the prompt did not give: placeholders ask for them.
        expect(visibleText(html), page.path).not.toMatch(/\d|★|testimonial|rating/i);
        // Every link between the pages resolves.
        for (const [, href = ''] of html.matchAll(/href="([^"#:]+)(?:#[^"]*)?"/g))
          if (href !== '/' && !href.startsWith('data'))
            expect(
              files.some((f) => f.path === href.replace(/^\//, '')),
              `${page.path} -> ${href}`,
            ).toBe(true);
      }
      expect(fileOf(files, 'about.html')).toContain('href="index.html"');
      expect(fileOf(files, 'index.html')).toContain('href="about.html"');
    },
  );

  it('shows the project’s own images in the gallery and keeps them', async () => {
    const photo = { path: 'photos/wedding-cake.jpg', content: Buffer.from([0xff, 0xd8, 0xff]) };
    const { files } = await generate('A bakery in Bristol with a gallery', [photo]);
    const html = fileOf(files, 'index.html');
    expect(html).toContain(
      '<img data-sw-picture="gallery.0" src="photos/wedding-cake.jpg" alt="Wedding cake" loading="lazy">',
    );
    expect(html).not.toContain('Replace with one of your photos');
    expect(files).toContainEqual(photo);
  });

  it('writes prices in the country’s currency, and none where the country is unknown', async () => {
    const uk = await generate('A hair salon in Leeds, haircuts for 25');
    expect(fileOf(uk.files, 'index.html')).toContain('£25');
    const fr = await generate('A hair salon in Lyon, haircuts for 25');
    expect(fileOf(fr.files, 'index.html')).toContain('25 €');
    const nowhere = await generate('A hair salon called Snip, haircuts for 25');
    const text = visibleText(fileOf(nowhere.files, 'index.html'));
    expect(text).toContain('25');
    expect(text).not.toMatch(/[£$€¥]/);
  });

  it.each(
    KINDS.flatMap((k) =>
      [false, true].flatMap((dark) =>
        [null, '#fde047', '#1e3a8a', '#ffffff', '#111111'].map(
          (primary) =>
            [`${k.id} ${dark ? 'dark' : 'light'} ${primary ?? 'own colour'}`, k.id, dark, primary] as const,
        ),
      ),
    ),
  )('keeps WCAG AA contrast: %s', (_what, kind, dark, primary) => {
    const brief = { ...understand('x'), kind, dark, primary };
    const p = palette(brief, kindById(kind));
    for (const [fg, bg] of [
      [p.onPrimary, p.primary],
      [p.link, p.bg],
      [p.link, p.surface],
      [p.text, p.bg],
      [p.text, p.surface],
      [p.muted, p.surface],
      [p.muted, p.bg],
      [p.onHero, p.heroBg],
      [p.todoText, p.todoBg],
    ] as const) {
      expect(contrast(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    // A button stands out from the page it is on (WCAG 1.4.11).
    expect(contrast(p.primary, p.bg)).toBeGreaterThanOrEqual(3);
  });
});

describe('follow-up prompts edit the site', () => {
  it('renames, recolours, adds and removes sections, changes the headline', async () => {
    const first = await generate("Bella's Bakery in Lyon");
    const renamed = await generate('Rename it to Maison Bella', first.files);
    expect(fileOf(renamed.files, 'index.html')).toContain('Maison Bella');
    expect(renamed.summary).toContain('renamed to Maison Bella');

    const green = await generate('Make it green and use a dark theme', renamed.files);
    expect(JSON.parse(fileOf(green.files, '.sitewright/builtin-brief.json'))).toMatchObject({
      name: 'Maison Bella',
      primary: '#15803d',
      dark: true,
    });

    const sections = await generate('Add a pricing section and remove the opening hours', green.files);
    const html = fileOf(sections.files, 'index.html');
    expect(html).toContain('id="pricing"');
    expect(html).not.toContain('id="hours"');
    expect(html).toContain('id="about"');

    const headline = await generate('Change the headline to "Bread worth waking up for"', sections.files);
    expect(fileOf(headline.files, 'index.html')).toContain(
      '<h1 data-sw="hero.title" id="hero-title">Bread worth waking up for</h1>',
    );
  });

  it('edits a site whose brief is still the old root site.json, moving the brief out of the served files', async () => {
    const first = await generate("Bella's Bakery in Lyon");
    const legacy = first.files.map((f) =>
      f.path === '.sitewright/builtin-brief.json' ? { ...f, path: 'site.json' } : f,
    );
    const renamed = await generate('Rename it to Maison Bella', legacy);
    expect(renamed.files.map((f) => f.path).sort()).toEqual([
      '.sitewright/builtin-brief.json',
      '404.html',
      'index.html',
      'styles.css',
    ]);
    expect(JSON.parse(fileOf(renamed.files, '.sitewright/builtin-brief.json'))).toMatchObject({
      name: 'Maison Bella',
      kind: 'bakery',
    });
  });

  it("keeps a site's own site.json that is not its brief", async () => {
    const own = { path: 'site.json', content: '{"menu": ["home"]}' };
    const { files } = await generate('A site for Acme Plumbing in Leeds', [own]);
    expect(files).toContainEqual(own);
    const edited = await generate('Make it green', files);
    expect(edited.files).toContainEqual(own);
  });

  it('fails clearly when it does not understand the change, in one sentence saying what to do instead', async () => {
    const first = await generate('Acme Plumbing in Leeds');
    await expect(generate('Make the vibe more whimsical', first.files)).rejects.toThrow(GenerationError);
    await expect(generate('Make the vibe more whimsical', first.files)).rejects.toThrow(
      /^[^.]*nothing changed: edit a text in place in the preview, or connect an AI model in Settings[^.]*\.$/,
    );
  });

  it('rebuilds a site it did not make from the prompt, keeping files it does not own', async () => {
    const logo = Buffer.from([1, 2, 3]);
    const { files } = await generate('A site for Acme Plumbing in Leeds', [
      { path: 'index.html', content: '<p>old</p>' },
      { path: 'logo.png', content: logo },
    ]);
    expect(files.find((f) => f.path === 'logo.png')?.content).toEqual(logo);
    expect(fileOf(files, 'index.html')).toContain('Acme Plumbing');
  });
});

describe('follow-up wording', () => {
  const base = understand('A website for Old Name Bakery in Paris');
  it.each([
    ['Rename it to Moonlight Bakery and make it green', 'Moonlight Bakery'],
    ['Change the name to Dr. Smith Dental', 'Dr. Smith Dental'],
    ['The business is now called Blue Door Cafe', 'Blue Door Cafe'],
    ['rename it to "Bella\'s Bakery".', "Bella's Bakery"],
    ['Call it Acme Plumbing, and add pricing', 'Acme Plumbing'],
    ["Rename to Joe's Diner. Also add an FAQ", "Joe's Diner"],
  ])('takes the name from %j', (prompt, name) => {
    expect(applyEdit(base, prompt).brief.name).toBe(name);
  });

  it('applies the rest of the sentence too', () => {
    expect(applyEdit(base, 'Rename it to Moonlight Bakery and make it green').changes).toEqual([
      'renamed to Moonlight Bakery',
      expect.stringMatching(/^brand colour #/),
    ]);
    expect(applyEdit(base, "Rename to Joe's Diner. Also add an FAQ").brief.sections).toContain('faq');
    expect(applyEdit(base, 'Can you make the site red?').changes).toEqual([
      expect.stringMatching(/^brand colour #/),
    ]);
  });
});

describe('follow-ups on a site builtin did not make', () => {
  const own = (content: string) => [
    { path: 'index.html', content },
    {
      path: 'about/index.html',
      content: '<html><head><title>Acme</title></head><body><p>About Acme</p></body></html>',
    },
    { path: 'logo.png', content: Buffer.from([1, 2, 3]) },
  ];
  const home =
    '<!doctype html><html><head><title>Acme</title></head><body><h1 class="big">Welcome</h1><p>Acme fixes pipes.</p></body></html>';

  it('edits the headline and the name in its HTML instead of starting over', async () => {
    const { files, summary } = await generate(
      'Rename it to Acme Plumbing and set the headline to "Pipes fixed today"',
      own(home),
    );
    expect(summary).toBe('Edited the site: renamed to Acme Plumbing, new headline');
    expect(fileOf(files, 'index.html')).toBe(
      '<!doctype html><html><head><title>Acme Plumbing</title></head><body><h1 class="big">Pipes fixed today</h1><p>Acme Plumbing fixes pipes.</p></body></html>',
    );
    expect(fileOf(files, 'about/index.html')).toContain('<p>About Acme Plumbing</p>');
    expect(files.map((f) => f.path).sort()).toEqual(['about/index.html', 'index.html', 'logo.png']);
  });

  it('escapes what it writes', async () => {
    const { files } = await generate('headline: "<script>alert(1)</script>"', own(home));
    expect(fileOf(files, 'index.html')).toContain(
      '<h1 class="big">&#60;script&#62;alert(1)&#60;/script&#62;</h1>',
    );
  });

  it('still builds a new site from a prompt that is no edit it knows, keeping other files', async () => {
    const { files } = await generate('A site for Bella Bakery in Lyon', own(home));
    expect(fileOf(files, 'index.html')).toContain('Bella Bakery');
    expect(files.find((f) => f.path === 'logo.png')).toBeDefined();
  });
});

/** The selector the builder's preview computes for the element with `data-sw="<key>"`. */
function selectorOf(html: string, key: string): string {
  type El = { tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: El[] };
  const find = (node: El, path: string[]): string[] | undefined => {
    const children = (node.childNodes ?? []).filter((c) => c.tagName);
    for (const [i, child] of children.entries()) {
      const here = [...path, `${child.tagName}:nth-child(${i + 1})`];
      if (child.attrs?.some((a) => a.name === 'data-sw' && a.value === key)) return here;
      const deeper = find(child, here);
      if (deeper) return deeper;
    }
    return undefined;
  };
  const found = find(parse(html) as El, []);
  if (!found) throw new Error(`no element ${key}`);
  return ['html', ...found.slice(1)].join(' > ');
}

/** Every element of the page's body the builder lets a person edit in place (text and line breaks only). */
function textElementsOf(html: string): { selector: string; tag: string; key: string | undefined }[] {
  type El = {
    tagName?: string;
    nodeName: string;
    value?: string;
    attrs?: { name: string; value: string }[];
    childNodes?: El[];
  };
  const found: { selector: string; tag: string; key: string | undefined }[] = [];
  const walk = (node: El, path: string[], inBody: boolean) => {
    for (const [i, child] of (node.childNodes ?? []).filter((c) => c.tagName).entries()) {
      const here = [...path, `${child.tagName}:nth-child(${i + 1})`];
      const body = inBody || child.tagName === 'body';
      const kids = child.childNodes ?? [];
      const textOnly =
        kids.length > 0 &&
        kids.every((n) => n.nodeName === '#text' || n.nodeName === 'br') &&
        kids.some((n) => n.value?.trim());
      if (body && textOnly)
        found.push({
          selector: ['html', ...here.slice(1)].join(' > '),
          tag: child.tagName!,
          key: child.attrs?.find((a) => a.name === 'data-sw')?.value,
        });
      else walk(child, here, body);
    }
  };
  walk(parse(html) as El, [], false);
  return found;
}

describe('follow-ups keep what the person did', () => {
  const edit = (files: SiteFile[], key: string, value: string) =>
    files.map((f) =>
      f.path === 'index.html'
        ? { ...f, content: replaceElementText(String(f.content), selectorOf(String(f.content), key), value) }
        : f,
    );

  it('keeps texts changed in the builder, placeholders filled in included, when the site is rendered again', async () => {
    const first = await generate('A bakery in Bristol called Luna Bakery');
    expect(fileOf(first.files, 'index.html')).toContain('data-sw="about.story" class="todo" data-sw-todo');
    let files = edit(first.files, 'hero.title', 'Bread worth waking up for');
    files = edit(files, 'about.story', 'Started by two friends in 2019.');
    expect(fileOf(files, 'index.html')).not.toContain('data-sw="about.story" class="todo"');

    const green = await generate('Make it green', files);
    const html = fileOf(green.files, 'index.html');
    expect(html).toContain('<h1 data-sw="hero.title" id="hero-title">Bread worth waking up for</h1>');
    expect(html).toContain('<p data-sw="about.story">Started by two friends in 2019.</p>');
    expect(JSON.parse(fileOf(green.files, '.sitewright/builtin-brief.json'))).toMatchObject({
      primary: '#15803d',
      texts: { 'hero.title': 'Bread worth waking up for', 'about.story': 'Started by two friends in 2019.' },
    });
    // The next edit needs nothing read back: the brief has them.
    const serif = await generate('Use a serif font', green.files);
    expect(fileOf(serif.files, 'index.html')).toContain('Started by two friends in 2019.');
    expect(fileOf(serif.files, 'styles.css')).toContain('Georgia');
  });

  it('never rebuilds over a page changed in the code editor, and says what it can still do', async () => {
    const first = await generate('A bakery in Bristol called Luna Bakery');
    const handMade = first.files.map((f) =>
      f.path === 'index.html'
        ? {
            ...f,
            content: String(f.content).replace('</main>', '<p class="mine">My own paragraph</p></main>'),
          }
        : f,
    );
    await expect(generate('Add a gallery', handMade)).rejects.toThrow(
      /index\.html was changed in the code editor/,
    );
    const renamed = await generate('Rename it to Sol Bakery', handMade);
    expect(fileOf(renamed.files, 'index.html')).toContain('<p class="mine">My own paragraph</p>');
    expect(fileOf(renamed.files, 'index.html')).toContain('Sol Bakery');
  });

  it('never stops a later prompt after an in-place edit, whatever text-only element it was made on, and keeps the edit', async () => {
    const first = await generate(
      'A bakery in Bristol called Luna Bakery with an about page, a gallery and a FAQ',
    );
    const targets = first.files
      .filter((f) => f.path.endsWith('.html'))
      .flatMap((f) => textElementsOf(String(f.content)).map((t) => ({ page: f.path, ...t })));
    // Keyed texts (hero.text feeds the page's description too), navigation links, labels, buttons, the footer.
    expect(targets.some((t) => t.key === 'hero.text')).toBe(true);
    expect(targets.filter((t) => !t.key).map((t) => t.tag)).toEqual(
      expect.arrayContaining(['a', 'label', 'button', 'p']),
    );
    for (const target of targets) {
      const words = `Our own words for ${target.tag} & <co>`;
      const files = first.files.map((f) =>
        f.path === target.page
          ? { ...f, content: replaceElementText(String(f.content), target.selector, words) }
          : f,
      );
      const green = await generate('Make it green', files);
      expect(fileOf(green.files, target.page), `${target.page} ${target.selector}`).toContain(
        'Our own words for ' + target.tag + ' &amp; &lt;co&gt;',
      );
      expect(fileOf(green.files, 'styles.css')).toContain('#15803d');
    }
  });

  it('keeps a replaced text through further edits, and a second change to it', async () => {
    const first = await generate('A dental clinic in Leeds');
    const index = () => String(first.files.find((f) => f.path === 'index.html')!.content);
    const submit = textElementsOf(index()).find((t) => t.tag === 'button')!;
    const edit = (files: SiteFile[], text: string) =>
      files.map((f) =>
        f.path === 'index.html'
          ? {
              ...f,
              content: replaceElementText(
                String(f.content),
                textElementsOf(String(f.content)).find((t) => t.tag === 'button')!.selector,
                text,
              ),
            }
          : f,
      );
    expect(submit).toBeDefined();
    const once = await generate('Add a gallery', edit(first.files, 'Request a visit'));
    expect(fileOf(once.files, 'index.html')).toContain('>Request a visit</button>');
    const twice = await generate('Use a serif font', edit(once.files, 'Ask for a visit'));
    expect(fileOf(twice.files, 'index.html')).toContain('>Ask for a visit</button>');
    expect(fileOf(twice.files, 'index.html')).not.toContain('Request a visit');
    expect(JSON.parse(fileOf(twice.files, '.sitewright/builtin-brief.json')).replaced).toHaveLength(1);
  });

  it('still stops at a change of the stylesheet or of an attribute made in the code editor', async () => {
    const first = await generate('A bakery in Bristol called Luna Bakery');
    const css = first.files.map((f) =>
      f.path === 'styles.css' ? { ...f, content: String(f.content) + '\n.mine { color: red; }\n' } : f,
    );
    await expect(generate('Add a gallery', css)).rejects.toThrow(
      /styles\.css was changed in the code editor/,
    );
    const attribute = first.files.map((f) =>
      f.path === 'index.html'
        ? { ...f, content: String(f.content).replace('class="lead"', 'class="lead big"') }
        : f,
    );
    await expect(generate('Add a gallery', attribute)).rejects.toThrow(
      /index\.html was changed in the code editor/,
    );
  });

  it('adds and removes pages, facts, fonts and spacing', async () => {
    const first = await generate('A bakery in Bristol called Luna Bakery');
    const about = await generate('Add an about page', first.files);
    expect(about.files.map((f) => f.path)).toContain('about.html');
    expect(fileOf(about.files, 'index.html')).toContain('href="about.html"');
    expect(fileOf(about.files, 'index.html')).not.toContain('id="about"');

    const facts = await generate(
      'Our phone number is 0117 496 0000. Open Mon-Sat 8am-4pm. Sourdough £4',
      about.files,
    );
    const html = fileOf(facts.files, 'index.html');
    expect(html).toContain('<a href="tel:01174960000">0117\u00a0496\u00a00000</a>');
    expect(html).not.toContain('Add your phone number');
    expect(html).toContain('Mon-Sat 8am-4pm');
    expect(html).toMatch(/Sourdough<\/span> <span class="amount">£4</);

    const back = await generate(
      'Put the about section back on the home page and make it more compact',
      facts.files,
    );
    expect(back.files.map((f) => f.path)).not.toContain('about.html');
    expect(fileOf(back.files, 'index.html')).toContain('id="about"');
    expect(fileOf(back.files, 'styles.css')).toContain('--section: clamp(2.25rem');
    expect(back.summary).toContain('about back on the home page');
    expect(back.summary).toContain('compact layout');

    const moved = await generate('We moved to Lyon', back.files);
    expect(JSON.parse(fileOf(moved.files, '.sitewright/builtin-brief.json'))).toMatchObject({
      place: 'Lyon',
      country: 'FR',
    });
  });
});
