// The builtin model: what it understands from a prompt, the edits it applies, and the care it
// takes with user text and colour contrast.
import { describe, expect, it } from 'vitest';
import { understand } from '../../../src/modules/generations/builtin/brief.ts';
import { applyEdit } from '../../../src/modules/generations/builtin/edit.ts';
import { contrast } from '../../../src/modules/generations/builtin/colors.ts';
import { BuiltinProvider } from '../../../src/modules/generations/builtin/index.ts';
import { palette } from '../../../src/modules/generations/builtin/render.ts';
import { kindById } from '../../../src/modules/generations/builtin/kinds.ts';
import { GenerationError, type SiteFile } from '../../../src/modules/generations/provider.ts';

const builtin = new BuiltinProvider();
const generate = (prompt: string, files: SiteFile[] = []) => builtin.generate({ prompt, model: 'builtin', files, signal: new AbortController().signal });
const fileOf = (files: SiteFile[], path: string) => String(files.find((f) => f.path === path)?.content);

describe('understanding a first prompt', () => {
  it.each([
    ["A website for Bella's Bakery in Lyon", { name: "Bella's Bakery", kind: 'bakery', place: 'Lyon' }],
    ['Acme Plumbing, emergency plumber in Leeds', { name: 'Acme Plumbing', kind: 'plumber', place: 'Leeds' }],
    ['Make a site for a dentist called "Bright Smile Dental" based in San Diego', { name: 'Bright Smile Dental', kind: 'dentist', place: 'San Diego' }],
    ['landing page for Northwind, a marketing agency', { name: 'Northwind', kind: 'agency', place: null }],
    ['a cozy coffee shop', { name: 'Café', kind: 'cafe', place: null }],
    ['something for my business', { name: 'Business', kind: 'business', place: null }],
  ])('%s', (prompt, expected) => {
    expect(understand(prompt)).toMatchObject(expected);
  });

  it('takes colours, a dark theme and extra sections from the prompt', () => {
    const brief = understand('Photography portfolio for Lena Park in Berlin, dark theme, green accents, with pricing and a FAQ');
    expect(brief).toMatchObject({ kind: 'photographer', dark: true, primary: '#15803d' });
    expect(brief.sections).toEqual(['services', 'about', 'testimonials', 'pricing', 'faq', 'contact']);
  });
});

