// The builder page and its actions, driven through app.inject as the people who use it: who may
// open it, prompts (plain form posts and the script's JSON) with the plan's daily limit, progress
// as server-sent events, stopping, saving files and text edits as versions of their author,
// restoring, publishing and rolling back, domains and export under the plan's rules.
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'parse5';
import { useTestApi } from '../helpers/app.ts';
import { LoopbackDns } from '../helpers/dns-server.ts';
import { createClient } from '../helpers/fixtures.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const dns = await new LoopbackDns().start();
afterAll(() => dns.stop());
const api = useTestApi(
  { SITES_DOMAIN: 'sites.test', GENERATION_POLL_INTERVAL: '25ms', DNS_SERVERS: dns.address },
  { generationWorker: true },
);

const member = () => PageSession.signIn(api.app, api.ctx, api.org.id, 'member');

async function planned(fields: Record<string, unknown>) {
  const plan = (
    await api.post('/api/v1/plans', { name: `Plan ${Math.random()}`, price: 10, max_sites: 5, ...fields })
  ).body.plan;
  const client = await createClient(api, { plan_id: plan.id });
  const created = await api.post('/api/v1/projects', { client_email: client.email, name: 'Luna Bakery' });
  return { plan, client, project: created.body.project, builderUrl: created.body.builder_url as string };
}

async function finished(projectId: string, generationId: string) {
  for (let i = 0; i < 400; i++) {
    const g = (await api.get(`/api/v1/projects/${projectId}/generations/${generationId}`)).body.generation;
    if (!['queued', 'running'].includes(g.status)) return g;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('generation did not finish');
}

describe('who may open the builder', () => {
  it('members of the organization and the project’s own client; signed out: sign in; anyone else: 404', async () => {
    const { client, project, builderUrl } = await planned({});
    const path = `/app/projects/${project.id}`;
    expect(builderUrl).toBe(`${api.ctx.config.publicUrl}${path}`);

    const signedOut = await api.app.inject({ method: 'GET', url: path });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);

    const page = await (await member()).get(path);
    expect(page.status).toBe(200);
    expect(page.body).toContain('action="/app/projects/' + project.id + '/generate"');
    expect(page.body).toContain('href="/projects/' + project.id + '"');
    // The preview is framed from its own origin, which the page's policy allows and nothing else.
    expect(String(page.headers['content-security-policy'])).toContain('frame-src http://preview.sites.test');

    const own = await PageSession.signInClient(api.app, api.ctx, api.org.id, client.id);
    const asClient = await own.get(path);
    expect(asClient.status).toBe(200);
    expect(asClient.body).toContain(`href="/portal/projects/${project.id}"`);

    const otherClient = await createClient(api);
    const stranger = await PageSession.signInClient(api.app, api.ctx, api.org.id, otherClient.id);
    expect((await stranger.get(path)).status).toBe(404);
    const otherOrg = await api.newOrg();
    const outsider = await PageSession.signIn(api.app, api.ctx, otherOrg.org.id, 'owner');
    expect((await outsider.get(path)).status).toBe(404);
    expect((await outsider.postJson(`${path}/generate`, { prompt: 'take it over' })).status).toBe(404);
    expect((await outsider.get(`${path}/state`)).status).toBe(404);
    expect((await (await member()).get('/app/projects/not-a-uuid')).status).toBe(404);

    // The preview pane alone, at the path the API hands out as embed_preview_path.
    const embedPath = (await api.get(`/api/v1/projects/${project.id}/preview`)).body.embed_preview_path;
    await api.put(`/api/v1/projects/${project.id}/files/index.html`, { content: '<h1>Hi</h1>' });
    const embed = await (await member()).get(embedPath);
    expect(embed.status).toBe(200);
    // The script makes the frame that carries the selection script (data-preview, ?edit=1) once it
    // listens to it; the frame in noscript is for browsers without scripts.
    expect(embed.body).toMatch(/data-preview="http:\/\/preview\.sites\.test\/[^"]+\?edit=1"/);
    expect(embed.body).toMatch(
      /<noscript><iframe id="preview" title="Preview of Luna Bakery" src="http:\/\/preview\.sites\.test\/[^"?]+"/,
    );
    expect(embed.body).not.toContain('prompt-form');
    expect((await outsider.get(embedPath)).status).toBe(404);
    expect((await api.app.inject({ method: 'GET', url: embedPath })).statusCode).toBe(303);
  });
});

