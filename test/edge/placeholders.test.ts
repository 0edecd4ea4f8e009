// A placeholder never reaches a live site: a generated site published before its owner filled
// anything in is served without one, without the cards, items and sections left empty, without
// pages left empty and without links to what went; every page stays valid. The project's own
// files keep their placeholders for the builder.
import type { AddressInfo } from 'node:net';
import { HtmlValidate } from 'html-validate';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { untilSucceeded } from '../helpers/wait.ts';
import { planPlaceholders, withoutPlaceholders } from '../../src/modules/publishing/placeholders.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

type Element = DefaultTreeAdapterMap['element'];
const api = useTestApi(
  { SITES_DOMAIN: 'sites.test', GENERATION_POLL_INTERVAL: '50ms' },
  { generationWorker: true },
);
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});
const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });

function elements(html: string): Element[] {
  const out: Element[] = [];
  const walk = (node: { childNodes?: unknown[] }) => {
    for (const child of (node.childNodes ?? []) as Element[])
      if ('tagName' in child) {
        out.push(child);
        walk(child);
      }
  };
  walk(parse(html));
  return out;
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
/** Text outside headings, or a picture, form or table. */
const substance = (el: Element): boolean =>
  el.childNodes.some((n) =>
    'tagName' in n
      ? !/^h[1-6]$/.test(n.tagName) &&
        (['img', 'form', 'table', 'iframe'].includes(n.tagName) || substance(n))
      : 'value' in n && n.value.trim() !== '',
  );

describe('publishing leaves placeholders out', () => {
  it('serves a site published before anything was filled in without a placeholder, broken link or empty section', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Unfilled' });
    const prompt =
      'A website for Brightside Yoga in Leeds with a team page, a timetable page, reviews, FAQ, pricing and a contact section';
    const { id } = (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt })).body.generation;
    await untilSucceeded(
      async () => (await api.get(`/api/v1/projects/${p.id}/generations/${id}`)).body.generation,
    );
    const files = (await api.get(`/api/v1/projects/${p.id}/files`)).body.files.map((f: any) => f.path);
    const sources = new Map<string, string>();
    for (const path of files.filter((f: string) => f.endsWith('.html')))
      sources.set(path, (await api.get(`/api/v1/projects/${p.id}/files/${path}`)).body.file.content);
    const todos = [...sources.values()].join('').match(/data-sw-todo/g) ?? [];
    expect(todos.length).toBeGreaterThan(5);

    expect((await api.post(`/api/v1/projects/${p.id}/publish`, {})).status).toBe(200);
    const host = `${p.subdomain}.sites.test`;
    const deployed = await api.ctx.database.db
      .selectFrom('deployment_files')
      .select('path')
      .where(
        'deployment_id',
        '=',
        (await api.get(`/api/v1/projects/${p.id}/deployments`)).body.deployments[0].id,
      )
      .execute();
    const served = deployed.map((f) => f.path).filter((path) => path.endsWith('.html'));
    for (const path of served) {
      const page = await fetchSite(port, host, `/${path}`);
      expect(page.status === 200 || path === '404.html', path).toBe(true);
      expect(page.body).not.toContain('data-sw-todo');
      expect(page.body).not.toMatch(/class="todo/);
      const report = validator.validateStringSync(page.body);
      expect(
        report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`)),
        path,
      ).toEqual([]);
      const all = elements(page.body);
      const ids = new Set(all.map((el) => attr(el, 'id')).filter(Boolean));
      for (const el of all.filter((e) => e.tagName === 'a')) {
        const href = attr(el, 'href')!;
        if (href.startsWith('#'))
          expect(ids.has(href.slice(1)) || href === '#top', `${path}: ${href}`).toBe(true);
        else if (/^[\w-]+\.html$/.test(href)) expect(served, `${path}: ${href}`).toContain(href);
      }
      // Every section that stays has something besides its headings.
      for (const section of all.filter((e) => e.tagName === 'section'))
        expect(substance(section), `${path}: section ${attr(section, 'id')}`).toBe(true);
    }
    // The preview shows them (the builder's highlights), and, asked for the live view, not.
    const link = new URL((await api.get(`/api/v1/projects/${p.id}/preview`)).body.preview_url);
    const preview = await fetchSite(port, link.host, link.pathname);
    expect(preview.body).toContain('data-sw-todo');
    const live = await fetchSite(port, link.host, `${link.pathname}?live=1`);
    expect(live.body).not.toContain('data-sw-todo');
    expect(live.body).toBe((await fetchSite(port, host, '/')).body);
    const leftOut = await api.ctx.services.publishing.leftOut(systemPrincipal(api.org.id), p.id);
    expect(leftOut.placeholders.length).toBe(todos.length);
    // The project's own files keep their placeholders, for the builder.
    const source = (await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content;
    expect(source).toBe(sources.get('index.html'));
  });
});

describe('withoutPlaceholders', () => {
  it('takes a card, an item or a section left with nothing real in it, and nothing else', () => {
    const page = `<main>
<section id="team"><h2>Team</h2><div class="grid"><article class="card"><svg></svg><h3 data-sw-todo>Add a name</h3><p data-sw-todo>Role</p></article></div></section>
<section id="menu"><h2>Menu</h2><article class="card"><h3>Breads</h3><p>Sourdough, rye</p><p data-sw-todo>Add more</p></article></section>
<ul><li><svg></svg><span data-sw-todo>Add your phone number</span></li><li><a href="mailto:a@b.example">a@b.example</a></li></ul>
<table><tr><th>Yoga</th><td data-sw-todo>Add a day</td></tr></table>
<details><summary>Parking?</summary><p data-sw-todo>Add an answer</p></details>
</main>`;
    const out = withoutPlaceholders(page);
    expect(out.leftOut).toEqual([
      'Add a name',
      'Role',
      'Add more',
      'Add your phone number',
      'Add a day',
      'Add an answer',
    ]);
    expect(out.removedIds).toEqual(['team']);
    expect(out.empty).toBe(false);
    expect(out.html).toBe(`<main>
<section id="menu"><h2>Menu</h2><article class="card"><h3>Breads</h3><p>Sourdough, rye</p></article></section>
<ul><li><a href="mailto:a@b.example">a@b.example</a></li></ul>
<table><tr><th>Yoga</th><td></td></tr></table>
</main>`);
    const links = withoutPlaceholders(
      '<nav><ul><li><a href="#team">Team</a></li><li><a href="a.html">A</a></li></ul></nav>',
      (href) => href === '#team',
    );
    expect(links.html).toBe('<nav><ul><li><a href="a.html">A</a></li></ul></nav>');
    expect(withoutPlaceholders('<main><section><h2>x</h2><p data-sw-todo>y</p></section></main>').empty).toBe(
      true,
    );
  });
});

describe('planPlaceholders', () => {
  it('finds every link to a page or section that went, however it is written, and keeps words in sentences', async () => {
    const pages = new Map<string, string>([
      [
        'index.html',
        '<main><section id="team"><h2>Team</h2><p data-sw-todo>Add names</p></section><p>Hello</p></main>',
      ],
      ['services/empty.html', '<main><section><h2>Empty</h2><p data-sw-todo>Add text</p></section></main>'],
      [
        'services/index.html',
        `<nav><ul><li><a href="empty.html">Empty</a></li><li><a href="./empty.html#x">Again</a></li><li><a href="/#team">Team</a></li><li><a href="../">Home</a></li></ul></nav>
<main><p>Read <a href="../index.html#team">about the team</a> or <a href="/services/">this</a>.</p><p class="actions"><a class="button" href="/services/empty.html">Go</a></p></main>`,
      ],
      [
        'legacy.htm',
        '<main><table><tr><td data-sw-todo><span data-sw-todo>Add</span></td><td data-sw-todo>x<td>y</table></main>',
      ],
    ]);
    const plan = await planPlaceholders(
      [...pages.keys()],
      async (path) => pages.get(path) ?? null,
      '404.html',
    );
    expect(plan.pages).toEqual(['services/empty.html']);
    const services = plan.page('services/index.html', pages.get('services/index.html')!);
    expect(services).toBe(`<nav><ul><li><a href="../">Home</a></li></ul></nav>
<main><p>Read about the team or <a href="/services/">this</a>.</p></main>`);
    // A cell inside a cell's placeholder, and a cell without its end tag, are emptied without harm.
    const legacy = plan.page('legacy.htm', pages.get('legacy.htm')!);
    expect(legacy).toBe('<main><table><tr><td></td><td><td>y</table></main>');
  });
});
