// The files API: round trips of text and binary content, paths, limits, permissions, scoping.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject, OTHER_UUID } from '../../helpers/fixtures.ts';
import { tinyPng } from '../../helpers/images.ts';

const api = useTestApi({ FILE_MAX_BYTES: '2000', PROJECT_MAX_BYTES: '5000', PROJECT_MAX_FILES: '4' });

async function project(key?: string) {
  const client = await createClient(api, {}, key);
  return createProject(api, { client_email: client.email, name: 'Files site' }, key);
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const fileCount = async (projectId: string) =>
  (
    await api.ctx.database.db
      .selectFrom('project_files')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow()
  ).n;

describe('project files', () => {
  it('creates, reads, replaces, lists and deletes a text file', async () => {
    const p = await project();
    const html = '<!doctype html><h1>Héllo “world”</h1>';
    const created = await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: html });
    expect(created.status).toBe(201);
    expect(created.body.file).toEqual({
      path: 'index.html',
      size: Buffer.byteLength(html),
      content_type: 'text/html; charset=utf-8',
      sha256: sha(Buffer.from(html)),
      updated_at: expect.any(String),
    });
    const read = await api.get(`/api/v1/projects/${p.id}/files/index.html`);
    expect(read.body.file).toMatchObject({ path: 'index.html', content: html, encoding: 'utf8' });

    const replaced = await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: 'v2' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.file.size).toBe(2);
    await api.put(`/api/v1/projects/${p.id}/files/assets/site.css`, { content: 'body{}' });
    const list = await api.get(`/api/v1/projects/${p.id}/files`);
    expect(list.body.files.map((f: any) => f.path)).toEqual(['assets/site.css', 'index.html']);
    expect(list.body.files[0]).not.toHaveProperty('content');

    const deleted = await api.delete(`/api/v1/projects/${p.id}/files/assets/site.css`);
    expect(deleted.body).toEqual({ deleted: true, path: 'assets/site.css' });
    expect((await api.get(`/api/v1/projects/${p.id}/files/assets/site.css`)).status).toBe(404);
    expect((await api.delete(`/api/v1/projects/${p.id}/files/assets/site.css`)).status).toBe(404);
  });

  it('round-trips binary content as base64, byte for byte', async () => {
    const p = await project();
    const png = await tinyPng();
    const res = await api.put(`/api/v1/projects/${p.id}/files/img/logo.png`, {
      content: png.toString('base64'),
      encoding: 'base64',
    });
    expect(res.status).toBe(201);
    expect(res.body.file).toMatchObject({ content_type: 'image/png', size: png.length, sha256: sha(png) });
    const read = await api.get(`/api/v1/projects/${p.id}/files/img/logo.png`);
    expect(read.body.file.encoding).toBe('base64');
    expect(Buffer.from(read.body.file.content, 'base64').equals(png)).toBe(true);
    const bad = await api.put(`/api/v1/projects/${p.id}/files/img/x.png`, {
      content: 'not base64!!',
      encoding: 'base64',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('base64');
  });

  it('normalises paths and refuses unsafe ones, storing nothing', async () => {
    const p = await project();
    const ok = await api.put(`/api/v1/projects/${p.id}/files/about//index.html`, { content: 'x' });
    expect(ok.body.file.path).toBe('about/index.html');
    for (const bad of [
      '..%2Fsecret.txt',
      'a%2F..%2F..%2Fb.txt',
      '%2Fetc%2Fpasswd',
      'a%00b.txt',
      '.env',
      'a%5Cb.txt',
      'sp%20ace.html',
      `${'a'.repeat(101)}.txt`,
      'dir/',
    ]) {
      const res = await api.put(`/api/v1/projects/${p.id}/files/${bad}`, { content: 'x' });
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toMatch(/^path '/);
    }
    expect(
      (await api.put(`/api/v1/projects/${p.id}/files/.well-known/security.txt`, { content: 'x' })).status,
    ).toBe(201);
    // Dot segments spelled with percent-escapes are resolved by the URL layer: never outside the project.
    const dotted = await api.put(`/api/v1/projects/${p.id}/files/a/%2E%2E/b.txt`, { content: 'x' });
    expect(dotted.body.file.path).not.toContain('..');
    const paths = (await api.get(`/api/v1/projects/${p.id}/files`)).body.files.map((f: any) => f.path);
    expect(paths.every((path: string) => !path.includes('..') && !path.startsWith('/'))).toBe(true);
    expect(paths).toHaveLength(3);
  });

  it('enforces the per-file, per-project size and count limits with messages naming them', async () => {
    const p = await project();
    const big = await api.put(`/api/v1/projects/${p.id}/files/big.txt`, { content: 'x'.repeat(2001) });
    expect(big.status).toBe(413);
    expect(big.body.error).toContain('FILE_MAX_BYTES = 2000');
    for (const n of [1, 2])
      expect(
        (await api.put(`/api/v1/projects/${p.id}/files/f${n}.txt`, { content: 'x'.repeat(2000) })).status,
      ).toBe(201);
    const total = await api.put(`/api/v1/projects/${p.id}/files/f3.txt`, { content: 'x'.repeat(1500) });
    expect(total.status).toBe(413);
    expect(total.body.error).toContain('PROJECT_MAX_BYTES = 5000');
    // Replacing a file counts its new size, not both.
    expect(
      (await api.put(`/api/v1/projects/${p.id}/files/f1.txt`, { content: 'x'.repeat(1000) })).status,
    ).toBe(200);
    for (const n of [3, 4])
      expect((await api.put(`/api/v1/projects/${p.id}/files/g${n}.txt`, { content: 'y' })).status).toBe(201);
    const count = await api.put(`/api/v1/projects/${p.id}/files/g5.txt`, { content: 'y' });
    expect(count.status).toBe(400);
    expect(count.body.error).toContain('PROJECT_MAX_FILES = 4');
    expect(Number(await fileCount(p.id))).toBe(4);
    const read = await api.get(`/api/v1/projects/${p.id}/files/f1.txt`);
    expect(read.body.file.size).toBe(1000);
  });

  it('needs write to change files and read to see them; other organizations get 404', async () => {
    const p = await project();
    expect(
      (await api.put(`/api/v1/projects/${p.id}/files/a.txt`, { content: 'x' }, { key: api.readKey })).status,
    ).toBe(403);
    expect(
      (await api.put(`/api/v1/projects/${p.id}/files/a.txt`, { content: 'x' }, { key: api.writeKey })).status,
    ).toBe(201);
    expect((await api.get(`/api/v1/projects/${p.id}/files`, { key: api.writeKey })).status).toBe(403);
    expect((await api.get(`/api/v1/projects/${p.id}/files/a.txt`, { key: api.readKey })).status).toBe(200);

    const other = await api.newOrg('Other');
    for (const [method, url] of [
      ['GET', `/api/v1/projects/${p.id}/files`],
      ['GET', `/api/v1/projects/${p.id}/files/a.txt`],
      ['DELETE', `/api/v1/projects/${p.id}/files/a.txt`],
      ['GET', `/api/v1/projects/${p.id}/export`],
      ['GET', `/api/v1/projects/${OTHER_UUID}/files`],
    ] as const) {
      const res = await api.request(method, url, undefined, { key: other.key });
      expect(res.status, url).toBe(404);
    }
    const put = await api.put(`/api/v1/projects/${p.id}/files/b.txt`, { content: 'x' }, { key: other.key });
    expect(put.status).toBe(404);
    expect(Number(await fileCount(p.id))).toBe(1);
  });

  it('refuses unknown body fields and a body over the route limit with JSON errors', async () => {
    const p = await project();
    const unknown = await api.put(`/api/v1/projects/${p.id}/files/a.txt`, { content: 'x', mode: '0644' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('mode');
    const huge = await api.put(`/api/v1/projects/${p.id}/files/a.txt`, { content: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: expect.any(String) });
  });

  it('removes the files with the project', async () => {
    const p = await project();
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: 'x' });
    expect((await api.delete(`/api/v1/projects/${p.id}`)).status).toBe(200);
    expect(Number(await fileCount(p.id))).toBe(0);
  });
});