describe('prompting in the builder', () => {
  it('queues a generation as the signed-in person, follows it as server-sent events, and shows it in the history', async () => {
    const { project } = await planned({ max_ai_messages_daily: 5 });
    const person = await member();
    const sent = await person.post(`/app/projects/${project.id}/generate`, {
      prompt: 'A bakery in Bristol with a menu',
    });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`/app/projects/${project.id}?tab=chat`);
    const [generation] = (await api.get(`/api/v1/projects/${project.id}/generations`)).body.generations;
    expect(generation.prompt).toBe('A bakery in Bristol with a menu');

    const stream = await api.app.inject({
      method: 'GET',
      url: `/app/projects/${project.id}/generations/${generation.id}/events`,
      headers: { cookie: person.cookieHeader() },
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.body).toMatch(/^id: 1\nevent: queued\n/);
    expect(stream.body).toContain('event: running');
    expect(stream.body).toContain('event: succeeded');
    // Resuming after the last event seen sends only what came after it.
    const resumed = await api.app.inject({
      method: 'GET',
      url: `/app/projects/${project.id}/generations/${generation.id}/events`,
      headers: { cookie: person.cookieHeader(), 'last-event-id': '1' },
    });
    expect(resumed.body).not.toContain('event: queued');
    expect(resumed.body).toContain('event: succeeded');

    const versions = (await api.get(`/api/v1/projects/${project.id}/versions`)).body.versions;
    expect(versions[0]).toMatchObject({ source: 'generation', author: { type: 'user', id: person.user.id } });
    const page = visibleText((await person.get(`/app/projects/${project.id}`)).body);
    expect(page).toContain('A bakery in Bristol with a menu');
    expect(page).toContain('AI messages today: 1 of 5');
    expect(page).toContain('Version 1');
    // The generated site has named the project after the project, and asks for what it did not invent.
    const index = (await api.get(`/api/v1/projects/${project.id}/files/index.html`)).body.file
      .content as string;
    expect(index).toContain('Luna Bakery');
    const publishTab = visibleText((await person.get(`/app/projects/${project.id}?tab=publish`)).body);
    expect(publishTab).toMatch(/\d+ placeholders still to fill in/);
    expect(publishTab).toContain('Add your phone number');
    const published = await person.postJson(`/app/projects/${project.id}/publish`);
    expect(published.json.notice).toMatch(/placeholders were left out of the live site/);
    expect(publishTab).toContain('Preview as it will go live');
    expect(published.json.placeholders).toBeGreaterThan(0);
  });

  it('aims a prompt at the selected element, and refuses what the REST API refuses, as JSON', async () => {
    const { project } = await planned({});
    const person = await member();
    const aimed = await person.postJson(`/app/projects/${project.id}/generate`, {
      prompt: 'Make this friendlier',
      element_file: 'index.html',
      element_selector: 'html > body:nth-child(2) > h1:nth-child(1)',
      element_html: '<h1>Hi</h1>',
    });
    expect(aimed.status).toBe(200);
    expect(aimed.json.generation.status).toBe('queued');
    const row = await api.ctx.database.db
      .selectFrom('generations')
      .select('element')
      .where('id', '=', aimed.json.generation.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.element!)).toEqual({
      file: 'index.html',
      selector: 'html > body:nth-child(2) > h1:nth-child(1)',
      html: '<h1>Hi</h1>',
    });
    await finished(project.id, aimed.json.generation.id);

    expect(
      (await person.postJson(`/app/projects/${project.id}/generate`, { prompt: '' })).json.error,
    ).toMatch(/prompt/);
    expect(
      (await person.postJson(`/app/projects/${project.id}/generate`, { prompt: 'x'.repeat(50_001) })).status,
    ).toBe(400);
    const unknownModel = await person.postJson(`/app/projects/${project.id}/generate`, {
      prompt: 'x',
      model: 'gpt-9',
    });
    expect(unknownModel.status).toBe(400);
    expect(unknownModel.json.error).toMatch(/^Unknown model 'gpt-9'/); // in a person's words: no API field prefix
    // Without the CSRF token nothing happens.
    const forged = await api.app.inject({
      method: 'POST',
      url: `/app/projects/${project.id}/generate`,
      headers: { cookie: person.cookieHeader(), 'content-type': 'application/json' },
      payload: '{"prompt":"x"}',
    });
    expect(forged.statusCode).toBe(403);
  });

  it('meets the client plan’s daily AI limit exactly as the API does, and says so on the page', async () => {
    const { client, project } = await planned({ max_ai_messages_daily: 1 });
    const own = await PageSession.signInClient(api.app, api.ctx, api.org.id, client.id);
    const first = await own.postJson(`/app/projects/${project.id}/generate`, { prompt: 'A bakery' });
    expect(first.status).toBe(200);
    await finished(project.id, first.json.generation.id);
    const second = await own.postJson(`/app/projects/${project.id}/generate`, { prompt: 'Add a menu' });
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toMatch(/^\d+$/);
    expect(second.json.error).toMatch(/Daily AI message limit reached/);
    const page = visibleText((await own.get(`/app/projects/${project.id}`)).body);
    expect(page).toContain('AI messages today: 1 of 1');
    expect(page).toContain('0 left');
    expect(page).toContain('The daily limit is reached');
    // The page's counter follows the project's state after every message.
    const state = JSON.parse((await own.get(`/app/projects/${project.id}/state`)).body);
    expect(state.allowance).toMatchObject({
      limit: 1,
      used: 1,
      renews_at: expect.stringMatching(/T00:00:00\.000Z$/),
    });
    const viaApi = await api.post(`/api/v1/projects/${project.id}/generate`, { prompt: 'Add a menu' });
    expect(viaApi.status).toBe(429);
  });

  it('stops a queued generation: cancelled, no file changed; a finished one cannot be stopped', async () => {
    const { project } = await planned({});
    // The worker is paused so that the generation is still queued when it is stopped.
    await api.generationWorker!.stop(1_000);
    const person = await member();
    const asPerson = {
      ...systemPrincipal(api.org.id),
      actor: { kind: 'member' as const, userId: person.user.id },
    };
    const queued = await api.ctx.services.generations.create(asPerson, project.id, { prompt: 'slow one' });
    const stopped = await person.postJson(`/app/projects/${project.id}/generations/${queued.id}/cancel`);
    api.generationWorker!.start();
    expect(stopped.status).toBe(200);
    expect(stopped.json.generation.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 200));
    expect(
      (await api.get(`/api/v1/projects/${project.id}/generations/${queued.id}`)).body.generation.status,
    ).toBe('cancelled');
    expect((await api.get(`/api/v1/projects/${project.id}/files`)).body.files).toEqual([]);
    const again = await person.postJson(`/app/projects/${project.id}/generations/${queued.id}/cancel`);
    expect(again.status).toBe(409);
  });
});

