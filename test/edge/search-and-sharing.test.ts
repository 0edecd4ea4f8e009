// Search and sharing on a published site, fetched over HTTP by its host: the sitemap and robots.txt
// publishing writes, the canonical link, Open Graph and Twitter tags on every page and JSON-LD on
// the home page, all valid (html-validate, a JSON-LD and schema.org check), with the site settings
// empty and filled; a site's own files and tags are kept.
import type { AddressInfo } from 'node:net';
import { HtmlValidate } from 'html-validate';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { untilSucceeded } from '../helpers/wait.ts';
import { schemaOrgProblems } from '../helpers/schema-org.ts';
import { LoopbackDns } from '../helpers/dns-server.ts';

type Element = DefaultTreeAdapterMap['element'];
const dns = await new LoopbackDns().start();
afterAll(() => dns.stop());
const api = useTestApi(
  { SITES_DOMAIN: 'sites.test', GENERATION_POLL_INTERVAL: '50ms', DNS_SERVERS: dns.address },
  { generationWorker: true },
);
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});
const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });
const PNG_1x1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

async function generatedSite(prompt: string) {
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name: 'Search site' });
  const { id } = (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt })).body.generation;
  await untilSucceeded(
    async () => (await api.get(`/api/v1/projects/${p.id}/generations/${id}`)).body.generation,
  );
  return { id: p.id as string, host: `${p.subdomain}.sites.test`, base: `http://${p.subdomain}.sites.test/` };
}

/** Every element of a page, depth first. */
function elements(html: string): Element[] {
  const out: Element[] = [];
  const walk = (node: { childNodes?: unknown[] }) => {
    for (const child of (node.childNodes ?? []) as Element[]) {
      if ('tagName' in child) out.push(child);
      walk(child.tagName === 'template' ? (child as unknown as { content: Element }).content : child);
    }
  };
  walk(parse(html));
  return out;
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const metas = (html: string) =>
  Object.fromEntries(
    elements(html)
      .filter((el) => el.tagName === 'meta' && (attr(el, 'property') || attr(el, 'name')))
      .map((el) => [attr(el, 'property') ?? attr(el, 'name'), attr(el, 'content')]),
  );
const linksOf = (html: string, rel: string) =>
  elements(html)
    .filter((el) => el.tagName === 'link' && attr(el, 'rel') === rel)
    .map((el) => attr(el, 'href'));
const jsonLdOf = (html: string) =>
  elements(html)
    .filter((el) => el.tagName === 'script' && attr(el, 'type') === 'application/ld+json')
    .map((el) => JSON.parse((el.childNodes[0] as { value: string }).value));

async function publishAndRead(site: { id: string; host: string }) {
  expect((await api.post(`/api/v1/projects/${site.id}/publish`, {})).status).toBe(200);
  const sitemap = await fetchSite(port, site.host, '/sitemap.xml');
  expect(sitemap.status).toBe(200);
  expect(sitemap.headers['content-type']).toMatch(/xml/);
  const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>\s*<lastmod>([^<]+)<\/lastmod>/g)];
  const pages = [];
  for (const [, loc, lastmod] of locs) {
    expect(new Date(lastmod!).toISOString()).toBe(lastmod);
    const page = await fetchSite(port, site.host, new URL(loc!).pathname);
    expect(page.status, loc).toBe(200);
    pages.push({ url: loc!, html: page.body });
  }
  return { sitemap: sitemap.body, pages };
}