describe('the generated site', () => {
  it('is complete, with the sections, a contact form with a honeypot, and its brief', async () => {
    const { files, summary } = await generate("Bella's Bakery in Lyon");
    expect(files.map((f) => f.path).sort()).toEqual(['.sitewright/builtin-brief.json', '404.html', 'index.html', 'styles.css']);
    const html = fileOf(files, 'index.html');
    expect(html).toContain('<html lang="en">');
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    for (const id of ['services', 'about', 'testimonials', 'contact']) expect(html).toContain(`id="${id}"`);
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

  it.each([
    ['light with its own colour', { kind: 'bakery', dark: false, primary: null }],
    ['light with a pale colour asked for', { kind: 'cafe', dark: false, primary: '#fde047' }],
    ['dark with a dark colour asked for', { kind: 'agency', dark: true, primary: '#1e3a8a' }],
  ])('keeps WCAG AA contrast: %s', (_what, b) => {
    const brief = { name: 'X', place: null, headline: null, tagline: null, sections: [], ...b } as never;
    const p = palette(brief, kindById((b as { kind: string }).kind));
    expect(contrast('#ffffff', p.primary)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p.link, p.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p.text, p.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p.muted, p.surface)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('follow-up prompts edit the site', () => {
  it('renames, recolours, adds and removes sections, changes the headline', async () => {
    const first = await generate("Bella's Bakery in Lyon");
    const renamed = await generate('Rename it to Maison Bella', first.files);
    expect(fileOf(renamed.files, 'index.html')).toContain('Maison Bella');
    expect(renamed.summary).toContain('renamed to Maison Bella');

    const green = await generate('Make it green and use a dark theme', renamed.files);
    expect(JSON.parse(fileOf(green.files, '.sitewright/builtin-brief.json'))).toMatchObject({ name: 'Maison Bella', primary: '#15803d', dark: true });

    const sections = await generate('Add a pricing section and remove the testimonials', green.files);
    const html = fileOf(sections.files, 'index.html');
    expect(html).toContain('id="pricing"');
    expect(html).not.toContain('id="testimonials"');
    expect(html).toContain('id="about"');

    const headline = await generate('Change the headline to "Bread worth waking up for"', sections.files);
    expect(fileOf(headline.files, 'index.html')).toContain('<h1 id="hero-title">Bread worth waking up for</h1>');
  });

  it('edits a site whose brief is still the old root site.json, moving the brief out of the served files', async () => {
    const first = await generate("Bella's Bakery in Lyon");
    const legacy = first.files.map((f) => (f.path === '.sitewright/builtin-brief.json' ? { ...f, path: 'site.json' } : f));
    const renamed = await generate('Rename it to Maison Bella', legacy);
    expect(renamed.files.map((f) => f.path).sort()).toEqual(['.sitewright/builtin-brief.json', '404.html', 'index.html', 'styles.css']);
    expect(JSON.parse(fileOf(renamed.files, '.sitewright/builtin-brief.json'))).toMatchObject({ name: 'Maison Bella', kind: 'bakery' });
  });

  it("keeps a site's own site.json that is not its brief", async () => {
    const own = { path: 'site.json', content: '{"menu": ["home"]}' };
    const { files } = await generate('A site for Acme Plumbing in Leeds', [own]);
    expect(files).toContainEqual(own);
    const edited = await generate('Make it green', files);
    expect(edited.files).toContainEqual(own);
  });

  it('fails clearly when it does not understand the change, saying what it understands', async () => {
    const first = await generate('Acme Plumbing in Leeds');
    await expect(generate('Make the vibe more whimsical', first.files)).rejects.toThrow(GenerationError);
    await expect(generate('Make the vibe more whimsical', first.files)).rejects.toThrow(/understands: rename/);
  });

  it('rebuilds a site it did not make from the prompt, keeping files it does not own', async () => {
    const logo = Buffer.from([1, 2, 3]);
    const { files } = await generate('A site for Acme Plumbing in Leeds', [{ path: 'index.html', content: '<p>old</p>' }, { path: 'logo.png', content: logo }]);
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
    expect(applyEdit(base, 'Rename it to Moonlight Bakery and make it green').changes).toEqual(['renamed to Moonlight Bakery', expect.stringMatching(/^brand colour #/)]);
    expect(applyEdit(base, "Rename to Joe's Diner. Also add an FAQ").brief.sections).toContain('faq');
    expect(applyEdit(base, 'Can you make the site red?').changes).toEqual([expect.stringMatching(/^brand colour #/)]);
  });
});

describe('follow-ups on a site builtin did not make', () => {
  const own = (content: string) => [
    { path: 'index.html', content },
    { path: 'about/index.html', content: '<html><head><title>Acme</title></head><body><p>About Acme</p></body></html>' },
    { path: 'logo.png', content: Buffer.from([1, 2, 3]) },
  ];
  const home = '<!doctype html><html><head><title>Acme</title></head><body><h1 class="big">Welcome</h1><p>Acme fixes pipes.</p></body></html>';

  it('edits the headline and the name in its HTML instead of starting over', async () => {
    const { files, summary } = await generate('Rename it to Acme Plumbing and set the headline to "Pipes fixed today"', own(home));
    expect(summary).toBe('Edited the site: renamed to Acme Plumbing, new headline');
    expect(fileOf(files, 'index.html')).toBe('<!doctype html><html><head><title>Acme Plumbing</title></head><body><h1 class="big">Pipes fixed today</h1><p>Acme Plumbing fixes pipes.</p></body></html>');
    expect(fileOf(files, 'about/index.html')).toContain('<p>About Acme Plumbing</p>');
    expect(files.map((f) => f.path).sort()).toEqual(['about/index.html', 'index.html', 'logo.png']);
  });

  it('escapes what it writes', async () => {
    const { files } = await generate('headline: "<script>alert(1)</script>"', own(home));
    expect(fileOf(files, 'index.html')).toContain('<h1 class="big">&#60;script&#62;alert(1)&#60;/script&#62;</h1>');
  });

  it('still builds a new site from a prompt that is no edit it knows, keeping other files', async () => {
    const { files } = await generate('A site for Bella Bakery in Lyon', own(home));
    expect(fileOf(files, 'index.html')).toContain('Bella Bakery');
    expect(files.find((f) => f.path === 'logo.png')).toBeDefined();
  });
});
