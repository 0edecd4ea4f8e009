// Uploads over real sockets: a file sent as raw bytes, a whole site sent as a zip or a tar read
// as it streams in (published like builtFiles, refused whole when any file breaks a rule, leaving
// nothing stored), and the bound on large bodies received at once (503 with Retry-After).
import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { pack } from 'tar-stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { pngBomb, tinyPng } from '../helpers/images.ts';

const api = useTestApi({
  SITES_DOMAIN: 'sites.test',
  FILE_MAX_BYTES: '300000',
  PROJECT_MAX_BYTES: '3000000',
  LARGE_UPLOADS_AT_ONCE: '2',
});
let port = 0;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

async function site() {
  const client = await createClient(api);
  return createProject(api, { client_email: client.email, name: 'Upload Site' });
}

async function send(method: string, path: string, type: string, body: Uint8Array) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${api.key}`, 'content-type': type },
    body: body as unknown as BodyInit,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const page = (title: string) =>
  `<!doctype html><html lang="en"><title>${title}</title><h1>${title}</h1></html>`;
const PNG = await tinyPng();

function tar(files: Record<string, string | Buffer>, links: Record<string, string> = {}): Promise<Buffer> {
  const archive = pack();
  for (const [name, content] of Object.entries(files)) archive.entry({ name }, content);
  for (const [name, linkname] of Object.entries(links)) archive.entry({ name, type: 'symlink', linkname });
  archive.finalize();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    archive.on('data', (c: unknown) => chunks.push(c as Buffer));
    archive.on('end', () => resolve(Buffer.concat(chunks)));
    archive.on('error', reject);
  });
}

const staged = async () =>
  (await api.ctx.database.db.selectFrom('upload_files').select('path').execute()).length;
const host = (p: { subdomain: string }) => `${p.subdomain}.sites.test`;

describe('PUT /projects/{id}/files/{path} with raw bytes', () => {
  it('stores the bytes as sent, binary or text, and answers like the JSON form', async () => {
    const p = await site();
    const created = await send(
      'PUT',
      `/projects/${p.id}/files/img/logo.png`,
      'application/octet-stream',
      PNG,
    );
    expect(created.status).toBe(201);
    expect(created.body.file).toMatchObject({ path: 'img/logo.png', size: PNG.length });
    const read = await api.get(`/api/v1/projects/${p.id}/files/img/logo.png`);
    expect(read.body.file).toMatchObject({ encoding: 'base64', content: PNG.toString('base64') });

    const text = Buffer.from('body { color: #123; } /* é */');
    const css = await send('PUT', `/projects/${p.id}/files/site.css`, 'application/octet-stream', text);
    expect(css.status).toBe(201);
    const again = await send('PUT', `/projects/${p.id}/files/site.css`, 'application/octet-stream', text);
    expect(again.status).toBe(200);
    expect((await api.get(`/api/v1/projects/${p.id}/files/site.css`)).body.file).toMatchObject({
      encoding: 'utf8',
      content: text.toString('utf8'),
    });
  });

  it('refuses a file over FILE_MAX_BYTES with 413 and stores nothing', async () => {
    const p = await site();
    const big = Buffer.alloc(300_001, 1);
    const res = await send('PUT', `/projects/${p.id}/files/big.bin`, 'application/octet-stream', big);
    expect(res.status).toBe(413);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await api.get(`/api/v1/projects/${p.id}/files/big.bin`)).status).toBe(404);
  });

  it('names the types it takes when sent another one', async () => {
    const p = await site();
    const res = await send('PUT', `/projects/${p.id}/files/a.txt`, 'text/plain', Buffer.from('a'));
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'Content-Type must be application/json or application/octet-stream' });
  });
});

describe('POST /projects/{id}/publish with an archive', () => {
  it('publishes a zip of one folder as the site, binary files too, leaving desktop clutter out', async () => {
    const p = await site();
    const zip = zipSync({
      'dist/index.html': Buffer.from(page('Home')),
      'dist/about/index.html': Buffer.from(page('About')),
      'dist/img/logo.png': [PNG, { level: 0 }],
      'dist/.DS_Store': Buffer.from('junk'),
      '__MACOSX/dist/._index.html': Buffer.from('junk'),
    });
    const res = await send('POST', `/projects/${p.id}/publish`, 'application/zip', zip);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready', project: { id: p.id } });
    expect((await fetchSite(port, host(p), '/')).body).toContain('<h1>Home</h1>');
    expect((await fetchSite(port, host(p), '/about/')).body).toContain('<h1>About</h1>');
    const logo = await fetchSite(port, host(p), '/img/logo.png');
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    const deployments = await api.get(`/api/v1/projects/${p.id}/deployments`);
    // The three files, and the sitemap.xml and robots.txt publishing adds.
    expect(deployments.body.deployments[0]).toMatchObject({ file_count: 5, version_id: null, live: true });
    expect(await staged()).toBe(0);
  });

  it('publishes a tar and a gzip-compressed tar', async () => {
    const p = await site();
    const plain = await tar({ 'index.html': page('Tar'), 'css/site.css': 'h1{color:red}' });
    expect((await send('POST', `/projects/${p.id}/publish`, 'application/x-tar', plain)).status).toBe(200);
    expect((await fetchSite(port, host(p), '/')).body).toContain('<h1>Tar</h1>');
    const gz = gzipSync(await tar({ './index.html': page('Gzipped'), './logo.png': PNG }));
    const res = await send('POST', `/projects/${p.id}/publish`, 'application/gzip', gz);
    expect(res.status).toBe(200);
    expect((await fetchSite(port, host(p), '/')).body).toContain('<h1>Gzipped</h1>');
    expect((await fetchSite(port, host(p), '/css/site.css')).status).toBe(404);
  });

  it('refuses a whole archive for one bad file, keeping the live site and storing nothing', async () => {
    const p = await site();
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': page('Live') } });
    const hidden = zipSync({ 'index.html': Buffer.from(page('New')), '.env': Buffer.from('SECRET=1') });
    const res = await send('POST', `/projects/${p.id}/publish`, 'application/zip', hidden);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("archive path '.env'");
    const bomb = zipSync({ 'index.html': Buffer.from(page('New')), 'zeros.txt': Buffer.alloc(2_000_000) });
    expect(bomb.length).toBeLessThan(20_000);
    const tooBig = await send('POST', `/projects/${p.id}/publish`, 'application/zip', bomb);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toContain('FILE_MAX_BYTES');
    // A picture that would unpack to 64 megapixels, in a few KiB: refused by its header.
    const pictureBomb = zipSync({ 'index.html': Buffer.from(page('New')), 'big.png': pngBomb(8000) });
    const unpacked = await send('POST', `/projects/${p.id}/publish`, 'application/zip', pictureBomb);
    expect(unpacked.status).toBe(413);
    expect(unpacked.body.error).toContain('IMAGE_MAX_PIXELS');
    const link = await tar({ 'index.html': page('New') }, { 'passwd.html': '/etc/passwd' });
    const linked = await send('POST', `/projects/${p.id}/publish`, 'application/x-tar', link);
    expect(linked.status).toBe(400);
    expect(linked.body.error).toContain("'passwd.html' is a symlink");
    const noIndex = zipSync({ 'about.html': Buffer.from(page('About')) });
    const missing = await send('POST', `/projects/${p.id}/publish`, 'application/zip', noIndex);
    expect(missing).toMatchObject({ status: 400, body: { error: expect.stringContaining('index.html') } });
    expect((await fetchSite(port, host(p), '/')).body).toContain('<h1>Live</h1>');
    expect(await staged()).toBe(0);
  });

  it('refuses a body that is not the archive its type says', async () => {
    const p = await site();
    const res = await send('POST', `/projects/${p.id}/publish`, 'application/zip', Buffer.from(page('x')));
    expect(res).toMatchObject({ status: 400, body: { error: 'The body is not a zip archive' } });
    const tarred = await send('POST', `/projects/${p.id}/publish`, 'application/gzip', Buffer.from('nope'));
    expect(tarred.status).toBe(400);
    expect(tarred.body.error).toMatch(/^The body is not a readable tar archive/);
  });

  it('refuses an archive declared larger than a publish may send before reading it, and an empty one', async () => {
    const p = await site();
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          `POST /api/v1/projects/${p.id}/publish HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${api.key}\r\n` +
            'Content-Type: application/zip\r\nContent-Length: 100000000\r\n\r\nPK',
        ),
      );
      socket.on('data', (data) => (text += data.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.setTimeout(5_000, () => socket.destroy());
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('{"error":"Request body too large"}');
    const empty = await send('POST', `/projects/${p.id}/publish`, 'application/zip', Buffer.alloc(0));
    expect(empty).toMatchObject({ status: 400, body: { error: 'The archive is empty' } });
    expect(await staged()).toBe(0);
  });

  it("answers 404 for another organization's project before storing anything", async () => {
    const p = await site();
    const other = await api.newOrg('Other');
    const zip = zipSync({ 'index.html': Buffer.from(page('Theirs')) });
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/projects/${p.id}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.key}`, 'content-type': 'application/zip' },
      body: zip as unknown as BodyInit,
    });
    expect(res.status).toBe(404);
    expect(await staged()).toBe(0);
  });
});

