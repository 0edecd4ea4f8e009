// The quality gate on its own: what a correct modern site passes, and each kind of problem it finds.
import { describe, expect, it } from 'vitest';
import { BuiltinProvider } from '../../../src/providers/builtin/index.ts';
import { checkSite, checkSiteProblems, internalTarget } from '../../../src/providers/openai/quality.ts';
import { page } from '../../helpers/fake-openai.ts';

const nav =
  '<nav aria-label="Main"><a href="/">Home</a> <a href="about/">About</a> <a href="contact.html#form">Contact</a> <a href="mailto:hi@moon.test">Mail</a> <a href="tel:+4912345">Call</a> <a href="https://example.com/x.html">Out</a> <a href="#top">Top</a></nav>';
const site = () => [
  {
    path: 'index.html',
    content: page(
      'Moon Cafe',
      `${nav}\n<img src="img/logo.png" srcset="img/logo.png 1x, img/logo@2x.png 2x" alt="Moon Cafe logo">\n<svg viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="4"/></svg>\n<p style="color: red">Coffee & cake</p><br/>\n`,
      '<link rel="stylesheet" href="css/site.css">\n',
    ),
  },
  {
    path: 'about/index.html',
    content: page(
      'About us',
      '<p><a href="../index.html">Back</a> <a href="/contact">Contact (no extension)</a></p>\n',
    ),
  },
  {
    path: 'contact.html',
    content: page(
      'Contact',
      '<form id="form" action="/_forms/contact" method="POST"><label for="email">Email</label><input id="email" name="email" type="email"><input type="hidden" name="_gotcha"><button type="submit">Send</button></form>\n',
    ),
  },
  { path: 'contact/index.html', content: page('Contact again') },
  {
    path: 'css/site.css',
    content:
      '/* url(missing-in-a-comment.png) */ body { background: url("../img/bg.png") } .x { background: url(data:image/png;base64,AAAA) }',
  },
  { path: 'img/logo.png', content: Buffer.from([1, 2, 3]) },
  { path: 'img/logo@2x.png', content: Buffer.from([1, 2, 3]) },
  { path: 'img/bg.png', content: Buffer.from([1, 2, 3]) },
];

describe('quality gate', () => {
  it('passes a correct site written in any of the valid styles (lower-case doctype, inline style, self-closed void and SVG elements, a raw &)', () => {
    expect(checkSite(site())).toEqual([]);
  });

  it('passes the sites of the builtin generator', async () => {
    const builtin = new BuiltinProvider();
    const signal = new AbortController().signal;
    const first = await builtin.generate({
      prompt: 'A bakery called "Sunrise Bread" in Lisbon with pricing and an FAQ',
      model: 'builtin',
      files: [],
      signal,
    });
    expect(checkSite(first.files)).toEqual([]);
    const dark = await builtin.generate({
      prompt: 'dark theme, add a pricing section',
      model: 'builtin',
      files: first.files,
      signal,
    });
    expect(checkSite(dark.files)).toEqual([]);
  });

  it('reports html-validate errors with their place and rule', () => {
    const files = site();
    files[0]!.content = (files[0]!.content as string)
      .replace('alt="Moon Cafe logo"', '')
      .replace('<p style', '<div><p style')
      .replace('<br/>', '</span>');
    const problems = checkSite(files);
    expect(problems.some((p) => /^index\.html:\d+:\d+: .*alt.* \(wcag\/h37\)$/.test(p))).toBe(true);
    expect(problems.some((p) => p.startsWith('index.html:') && p.endsWith('(close-order)'))).toBe(true);
    expect(problems.every((p) => p.startsWith('index.html:'))).toBe(true);
  });

  it('needs a doctype, a title with text and exactly one h1 on every page', () => {
    const problems = checkSite([
      { path: 'index.html', content: page('Moon Cafe') },
      {
        path: 'a.html',
        content: '<html lang="en"><head><title>A</title></head><body><h1>A</h1></body></html>',
      },
      { path: 'b.html', content: page('B').replace('<title>B</title>', '<title> </title>') },
      { path: 'c.html', content: page('C').replace('</body>', '<h1>Again</h1></body>') },
      { path: 'd.html', content: page('D').replace(/<h1>D<\/h1>/, '<h2>D</h2>') },
    ]);
    expect(problems).toContain('a.html:1:1: Document is missing doctype (missing-doctype)');
    expect(problems).toContain('b.html: the page has no <title> with text (title)');
    expect(problems).toContain('c.html: the page has 2 <h1> elements; it needs exactly one (h1)');
    expect(problems).toContain('d.html: the page has 0 <h1> elements; it needs exactly one (h1)');
    expect(problems.filter((p) => p.startsWith('index.html'))).toEqual([]);
  });

  it('finds internal links and assets that resolve to no file, as the site server resolves them', () => {
    const files = site();
    files.push({
      path: 'blog/post.html',
      content: page(
        'Post',
        '<a href="../about">About (a directory)</a> <a href="index.html">Blog index (missing)</a> <a href="/shop/">Shop</a> <img src="/img/none.png" alt="x"> <a href="../about.html?x=1">About file</a> <a href="../css/site.css">css</a>\n',
      ),
    });
    files.push({ path: 'css/more.css', content: 'a { background: url(../img/none.svg) }' });
    const problems = checkSiteProblems(files).filter((p) => p.rule === 'link');
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'blog/post.html: <a href="index.html"> points to a file the site does not have',
      'blog/post.html: <a href="/shop/"> points to a file the site does not have',
      'blog/post.html: <img src="/img/none.png"> points to a file the site does not have',
      'blog/post.html: <a href="../about.html?x=1"> points to a file the site does not have',
      'css/more.css: url(../img/none.svg) points to a file the site does not have',
    ]);
    expect(problems[0]!.line).toBeGreaterThan(1);
  });

  it('a site without index.html is a problem', () => {
    expect(checkSite([{ path: 'home.html', content: page('Home') }])).toEqual([
      'index.html: the site has no index.html (missing)',
    ]);
  });

  it.each([
    ['#top', 'index.html', null],
    ['mailto:a@b.test', 'index.html', null],
    ['tel:+49', 'index.html', null],
    ['https://example.com/a.html', 'index.html', null],
    ['//cdn.example.com/a.js', 'index.html', null],
    ['data:image/png;base64,AA', 'index.html', null],
    ['/_forms/contact', 'index.html', null],
    ['../_forms/contact', 'a/b.html', null],
    ['/', 'a/b.html', ''],
    ['about/', 'index.html', 'about/'],
    ['../x.html#y', 'a/b.html', 'x.html'],
    ['caf%C3%A9.html', 'index.html', 'café.html'],
    ['../../../x.html', 'a/b.html', 'x.html'],
  ])('internalTarget(%s from %s) is %s', (ref, from, target) => {
    expect(internalTarget(ref, from)).toBe(target);
  });
});