function expectValid(pages: { url: string; html: string }[]) {
  for (const page of pages) {
    const report = validator.validateStringSync(page.html);
    const messages = report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`));
    expect(messages, page.url).toEqual([]);
  }
}

describe('search and sharing at publish', () => {
  it('writes a sitemap, robots.txt, canonical links, sharing tags and WebSite JSON-LD with no settings', async () => {
    const site = await generatedSite(
      "A website for Rosie's Bakery in Bristol with an about page and a menu page",
    );
    const { sitemap, pages } = await publishAndRead(site);
    expect(sitemap).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    // Every page but the 404 page, home first.
    const files = (await api.get(`/api/v1/projects/${site.id}/files`)).body.files.map((f: any) => f.path);
    const htmlPages = files.filter((p: string) => p.endsWith('.html') && p !== '404.html');
    expect(pages.map((p) => p.url)).toEqual([
      site.base,
      ...htmlPages
        .filter((p: string) => p !== 'index.html')
        .sort()
        .map((p: string) => site.base + p),
    ]);
    expect(pages.length).toBeGreaterThan(1);
    expect(sitemap).not.toContain('404.html');
    const robots = await fetchSite(port, site.host, '/robots.txt');
    expect(robots.body).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${site.base}sitemap.xml\n`);
    for (const page of pages) {
      expect(linksOf(page.html, 'canonical'), page.url).toEqual([page.url]);
      const tags = metas(page.html);
      expect(tags).toMatchObject({
        'og:type': 'website',
        'og:url': page.url,
        'og:site_name': "Rosie's Bakery",
        'twitter:card': 'summary',
      });
      const title = elements(page.html).find((el) => el.tagName === 'title')!;
      expect(tags['og:title']).toBe((title.childNodes[0] as unknown as { value: string }).value);
      expect(tags['twitter:title']).toBe(tags['og:title']);
      expect(tags['og:description']).toBe(tags.description);
      expect(tags['og:image']).toBeUndefined();
    }
    const [home, ...others] = pages;
    const [data] = jsonLdOf(home!.html);
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: "Rosie's Bakery",
      url: site.base,
    });
    expect(await schemaOrgProblems(data)).toEqual([]);
    for (const page of others) expect(jsonLdOf(page.html)).toEqual([]);
    expectValid(pages);
    // The 404 page is served as it was written: no canonical link to an address it does not have.
    const missing = await fetchSite(port, site.host, '/nope');
    expect(missing.status).toBe(404);
    expect(linksOf(missing.body, 'canonical')).toEqual([]);
  });

  it('writes the owner’s settings and facts: language, icon, picture, LocalBusiness of the kind', async () => {
    const site = await generatedSite("A website for Rosie's Bakery in Bristol with a menu page");
    for (const path of ['img/share.png', 'icon.png'])
      await api.put(`/api/v1/projects/${site.id}/files/${path}`, { content: PNG_1x1, encoding: 'base64' });
    const settings = await api.patch(`/api/v1/projects/${site.id}/site-settings`, {
      site_name: 'Rosie’s "Real" Bakery <Bristol>',
      language: 'en-GB',
      description: 'Sourdough & cakes baked every morning on Mill Lane.',
      social_image: 'img/share.png',
      favicon: 'icon.png',
      facts: {
        address: '1 Mill Lane, Bristol BS1 4AA',
        phone: '+44 117 496 0000',
        opening_hours: 'Mo-Fr 08:00-17:00\nSat 9am to 2pm',
      },
    });
    expect(settings.status).toBe(200);
    const { pages } = await publishAndRead(site);
    const [home] = pages;
    expect(home!.html).toMatch(/^<!DOCTYPE html>\n<html lang="en-GB">/);
    const tags = metas(home!.html);
    expect(tags).toMatchObject({
      'og:site_name': 'Rosie’s "Real" Bakery <Bristol>',
      'og:image': `${site.base}img/share.png`,
      'og:locale': 'en_GB',
      'twitter:card': 'summary_large_image',
      'twitter:image': `${site.base}img/share.png`,
    });
    // The generator's own description is kept on its pages; a shared link to the site says the owner's.
    expect(tags.description).not.toBe('Sourdough & cakes baked every morning on Mill Lane.');
    expect(tags['og:description']).toBe('Sourdough & cakes baked every morning on Mill Lane.');
    expect(metas(pages[1]!.html)['og:description']).toBe(metas(pages[1]!.html).description);
    expect(linksOf(home!.html, 'icon')).toEqual(['/icon.png']);
    const [data] = jsonLdOf(home!.html);
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Bakery',
      name: 'Rosie’s "Real" Bakery <Bristol>',
      url: site.base,
      description: 'Sourdough & cakes baked every morning on Mill Lane.',
      image: `${site.base}img/share.png`,
      address: '1 Mill Lane, Bristol BS1 4AA',
      telephone: '+44 117 496 0000',
      // Only the line in schema.org's form: the other stays on the page, not guessed into it.
      openingHours: ['Mo-Fr 08:00-17:00'],
    });
    // A fact not given is absent.
    expect(data).not.toHaveProperty('email');
    expect(await schemaOrgProblems(data)).toEqual([]);
    expect(home!.html).not.toContain('<Bristol>"');
    expectValid(pages);
  });

  it('keeps a hand-written site’s own sitemap, robots.txt and tags, and adds only what is missing', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Hand-made' });
    const host = `${p.subdomain}.sites.test`;
    const page = `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<title>Chez Léa — 🥐</title>
<link rel="canonical" href="https://chez-lea.example/">
<meta property="og:title" content="Chez Léa">
<meta name="description" content="Croissants">
</head>
<body><h1>Chez Léa 🥐</h1></body>
</html>
`;
    const builtFiles = {
      'index.html': page,
      'cache.html':
        '<!doctype html><html><head><meta name="robots" content="noindex"><title>x</title></head><body></body></html>',
      'robots.txt': 'User-agent: *\nDisallow: /private/\n',
    };
    expect((await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles })).status).toBe(200);
    const home = (await fetchSite(port, host, '/')).body;
    expect(linksOf(home, 'canonical')).toEqual(['https://chez-lea.example/']);
    const tags = metas(home);
    expect(tags['og:title']).toBe('Chez Léa');
    expect(tags['twitter:title']).toBe('Chez Léa — 🥐');
    expect(tags['og:description']).toBe('Croissants');
    // Every byte the author wrote is still there, in order.
    const added = home.slice(
      home.indexOf('<meta name="description" content="Croissants">\n') + 47,
      home.indexOf('</head>'),
    );
    expect(home.replace(added, '')).toBe(page);
    expect((await fetchSite(port, host, '/robots.txt')).body).toBe(builtFiles['robots.txt']);
    const sitemap = (await fetchSite(port, host, '/sitemap.xml')).body;
    expect(sitemap).toContain(`<loc>http://${host}/</loc>`);
    expect(sitemap).not.toContain('cache.html');
  });
});