describe('editing, versions and publishing in the builder', () => {
  it('saves code and in-place text edits as versions of their author, restores, publishes and rolls back', async () => {
    const { project } = await planned({ can_export_code: false, can_use_custom_domain: false });
    const person = await member();
    const base = `/app/projects/${project.id}`;
    const saved = await person.post(`${base}/files`, {
      path: 'index.html',
      content:
        '<!doctype html><html><head><title>Luna</title></head><body><h1>Luna Bakery</h1><p>Fresh bread</p></body></html>',
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${base}?tab=code&file=index.html`);

    const edited = await person.postJson(`${base}/text`, {
      file: 'index.html',
      selector: 'html > body:nth-child(2) > h1:nth-child(1)',
      text: 'Luna & Sons',
    });
    expect(edited.status).toBe(200);
    expect((await api.get(`/api/v1/projects/${project.id}/files/index.html`)).body.file.content).toContain(
      '<h1>Luna &amp; Sons</h1><p>Fresh bread</p>',
    );
    const gone = await person.postJson(`${base}/text`, {
      file: 'index.html',
      selector: 'html > body:nth-child(2) > h2:nth-child(1)',
      text: 'x',
    });
    expect(gone.status).toBe(400);
    expect(gone.json.error).toMatch(/no longer in the page/);

    const versions = (await api.get(`/api/v1/projects/${project.id}/versions`)).body.versions;
    expect(versions.map((v: any) => [v.number, v.source, v.summary, v.author?.id])).toEqual([
      [2, 'edit', 'Edited text in index.html', person.user.id],
      [1, 'edit', 'Added index.html', person.user.id],
    ]);

    // Publish version 2, restore version 1 and publish it, then roll back to the first deployment.
    expect((await person.post(`${base}/publish`)).status).toBe(303);
    expect((await person.post(`${base}/versions/${versions[1].id}/restore`)).location).toBe(
      `${base}?tab=versions`,
    );
    expect((await api.get(`/api/v1/projects/${project.id}/files/index.html`)).body.file.content).toContain(
      '<h1>Luna Bakery</h1>',
    );
    const published = await person.postJson(`${base}/publish`);
    expect(published.json.published.url).toBe(published.json.published.url);
    const deployments = (await api.get(`/api/v1/projects/${project.id}/deployments`)).body.deployments;
    expect(deployments.map((d: any) => [d.version_number, d.live])).toEqual([
      [3, true],
      [2, false],
    ]);
    const rolledBack = await person.postJson(`${base}/deployments/${deployments[1].id}/promote`);
    expect(rolledBack.status).toBe(200);
    expect(
      (await api.get(`/api/v1/projects/${project.id}/deployments`)).body.deployments.map((d: any) => d.live),
    ).toEqual([false, true]);

    const state = (await person.get(`${base}/state`)).body;
    expect(JSON.parse(state)).toMatchObject({ version: { number: 3, source: 'restore' } });

    // The plan's rules apply here as in the API.
    const domain = await person.postJson(`${base}/domains`, { domain: 'www.luna-bakery.co.uk' });
    expect(domain.status, domain.body).toBe(403);
    expect(domain.json.error).toMatch(/can_use_custom_domain/);
    expect((await person.get(`${base}/export.zip`)).status).toBe(403);
    // The Code panel says what the plan's can_export_code means: no download, the files still here.
    const codeTab = (await person.get(`${base}?tab=code`)).body;
    expect(codeTab).not.toContain('export.zip');
    expect(visibleText(codeTab)).toMatch(
      /The client’s plan “[^”]+” does not include downloading the code: the files can be viewed and edited here/,
    );
    expect(codeTab).toContain('data-file="index.html"');
    const page = visibleText((await person.get(`${base}?tab=publish`)).body);
    expect(page).toContain('Custom domains are not included in plan');
    expect(page).toMatch(/Version 3 · [^·]* Roll back to this/);
  });

  it('an in-place text edit never stops a later prompt, and the edit is kept', async () => {
    const { project } = await planned({ max_ai_messages_daily: 5 });
    const person = await member();
    const base = `/app/projects/${project.id}`;
    const built = await person.postJson(`${base}/generate`, {
      prompt: 'A bakery in Bristol called Luna Bakery',
    });
    expect(await finished(project.id, built.json.generation.id)).toMatchObject({ status: 'succeeded' });
    const index = (await api.get(`/api/v1/projects/${project.id}/files/index.html`)).body.file
      .content as string;
    // A navigation link (no data-sw key) and the introduction (a key whose text the page's description repeats).
    for (const [selector, text] of [
      [selectorOf(index, (el) => el.tagName === 'a' && el.parent === 'li'), 'Our bread'],
      [selectorOf(index, (el) => el.key === 'hero.text'), 'Sourdough since 2019.'],
    ]) {
      expect((await person.postJson(`${base}/text`, { file: 'index.html', selector, text })).status).toBe(
        200,
      );
    }
    const green = await person.postJson(`${base}/generate`, { prompt: 'Make it green' });
    const done = await finished(project.id, green.json.generation.id);
    expect(done.status, done.error).toBe('succeeded');
    const after = (await api.get(`/api/v1/projects/${project.id}/files/index.html`)).body.file
      .content as string;
    expect(after).toContain('>Our bread</a>');
    expect(after).toContain('>Sourdough since 2019.</p>');
    expect((await api.get(`/api/v1/projects/${project.id}/files/styles.css`)).body.file.content).toContain(
      '#15803d',
    );
  });

  it('adds and removes a custom domain when the plan allows it, and exports the code', async () => {
    const { project } = await planned({ can_export_code: true, can_use_custom_domain: true });
    const person = await member();
    const base = `/app/projects/${project.id}`;
    await person.post(`${base}/files`, { path: 'index.html', content: '<h1>Hi</h1>' });
    const added = await person.postJson(`${base}/domains`, { domain: 'www.luna-bakery.co.uk' });
    expect(added.status, added.body).toBe(200);
    const page = (await person.get(`${base}?tab=publish`)).body;
    expect(page).toContain('www.luna-bakery.co.uk');
    expect(page).toContain('CNAME');
    // Each name and value is text to select (the script adds the copy buttons); not checked yet is neutral.
    const [cname, txt] = added.json.domain.dns_records;
    expect(page).toContain(
      `<code class="dns-text" data-copy="the value of the CNAME record for www.luna-bakery.co.uk">${cname.value}</code>`,
    );
    expect(page).not.toMatch(/>Copy</);
    expect(page.match(/badge dns-unchecked/g)).toHaveLength(2);
    expect(page).not.toContain('dns-ok');

    // Verified with one record right and one missing: a warning, not a success, in both answers.
    dns.set(txt.name, { type: 'TXT', value: txt.value });
    const checked = await person.postJson(`${base}/domains/${added.json.domain.id}/verify`);
    expect(checked.json).toMatchObject({ tone: 'warning', notice: expect.stringContaining('not right yet') });
    const plain = await person.post(`${base}/domains/${added.json.domain.id}/verify`);
    expect(plain.location).toBe(`${base}?tab=publish&tone=warning`);
    const after = (await person.get(plain.location!)).body;
    expect(after).toMatch(
      /<span class="notice warning">www\.luna-bakery\.co\.uk: the DNS records are not right yet/,
    );
    expect(after).toMatch(/badge dns-missing">Not found</);
    expect(after).toMatch(/badge dns-ok">Found</);
    expect(after).toContain('badge pending">waiting for DNS');

    expect((await person.postJson(`${base}/domains/${added.json.domain.id}/delete`)).status).toBe(200);
    expect((await api.get(`/api/v1/projects/${project.id}/domains`)).body).toEqual([]);
    const zip = await person.get(`${base}/export.zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
  });
});

describe('form rules in the Settings tab', () => {
  it('lists the site’s forms and keeps each one’s recipients and visitor copy; defaults leave no rules', async () => {
    const { project } = await planned({});
    const person = await member();
    const base = `/app/projects/${project.id}`;
    await api.put(`/api/v1/projects/${project.id}/files/index.html`, {
      content:
        '<!doctype html><html><head><title>Luna</title></head><body><form action="/_forms/contact" method="post"></form><form action=\'_forms/booking/\' method="post"></form></body></html>',
    });
    const page = await person.get(`${base}?tab=settings`);
    expect(visibleText(page.body)).toContain('The form “booking”');
    expect(visibleText(page.body)).toContain('The form “contact”');
    const saved = await person.post(`${base}/site-settings`, {
      notify_client: 'on',
      form_names: ['booking', 'contact'],
      form_copy_contact: 'on',
      form_notify_booking: 'members\nowner@luna.test',
    });
    expect(saved.status).toBe(303);
    const rules = async () =>
      (await api.get(`/api/v1/projects/${project.id}/site-settings`)).body.site_settings.forms;
    expect(await rules()).toEqual({
      contact: { notify: null, visitor_copy: true },
      booking: { notify: ['members', 'owner@luna.test'], visitor_copy: false },
    });
    const shown = await person.get(`${base}?tab=settings`);
    expect(shown.body).toMatch(/name="form_copy_contact" checked/);
    expect(shown.body).toContain('members\nowner@luna.test</textarea>');
    const bad = await person.postJson(`${base}/site-settings`, {
      notify_client: 'on',
      form_names: 'booking',
      form_notify_booking: 'not an address',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain("'not an address' is not an email address");
    // `nobody` mails no one, and shows again as `nobody`.
    await person.post(`${base}/site-settings`, {
      notify_client: 'on',
      form_names: ['booking', 'contact'],
      form_notify_contact: 'nobody',
    });
    expect(await rules()).toEqual({ contact: { notify: [], visitor_copy: false } });
    expect((await person.get(`${base}?tab=settings`)).body).toContain('>nobody</textarea>');
    await person.post(`${base}/site-settings`, { notify_client: 'on', form_names: ['booking', 'contact'] });
    expect(await rules()).toEqual({});
  });
});

/** The selector the preview computes for the first element `match` accepts (see preview-edit.js). */
function selectorOf(
  html: string,
  match: (el: { tagName: string; parent: string; key: string | undefined }) => boolean,
): string {
  type El = { tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: El[] };
  const find = (node: El, path: string[]): string[] | undefined => {
    for (const [i, child] of (node.childNodes ?? []).filter((c) => c.tagName).entries()) {
      const here = [...path, `${child.tagName}:nth-child(${i + 1})`];
      if (
        match({
          tagName: child.tagName!,
          parent: node.tagName ?? '',
          key: child.attrs?.find((a) => a.name === 'data-sw')?.value,
        })
      )
        return here;
      const deeper = find(child, here);
      if (deeper) return deeper;
    }
    return undefined;
  };
  const found = find(parse(html) as El, []);
  if (!found) throw new Error('no such element');
  return ['html', ...found.slice(1)].join(' > ');
}