/** Opens a chunked upload and sends its first chunk, then waits; resolves with the socket and what came back so far. */
function openUpload(path: string): Promise<{ close: () => void; answer: () => string }> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/v1${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${api.key}\r\n` +
          'Content-Type: application/zip\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nPK\x03\x04\r\n',
      );
      setTimeout(() => resolve({ close: () => socket.destroy(), answer: () => answer }), 200);
    });
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('error', () => {});
  });
}

describe('large bodies at once', () => {
  it('serves LARGE_UPLOADS_AT_ONCE of them and answers one more 503 with Retry-After until one ends', async () => {
    const p = await site();
    const first = await openUpload(`/projects/${p.id}/publish`);
    const second = await openUpload(`/projects/${p.id}/publish`);
    const third = await openUpload(`/projects/${p.id}/publish`);
    expect(first.answer()).toBe('');
    expect(second.answer()).toBe('');
    expect(third.answer()).toMatch(/^HTTP\/1\.1 503 /);
    expect(third.answer().toLowerCase()).toContain('retry-after: 5');
    expect(third.answer()).toContain('Too many large uploads at once (LARGE_UPLOADS_AT_ONCE = 2)');
    // A small body never waits for a slot.
    expect(
      (await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'x' } })).status,
    ).toBe(200);
    first.close();
    second.close();
    third.close();
    await new Promise((r) => setTimeout(r, 100));
    const pads = Object.fromEntries(
      [1, 2, 3, 4, 5].map((n) => [`pad${n}.bin`, [Buffer.alloc(250_000, n), { level: 0 }] as const]),
    );
    const zip = zipSync({ 'index.html': Buffer.from(page('After')), ...pads });
    expect(zip.length).toBeGreaterThan(1024 * 1024);
    const res = await send('POST', `/projects/${p.id}/publish`, 'application/zip', zip);
    expect(res.status).toBe(200);
    expect(await staged()).toBe(0);
  });
});
