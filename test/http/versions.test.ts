// Versions and deployments through the REST API: every change to the files is a version, any
// version can be read and restored, every publish is a deployment naming its version, and an
// earlier deployment can be put live again at once.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const api = useTestApi(
  { SITES_DOMAIN: 'sites.test', GENERATION_POLL_INTERVAL: '50ms' },
  { generationWorker: true },
);
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

async function project(name = 'Versions') {
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name });
  return { id: p.id as string, host: `${p.subdomain}.sites.test` };
}

const put = (projectId: string, path: string, content: string, key?: string) =>
  api.put(`/api/v1/projects/${projectId}/files/${path}`, { content }, key ? { key } : {});
const versionsOf = async (projectId: string) =>
  (await api.get(`/api/v1/projects/${projectId}/versions?limit=100`)).body;

async function generated(projectId: string, prompt: string) {
  const { id } = (await api.post(`/api/v1/projects/${projectId}/generate`, { prompt })).body.generation;
  for (let i = 0; i < 400; i++) {
    const { generation } = (await api.get(`/api/v1/projects/${projectId}/generations/${id}`)).body;
    if (generation.status === 'succeeded') return generation;
    if (generation.status === 'failed') throw new Error(generation.error);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('generation did not finish');
}

describe('versions', () => {
  it('makes one version per request that changes the files, newest first, with its author', async () => {
    const p = await project();
    expect(await versionsOf(p.id)).toEqual({ versions: [], total: 0 });
    expect((await put(p.id, 'index.html', '<h1>One</h1>')).status).toBe(201);
    expect((await put(p.id, 'index.html', '<h1>One</h1>')).status).toBe(200); // same content: nothing changed
    await put(p.id, 'style.css', 'h1{color:red}');
    expect((await api.delete(`/api/v1/projects/${p.id}/files/style.css`)).status).toBe(200);
    const { versions, total } = await versionsOf(p.id);
    expect(total).toBe(3);
    expect(versions.map((v: { number: number }) => v.number)).toEqual([3, 2, 1]);
    expect(versions.map((v: { summary: string }) => v.summary)).toEqual([
      'Deleted style.css',
      'Added style.css',
      'Added index.html',
    ]);
    expect(versions[0]).toMatchObject({
      source: 'files_api',
      generation_id: null,
      file_count: 1,
      size: 12,
      author: { type: 'api_key', name: 'rw' },
    });
    expect(versions[1]).toMatchObject({ file_count: 2, size: 12 + 13 });
    const page = (await api.get(`/api/v1/projects/${p.id}/versions?limit=1&offset=1`)).body;
    expect(page.total).toBe(3);
    expect(page.versions.map((v: { number: number }) => v.number)).toEqual([2]);
  });

  it('keeps every version readable, and restores one as a new version', async () => {
    const p = await project();
    await put(p.id, 'index.html', '<h1>First</h1>');
    await put(p.id, 'about.html', '<p>About</p>');
    await put(p.id, 'index.html', '<h1>Second</h1>');
    const [latest, , first] = (await versionsOf(p.id)).versions;
    const detail = (await api.get(`/api/v1/projects/${p.id}/versions/${first.id}`)).body.version;
    expect(detail.files.map((f: { path: string }) => f.path)).toEqual(['index.html']);
    const old = (await api.get(`/api/v1/projects/${p.id}/versions/${first.id}/files/index.html`)).body.file;
    expect(old).toMatchObject({ path: 'index.html', content: '<h1>First</h1>', encoding: 'utf8' });
    expect((await api.get(`/api/v1/projects/${p.id}/versions/${first.id}/files/about.html`)).status).toBe(
      404,
    );

    const restored = await api.post(`/api/v1/projects/${p.id}/versions/${first.id}/restore`);
    expect(restored.status).toBe(201);
    expect(restored.body.version).toMatchObject({
      number: 4,
      source: 'restore',
      summary: 'Restored version 1',
      file_count: 1,
    });
    const files = (await api.get(`/api/v1/projects/${p.id}/files`)).body.files;
    expect(files.map((f: { path: string }) => f.path)).toEqual(['index.html']);
    expect((await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content).toBe(
      '<h1>First</h1>',
    );
    // Nothing was lost: the version restored over is still there.
    expect(
      (await api.get(`/api/v1/projects/${p.id}/versions/${latest.id}/files/index.html`)).body.file.content,
    ).toBe('<h1>Second</h1>');
    expect((await versionsOf(p.id)).total).toBe(4);
  });

  it('records a generation as a version naming it, and a project made from a template as its first version', async () => {
    const p = await project('Bakery');
    const generation = await generated(p.id, 'A website for a bakery in Bristol');
    const [version] = (await versionsOf(p.id)).versions;
    expect(version).toMatchObject({
      number: 1,
      source: 'generation',
      generation_id: generation.id,
      summary: generation.summary,
      author: { type: 'api_key', name: 'rw' },
    });
    expect(version.file_count).toBe(generation.files.length);

    const template = (
      await api.post('/api/v1/templates', { name: 'Bakery template', source_project_id: p.id })
    ).body.template;
    const client = await createClient(api);
    const copy = await createProject(api, {
      client_email: client.email,
      name: 'From template',
      template_id: template.id,
    });
    const copied = (await versionsOf(copy.id)).versions;
    expect(copied).toHaveLength(1);
    expect(copied[0]).toMatchObject({
      number: 1,
      source: 'template',
      summary: "Started from the template 'Bakery template'",
      file_count: version.file_count,
    });
  });

  it('answers 404 for another organization’s project, version and file, and 400 for a bad id', async () => {
    const p = await project();
    await put(p.id, 'index.html', '<h1>Mine</h1>');
    const [version] = (await versionsOf(p.id)).versions;
    const other = await api.newOrg('Other');
    for (const url of [
      `/api/v1/projects/${p.id}/versions`,
      `/api/v1/projects/${p.id}/versions/${version.id}`,
      `/api/v1/projects/${p.id}/versions/${version.id}/files/index.html`,
    ]) {
      expect((await api.get(url, { key: other.key })).status).toBe(404);
    }
    expect(
      (
        await api.post(`/api/v1/projects/${p.id}/versions/${version.id}/restore`, undefined, {
          key: other.key,
        })
      ).status,
    ).toBe(404);
    // A version of another project of the same organization is not this project's.
    const q = await project('Second');
    expect((await api.get(`/api/v1/projects/${q.id}/versions/${version.id}`)).status).toBe(404);
    expect((await api.post(`/api/v1/projects/${q.id}/versions/${version.id}/restore`)).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${p.id}/versions/not-a-uuid`)).status).toBe(400);
    expect(
      (
        await api.post(`/api/v1/projects/${p.id}/versions/${version.id}/restore`, undefined, {
          key: api.readKey,
        })
      ).status,
    ).toBe(403);
  });

  it('stores a version as the files it changed: 1,000 versions of a 50-file site stay small', async () => {
    const p = await project('Big history');
    const { files } = api.ctx.services;
    const page = (i: number, n: number) =>
      `<!doctype html><title>Page ${i}</title><main>${`Revision ${n} of page ${i}. `.repeat(40)}</main>`;
    for (let i = 0; i < 50; i++)
      await files.put(systemPrincipal(api.org.id), p.id, `page-${i}.html`, { content: page(i, 0) });
    const siteBytes = Array.from({ length: 50 }, (_, i) => page(i, 0).length).reduce((a, b) => a + b, 0);
    for (let n = 1; n <= 950; n++)
      await files.put(systemPrincipal(api.org.id), p.id, `page-${n % 50}.html`, { content: page(n % 50, n) });
    const { total } = await versionsOf(p.id);
    expect(total).toBe(1_000);
    const { db } = api.ctx.database;
    const stored = await db
      .selectFrom('blobs')
      .innerJoin('version_files', 'version_files.sha256', 'blobs.sha256')
      .innerJoin('versions', 'versions.id', 'version_files.version_id')
      .where('versions.project_id', '=', p.id)
      .select((eb) => eb.fn.count<number | string>('blobs.sha256').distinct().as('blobs'))
      .executeTakeFirstOrThrow();
    // 50 first files + 950 changed ones; a copy per version would be 1,000 x 50.
    expect(Number(stored.blobs)).toBe(1_000);
    const bytes = await db
      .selectFrom('blobs')
      .where(
        'sha256',
        'in',
        db
          .selectFrom('version_files')
          .innerJoin('versions', 'versions.id', 'version_files.version_id')
          .where('versions.project_id', '=', p.id)
          .select('version_files.sha256'),
      )
      .select((eb) => eb.fn.sum<number | string>('size').as('bytes'))
      .executeTakeFirstOrThrow();
    expect(Number(bytes.bytes)).toBeLessThan(siteBytes * 25); // ~20 sites' worth of changed pages; a copy per version would be 1,000
  }, 120_000);

  it('removes content only the deleted project held, and keeps what a template shares', async () => {
    const p = await project();
    await put(p.id, 'index.html', '<h1>Shared with a template</h1>');
    await put(p.id, 'only-mine.html', '<h1>Only in this project</h1>');
    await api.post('/api/v1/templates', { name: 'Keeps index', source_project_id: p.id });
    await put(p.id, 'only-mine.html', '<h1>Changed, only in this project</h1>');
    await api.post(`/api/v1/projects/${p.id}/publish`);
    const { db } = api.ctx.database;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('blobs')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect((await api.delete(`/api/v1/projects/${p.id}`)).status).toBe(200);
    // The changed only-mine.html went, with the sitemap.xml and robots.txt its publish wrote (they
    // name its address); the template still holds index.html and the first only-mine.html.
    expect(before - (await count())).toBe(3);
  });
});

describe('deployments', () => {
  it('names the version each publish served, and puts an earlier one live again at once', async () => {
    const p = await project();
    await put(p.id, 'index.html', '<h1>Launch</h1>');
    const first = (await api.post(`/api/v1/projects/${p.id}/publish`)).body;
    await put(p.id, 'index.html', '<h1>Redesign</h1>');
    const second = (await api.post(`/api/v1/projects/${p.id}/publish`)).body;
    expect((await fetchSite(port, p.host, '/')).body).toContain('Redesign');

    const { deployments, total } = (await api.get(`/api/v1/projects/${p.id}/deployments`)).body;
    expect(total).toBe(2);
    expect(deployments.map((d: { id: string }) => d.id)).toEqual([second.deployId, first.deployId]);
    // index.html, and the sitemap.xml and robots.txt publishing writes.
    expect(deployments[0]).toMatchObject({ live: true, version_number: 2, file_count: 3 });
    expect(deployments[1]).toMatchObject({ live: false, version_number: 1 });
    const v1 = (await versionsOf(p.id)).versions.find((v: { number: number }) => v.number === 1);
    expect(deployments[1].version_id).toBe(v1.id);

    const promoted = await api.post(`/api/v1/projects/${p.id}/deployments/${first.deployId}/promote`);
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ deployId: first.deployId, status: 'ready', url: second.url });
    expect(Date.parse(promoted.body.project.last_published_at)).toBeGreaterThanOrEqual(
      Date.parse(second.project.last_published_at),
    );
    expect((await fetchSite(port, p.host, '/')).body).toContain('Launch');
    const after = (await api.get(`/api/v1/projects/${p.id}/deployments`)).body.deployments;
    expect(after.map((d: { live: boolean }) => d.live)).toEqual([false, true]);
    // The project's files are untouched by a rollback.
    expect((await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content).toBe(
      '<h1>Redesign</h1>',
    );
    const events = await api.ctx.database.db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('org_id', '=', api.org.id)
      .where('type', '=', 'project.published')
      .execute();
    expect(events.filter((e) => String(e.payload).includes(first.deployId))).toHaveLength(2);
  });

  it('publishes builtFiles as a deployment of no version, and refuses other projects’ deployments', async () => {
    const p = await project();
    const built = (
      await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': '<h1>Built</h1>' } })
    ).body;
    const [deployment] = (await api.get(`/api/v1/projects/${p.id}/deployments`)).body.deployments;
    expect(deployment).toMatchObject({
      id: built.deployId,
      version_id: null,
      version_number: null,
      live: true,
    });
    const q = await project('Other project');
    expect((await api.post(`/api/v1/projects/${q.id}/deployments/${built.deployId}/promote`)).status).toBe(
      404,
    );
    const other = await api.newOrg('Elsewhere');
    expect((await api.get(`/api/v1/projects/${p.id}/deployments`, { key: other.key })).status).toBe(404);
    expect(
      (
        await api.post(`/api/v1/projects/${p.id}/deployments/${built.deployId}/promote`, undefined, {
          key: other.key,
        })
      ).status,
    ).toBe(404);
  });
});
