// The thank-you page's "Back to the page" link comes from the query string: whatever it says, the
// link a browser follows stays on the site. Checked through a real HTTP request per payload, and
// the rendered href read back the way a browser resolves it against the site's own address.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { lookOf } from '../../src/edge/forms.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test' });
let port: number;
let host: string;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

async function site(): Promise<string> {
  if (host) return host;
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name: 'Thanks site' });
  await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': '<h1>Home</h1>' } });
  host = `${p.subdomain}.sites.test`;
  return host;
}

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

async function backLink(query: string): Promise<string> {
  const res = await fetchSite(port, await site(), `/_forms/contact/thanks?back=${query}`);
  expect(res.status).toBe(200);
  const match = /<a href="([^"]*)">Back to the page<\/a>/.exec(res.body);
  expect(match, res.body).not.toBeNull();
  return unescape(match![1]!);
}

describe('the thank-you page link', () => {
  it.each([
    ['/%5Cevil.example/x', '/'],
    ['/%09/evil.example', '/'],
    ['/%0A/evil.example', '/'],
    ['/%0D%0A/evil.example', '/'],
    ['//evil.example', '/'],
    ['%2F%2Fevil.example', '/'],
    ['/%5C/evil.example', '/'],
    ['%5C%5Cevil.example', '/'],
    ['%5C/evil.example', '/'],
    ['/%09%5C/evil.example', '/'],
    ['%20//evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['JaVaScRiPt%3Aalert(1)', '/'],
    ['java%09script:alert(1)', '/'],
    ['data:text/html,%3Cscript%3Ealert(1)%3C/script%3E', '/'],
    ['https://evil.example/', '/'],
    ['http:evil.example', '/'],
    ['https:%5C%5Cevil.example', '/'],
    ['/.//evil.example', '/evil.example'],
    ['/x/..//evil.example', '/evil.example'],
    ['/./%5Cevil.example', '/evil.example'],
  ])('keeps back=%s on the site', async (query, expected) => {
    const href = await backLink(query);
    expect(href).toBe(expected);
    const followed = new URL(href, `http://${host}/contact`);
    expect(followed.host).toBe(host);
  });

  it.each([
    ['%2Fpricing%2F', '/pricing/'],
    ['/a/b?c=1', '/a/b?c=1'],
    ['%2Fa%2Fb%3Fc%3D1%23top', '/a/b?c=1#top'],
    ['/%22%3E%3Cscript%3E', '/%22%3E%3Cscript%3E'],
    ['', '/'],
  ])('renders the same-site path back=%s as %s', async (query, expected) => {
    expect(await backLink(query)).toBe(expected);
  });
});

describe('the thank-you page’s look', () => {
  it('speaks the language of the page the form was on and links that site’s own stylesheets only', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Bäckerei' });
    const german =
      '<!doctype html><html lang="de"><head><title>Bäckerei Müller &amp; Söhne</title><link rel="stylesheet" href="/style.css"><link href="theme.css" rel="stylesheet"><link rel="stylesheet" href="https://evil.example/x.css"><link rel="stylesheet" href="//evil.example/y.css"></head><body><form action="/_forms/contact" method="post"></form></body></html>';
    await api.post(`/api/v1/projects/${p.id}/publish`, {
      builtFiles: {
        'index.html': '<html lang="fr"><title>Accueil</title></html>',
        'kontakt/index.html': german,
        'style.css': 'body{color:#123}',
      },
    });
    const res = await fetchSite(
      port,
      `${p.subdomain}.sites.test`,
      '/_forms/contact/thanks?back=%2Fkontakt%2F',
    );
    expect(res.status).toBe(200);
    expect(res.body).toContain('<html lang="de">');
    expect(res.body).toContain('<h1>Vielen Dank!</h1>');
    expect(res.body).toContain('<title>Vielen Dank! · Bäckerei Müller &#38; Söhne</title>');
    expect([...res.body.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1])).toEqual([
      '/style.css',
      '/kontakt/theme.css',
    ]);
    expect(res.body).toContain('<a href="/kontakt/">Zurück zur Seite</a>');
    // Without a page to go by (back points nowhere): the home page's language.
    const home = await fetchSite(port, `${p.subdomain}.sites.test`, '/_forms/contact/thanks?back=%2Fgone');
    expect(home.body).toContain('<html lang="fr">');
    expect(home.body).toContain('<h1>Merci !</h1>');
  });
});

describe('reading a site page for its look', () => {
  it('takes no time on a large page of tags left open (the patterns once scanned it again per tag)', () => {
    expect(lookOf('<link '.repeat(400_000))).toEqual({ lang: 'en', name: '', stylesheets: [] });
    expect(lookOf(`<html ${'<title '.repeat(400_000)}`).name).toBe('');
  });
});