describe('a site on its own domain', () => {
  async function onDomain(domain: string) {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Moved site' });
    const page =
      '<!doctype html><html lang="en"><head><title>Moved</title></head><body><h1>Moved</h1></body></html>';
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: page });
    const res = await api.post(`/api/v1/projects/${p.id}/domains`, { domain });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const added = res.body;
    for (const record of added.dns_records) dns.set(record.name, { type: record.type, value: record.value });
    const verified = await api.post(`/api/v1/projects/${p.id}/domains/${added.id}/verify`);
    expect(verified.body.status).toBe('active');
    expect((await api.post(`/api/v1/projects/${p.id}/publish`, {})).status).toBe(200);
    return { id: p.id as string, subdomain: `${p.subdomain}.sites.test` };
  }

  it('is canonical on the domain; its subdomain is not indexed, and answers 301 when the owner asks', async () => {
    const site = await onDomain('www.moved-bakery.co.uk');
    const onSubdomain = await fetchSite(port, site.subdomain, '/?a=1');
    expect(onSubdomain.status).toBe(200);
    expect(onSubdomain.headers['x-robots-tag']).toBe('noindex');
    expect(linksOf(onSubdomain.body, 'canonical')).toEqual(['https://www.moved-bakery.co.uk/']);
    const onDomainItself = await fetchSite(port, 'www.moved-bakery.co.uk', '/');
    expect(onDomainItself.status).toBe(200);
    expect(onDomainItself.headers['x-robots-tag']).toBeUndefined();
    expect((await fetchSite(port, 'www.moved-bakery.co.uk', '/robots.txt')).body).toContain(
      'Sitemap: https://www.moved-bakery.co.uk/sitemap.xml',
    );

    await api.patch(`/api/v1/projects/${site.id}/site-settings`, { redirect_subdomain: true });
    const moved = await fetchSite(port, site.subdomain, '/menu.html?x=1');
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe('https://www.moved-bakery.co.uk/menu.html?x=1');
    expect((await fetchSite(port, site.subdomain, '/', {}, 'HEAD')).status).toBe(301);
    // A form posted to the old address still arrives.
    const form = await fetchSite(port, site.subdomain, '/_forms/contact', {}, 'POST');
    expect(form.status).not.toBe(301);
    await api.patch(`/api/v1/projects/${site.id}/site-settings`, { redirect_subdomain: false });
    expect((await fetchSite(port, site.subdomain, '/')).status).toBe(200);
  });

  it('until published again after the domain is verified, the subdomain stays the site’s address', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Early site' });
    const page =
      '<!doctype html><html lang="en"><head><title>Early</title></head><body><h1>Early</h1></body></html>';
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: page });
    await api.post(`/api/v1/projects/${p.id}/publish`, {});
    await api.patch(`/api/v1/projects/${p.id}/site-settings`, { redirect_subdomain: true });
    const res = await api.post(`/api/v1/projects/${p.id}/domains`, { domain: 'www.early-bakery.co.uk' });
    for (const record of res.body.dns_records)
      dns.set(record.name, { type: record.type, value: record.value });
    expect((await api.post(`/api/v1/projects/${p.id}/domains/${res.body.id}/verify`)).body.status).toBe(
      'active',
    );
    const host = `${p.subdomain}.sites.test`;
    // Its pages still name the subdomain: sending crawlers away from it now would lose the site.
    const before = await fetchSite(port, host, '/');
    expect(before.status).toBe(200);
    expect(before.headers['x-robots-tag']).toBeUndefined();
    expect(linksOf(before.body, 'canonical')).toEqual([`http://${host}/`]);
    await api.post(`/api/v1/projects/${p.id}/publish`, {});
    const after = await fetchSite(port, host, '/');
    expect(after.status).toBe(301);
    expect(after.headers.location).toBe('https://www.early-bakery.co.uk/');
    expect(linksOf((await fetchSite(port, 'www.early-bakery.co.uk', '/')).body, 'canonical')).toEqual([
      'https://www.early-bakery.co.uk/',
    ]);
  });

  it('a subdomain without a verified domain is indexed and never redirected', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Plain site' });
    await api.patch(`/api/v1/projects/${p.id}/site-settings`, { redirect_subdomain: true });
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': '<h1>x</h1>' } });
    const res = await fetchSite(port, `${p.subdomain}.sites.test`, '/');
    expect(res.status).toBe(200);
    expect(res.headers['x-robots-tag']).toBeUndefined();
  });
});

describe('the preview', () => {
  it('shows the settings at once, as the page will go live, and is never indexed', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Preview site' });
    const page = '<!doctype html><html><head><title>Before</title></head><body><h1>x</h1></body></html>';
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: page });
    const link = new URL((await api.get(`/api/v1/projects/${p.id}/preview`)).body.preview_url);
    const first = await fetchSite(port, link.host, link.pathname);
    expect(first.headers['x-robots-tag']).toBe('noindex');
    expect(linksOf(first.body, 'canonical')).toEqual([`http://${p.subdomain}.sites.test/`]);
    await api.patch(`/api/v1/projects/${p.id}/site-settings`, { language: 'nl', site_name: 'Bakkerij' });
    const second = await fetchSite(port, link.host, link.pathname, {
      'if-none-match': String(first.headers.etag),
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatch(/^<!doctype html><html lang="nl"><head>/);
    expect(metas(second.body)['og:site_name']).toBe('Bakkerij');
    // The project's files are unchanged: the preview shows what publishing will write.
    expect((await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content).toBe(page);
  });
});
