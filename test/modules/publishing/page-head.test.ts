// decoratePage: only what a page lacks is added, before </head>, with every value escaped; the
// author's bytes stay where they were; fragments and odd heads are handled without breaking.
import { describe, expect, it } from 'vitest';
import { decoratePage, type PageFacts } from '../../../src/modules/publishing/search/page-head.ts';
import { pageUrl } from '../../../src/modules/publishing/search/site-files.ts';

const facts = (more: Partial<PageFacts> = {}): PageFacts => ({
  url: 'https://a.example/',
  siteName: 'A & B',
  description: null,
  language: null,
  image: null,
  favicon: null,
  structuredData: null,
  ...more,
});

describe('decoratePage', () => {
  it('escapes every value it writes, in attributes and in JSON-LD', () => {
    const hostile = '"><script>alert(1)</script><!--';
    const { html } = decoratePage('<!doctype html><html><head><title>t</title></head><body></body></html>', {
      ...facts({ siteName: hostile, description: hostile, language: 'en' }),
      structuredData: () => ({ name: `</script><script>alert(2)</script>` }),
    });
    expect(html).not.toMatch(/<script>alert/);
    expect(html).toContain('content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--"');
    expect(html).toContain('\\u003c/script>\\u003cscript>alert(2)\\u003c/script>');
  });

  it('sets the language on <html>, replacing one the page had, keeping its other attributes', () => {
    const before = '<!DOCTYPE html>\n<html class="x" LANG="de" dir="ltr"><head></head><body>é</body></html>';
    const { html } = decoratePage(before, facts({ language: 'pt-BR' }));
    expect(html.startsWith('<!DOCTYPE html>\n<html class="x" lang="pt-BR" dir="ltr"><head>')).toBe(true);
    const added = decoratePage('<html><head></head></html>', facts({ language: 'fr' })).html;
    expect(added.startsWith('<html lang="fr"><head>')).toBe(true);
  });

  it('leaves a fragment as it is: there is no head of the author’s to add to', () => {
    for (const page of ['<h1>Hello</h1>', '<!doctype html><html><body><p>x</p></body></html>', ''])
      expect(decoratePage(page, facts({ language: 'fr' })).html).toBe(page);
  });

  it('adds after the last element of a head whose end tag is left out', () => {
    const page = '<!doctype html><html><head><title>x</title><body><p>x</p></body></html>';
    const { html } = decoratePage(page, facts());
    expect(html).toMatch(
      /^<!doctype html><html><head><title>x<\/title><link rel="canonical" href="https:\/\/a.example\/">\n/,
    );
    expect(html.endsWith('<body><p>x</p></body></html>')).toBe(true);
  });

  it('counts offsets right after characters outside the basic plane', () => {
    const page = '<html><head><title>🥐🥐🥐</title></head><body>🥐</body></html>';
    const { html } = decoratePage(page, facts());
    expect(html.startsWith('<html><head><title>🥐🥐🥐</title><link rel="canonical"')).toBe(true);
    expect(html.endsWith('</head><body>🥐</body></html>')).toBe(true);
  });

  it('replaces the page’s icons with the owner’s, and says when a page asks not to be indexed', () => {
    const page =
      '<html><head><link rel="shortcut icon" href="/old.ico"><link rel="apple-touch-icon" href="/t.png"><meta name="robots" content="NOINDEX, follow"></head></html>';
    const out = decoratePage(page, facts({ favicon: 'brand/icon.svg' }));
    expect(out.html).not.toContain('old.ico');
    expect(out.html).toContain('<link rel="apple-touch-icon" href="/t.png">');
    expect(out.html).toContain('<link rel="icon" href="/brand/icon.svg" type="image/svg+xml">');
    expect(out.indexable).toBe(false);
    expect(decoratePage('<html><head></head></html>', facts()).indexable).toBe(true);
  });

  it('on the 404 page, writes the icon and language but no address of its own', () => {
    const { html } = decoratePage('<html><head></head></html>', facts({ notFound: true, language: 'de' }));
    expect(html).toBe('<html lang="de"><head></head></html>');
  });
});

describe('pageUrl', () => {
  it('serves index.html at its directory', () => {
    expect(pageUrl('https://a.example/', 'index.html')).toBe('https://a.example/');
    expect(pageUrl('https://a.example/', 'blog/index.html')).toBe('https://a.example/blog/');
    expect(pageUrl('https://a.example/', 'about.html')).toBe('https://a.example/about.html');
    expect(pageUrl('https://a.example/', 'myindex.html')).toBe('https://a.example/myindex.html');
  });
});
