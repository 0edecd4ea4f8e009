// AI generation through the API with the builtin model: queued -> running -> succeeded with the
// files written, follow-up edits, the daily AI message limit, validation, scoping, and jobs that
// survive the death of their worker.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject, OTHER_UUID } from '../../helpers/fixtures.ts';
import { systemPrincipal } from '../../../src/modules/access/principal.ts';

const api = useTestApi({ GENERATION_POLL_INTERVAL: '50ms' }, { generationWorker: true });

async function project(fields: { plan_id?: string } = {}) {
  const client = await createClient(api, fields);
  return createProject(api, { client_email: client.email, name: 'AI site' });
}

async function finished(projectId: string, id: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { generation } = (await api.get(`/api/v1/projects/${projectId}/generations/${id}`)).body;
    if (generation.status === 'succeeded' || generation.status === 'failed') return generation;
    if (Date.now() > deadline) throw new Error(`generation still ${generation.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('POST /projects/{id}/generate', () => {
  it('queues a generation, then writes the site and records what it wrote', async () => {
    const p = await project();
    const res = await api.post(`/api/v1/projects/${p.id}/generate`, {
      prompt: "A site for Bella's Bakery in Lyon",
    });
    expect(res.status).toBe(202);
    expect(res.body.generation).toMatchObject({
      project_id: p.id,
      status: 'queued',
      prompt: "A site for Bella's Bakery in Lyon",
      model: 'builtin',
      files: null,
    });
    const done = await finished(p.id, res.body.generation.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      error: null,
      attempts: 1,
      files: ['.sitewright/builtin-brief.json', '404.html', 'index.html', 'styles.css'],
    });
    expect(done.summary).toContain("Bella's Bakery");
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    const index = (await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file;
    expect(index.content).toContain('Bella&#39;s Bakery');

    const list = await api.get(`/api/v1/projects/${p.id}/generations`);
    expect(list.body).toMatchObject({ total: 1, generations: [{ id: done.id, status: 'succeeded' }] });
  });

  it('edits the existing site on a follow-up prompt and fails clearly on one it cannot apply', async () => {
    const p = await project();
    await finished(
      p.id,
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'Acme Plumbing in Leeds' })).body
        .generation.id,
    );
    await api.put(`/api/v1/projects/${p.id}/files/logo.svg`, {
      content: '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    const edit = await finished(
      p.id,
      (
        await api.post(`/api/v1/projects/${p.id}/generate`, {
          prompt: 'Rename it to Leeds Pipe Co and add a pricing section',
        })
      ).body.generation.id,
    );
    expect(edit.status).toBe('succeeded');
    expect(edit.files).toContain('logo.svg');
    const html = (await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content;
    expect(html).toContain('Leeds Pipe Co');
    expect(html).toContain('id="pricing"');

    const before = (await api.get(`/api/v1/projects/${p.id}/files`)).body.files;
    const vague = await finished(
      p.id,
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'more whimsy please' })).body.generation
        .id,
    );
    expect(vague).toMatchObject({ status: 'failed', files: null });
    expect(vague.error).toContain('did not understand');
    expect((await api.get(`/api/v1/projects/${p.id}/files`)).body.files).toEqual(before);
  });

  it('enforces max_ai_messages_daily per client with 429 and Retry-After until midnight UTC, queuing nothing', async () => {
    const plan = (await api.post('/api/v1/plans', { name: 'Tiny', price: 1, max_ai_messages_daily: 2 })).body
      .plan;
    const p = await project({ plan_id: plan.id });
    const client = (await api.get(`/api/v1/clients/${p.org_client_id}`)).body.client;
    // Two first prompts of the client (each builds a site, so each counts).
    const second = (await api.post('/api/v1/projects', { client_email: client.email, name: 'Second bakery' }))
      .body.project;
    const sent = [];
    for (const [i, id] of [p.id, second.id].entries()) {
      const res = await api.post(`/api/v1/projects/${id}/generate`, {
        prompt: `A bakery in Leeds number ${i}`,
      });
      expect(res.status).toBe(202);
      sent.push([id, res.body.generation.id] as const);
    }
    const refused = await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'One more' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toContain('max_ai_messages_daily = 2');
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Math.abs(retryAfter - (midnight - Date.now()) / 1000)).toBeLessThan(5);
    expect((await api.get(`/api/v1/projects/${p.id}/generations`)).body.total).toBe(1);
    for (const [id, generation] of sent)
      expect(await finished(id, generation)).toMatchObject({ status: 'succeeded' });
    // Deleting the project does not give the client its messages back.
    expect((await api.delete(`/api/v1/projects/${p.id}`)).status).toBe(200);
    const again = (await api.post('/api/v1/projects', { client_email: client.email, name: 'Second site' }))
      .body.project;
    expect(
      (await api.post(`/api/v1/projects/${again.id}/generate`, { prompt: 'Still one more' })).status,
    ).toBe(429);
    // Another client of the same organization has its own quota.
    const q = await project({ plan_id: plan.id });
    expect((await api.post(`/api/v1/projects/${q.id}/generate`, { prompt: 'Mine' })).status).toBe(202);
  });

  it('does not count a request that is refused or changes nothing against the daily allowance', async () => {
    const plan = (await api.post('/api/v1/plans', { name: 'Small', price: 1, max_ai_messages_daily: 2 })).body
      .plan;
    const p = await project({ plan_id: plan.id });
    const used = async () =>
      (await api.ctx.services.generations.dailyAllowance(systemPrincipal(api.org.id), p.id))!.used;
    const run = async (prompt: string) =>
      finished(p.id, (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt })).body.generation.id);
    expect(await run('Acme Plumbing in Leeds')).toMatchObject({ status: 'succeeded' });
    expect(await used()).toBe(1);
    // Refused by the model (it did not understand): nothing changed, not counted.
    expect(await run('more whimsy please')).toMatchObject({ status: 'failed' });
    expect(await used()).toBe(1);
    // Understood, but the site is already so: no version, not counted, and the summary says why.
    const versions = (await api.get(`/api/v1/projects/${p.id}/versions`)).body.total;
    const same = await run('Rename it to Acme Plumbing');
    expect(same.status).toBe('succeeded');
    expect(same.summary).toContain('nothing changed, so this message was not counted');
    expect((await api.get(`/api/v1/projects/${p.id}/versions`)).body.total).toBe(versions);
    expect(await used()).toBe(1);
    // A page changed by hand, and a prompt the model will not render over: refused, not counted.
    const index = (await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content as string;
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, {
      content: index.replace('</main>', '<p>Mine</p></main>'),
    });
    expect(await run('Add a gallery')).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('changed in the code editor'),
    });
    expect(await used()).toBe(1);
    // What changes the site counts: the second message of the day, then the limit.
    expect(await run('Rename it to Leeds Pipe Co')).toMatchObject({ status: 'succeeded' });
    expect(await used()).toBe(2);
    expect((await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'One more' })).status).toBe(429);
  });

  it('validates the request and scopes it to the organization', async () => {
    const p = await project();
    const unknownModel = await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'x', model: 'gpt-9' });
    expect(unknownModel.status).toBe(400);
    expect(unknownModel.body.error).toBe("field 'model': unknown model 'gpt-9'; available: builtin");
    expect((await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: '' })).status).toBe(400);
    expect(
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'x', temperature: 1 })).status,
    ).toBe(400);
    expect(
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'x' }, { key: api.readKey })).status,
    ).toBe(403);
    expect((await api.post(`/api/v1/projects/${OTHER_UUID}/generate`, { prompt: 'x' })).status).toBe(404);
    const other = await api.newOrg('Other');
    const mine = (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'Cafe' })).body.generation;
    expect(
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'x' }, { key: other.key })).status,
    ).toBe(404);
    expect((await api.get(`/api/v1/projects/${p.id}/generations`, { key: other.key })).status).toBe(404);
    expect(
      (await api.get(`/api/v1/projects/${p.id}/generations/${mine.id}`, { key: other.key })).status,
    ).toBe(404);
    expect((await api.get(`/api/v1/projects/${p.id}/generations/${OTHER_UUID}`)).status).toBe(404);
  });

  it('takes over a job whose worker died (its lease ran out) and gives up after too many interruptions', async () => {
    const p = await project();
    const { db } = api.ctx.database;
    const past = new Date(Date.now() - 60_000).toISOString();
    const row = (id: string, attempts: number) => ({
      id,
      org_id: api.org.id,
      project_id: p.id,
      org_client_id: p.org_client_id,
      prompt: 'A site for Crashed Bakery',
      model: 'builtin',
      status: 'running' as const,
      error: null,
      summary: null,
      files: null,
      attempts,
      next_attempt_at: past,
      lease_until: past,
      lease_token: 'dead-worker',
      created_at: past,
      started_at: past,
      finished_at: null,
      updated_at: past,
    });
    const ids = ['01a20000-0000-7000-8000-000000000001', '01a20000-0000-7000-8000-000000000002'];
    await db
      .insertInto('generations')
      .values([row(ids[0]!, 1), row(ids[1]!, 3)])
      .execute();
    api.generationWorker!['loop'].wake();
    expect(await finished(p.id, ids[0]!)).toMatchObject({ status: 'succeeded', attempts: 2 });
    const gaveUp = await finished(p.id, ids[1]!);
    expect(gaveUp).toMatchObject({ status: 'failed' });
    expect(gaveUp.error).toContain('interrupted');
  });
});
