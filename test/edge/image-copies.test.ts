// A site's raster images are served as copies: the width a page asks for (`?w=`, rounded up to
// the next stock width, never wider than the photo), in the best format the browser accepts,
// without the EXIF a phone wrote (where the photo was taken); made once and kept. The owner still
// downloads the original. Uploads that are no image of their name, or too large a picture (a
// decompression bomb), are refused with a clear error and nothing stored.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { described, photo, pngBomb, tinyPng } from '../helpers/images.ts';
import sharp from 'sharp';

const api = useTestApi({ SITES_DOMAIN: 'sites.test', IMAGE_MAX_PIXELS: '40000000' });
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

const AVIF = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const put = (projectId: string, path: string, bytes: Buffer) =>
  api.put(`/api/v1/projects/${projectId}/files/${path}`, {
    content: bytes.toString('base64'),
    encoding: 'base64',
  });

async function siteWith(files: Record<string, Buffer>) {
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name: 'Photos' });
  await api.put(`/api/v1/projects/${p.id}/files/index.html`, {
    content:
      '<!doctype html><html lang="en"><head><title>Photos</title></head><body><h1>Photos</h1></body></html>',
  });
  for (const [path, bytes] of Object.entries(files)) expect((await put(p.id, path, bytes)).status).toBe(201);
  expect((await api.post(`/api/v1/projects/${p.id}/publish`, {})).status).toBe(200);
  return { project: p, host: `${p.subdomain}.sites.test` };
}

describe('serving images', () => {
  it('sends copies by width and Accept, without EXIF, made once; the owner gets the original', async () => {
    const original = await photo(3000, 2000);
    expect((await described(original)).exif).toBe(true);
    const { project, host } = await siteWith({ 'images/beach.jpg': original });

    const full = await fetchSite(port, host, '/images/beach.jpg', { accept: AVIF });
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('image/avif');
    expect(full.headers.vary).toBe('Accept');
    expect(await described(full.bytes)).toEqual({ format: 'heif', width: 2560, height: 1707, exif: false });
    expect(full.bytes.length).toBeLessThan(original.length);

    const asked = await fetchSite(port, host, '/images/beach.jpg?w=600', { accept: 'image/webp,*/*' });
    expect(asked.headers['content-type']).toBe('image/webp');
    expect(await described(asked.bytes)).toEqual({ format: 'webp', width: 640, height: 427, exif: false });

    const plain = await fetchSite(port, host, '/images/beach.jpg?w=640');
    expect(plain.headers['content-type']).toBe('image/jpeg');
    expect(await described(plain.bytes)).toMatchObject({ format: 'jpeg', width: 640, exif: false });
    // No stock width above the photo's own: a wider ask gets the photo's width (capped at 2560).
    const wide = await fetchSite(port, host, '/images/beach.jpg?w=99999', { accept: 'image/webp' });
    expect((await described(wide.bytes)).width).toBe(2560);

    const again = await fetchSite(port, host, '/images/beach.jpg?w=600', {
      accept: 'image/webp,*/*',
      'if-none-match': String(asked.headers.etag),
    });
    expect(again.status).toBe(304);
    const kept = await api.ctx.database.db.selectFrom('image_variants').select(['width', 'format']).execute();
    expect(kept.map((k) => `${k.width} ${k.format}`).sort()).toEqual([
      '2560 avif',
      '2560 webp',
      '640 jpeg',
      '640 webp',
    ]);

    const bad = await fetchSite(port, host, '/images/beach.jpg?w=big');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('w must be a width');

    const owner = await api.get(`/api/v1/projects/${project.id}/files/images/beach.jpg`);
    expect(Buffer.from(owner.body.file.content, 'base64').equals(original)).toBe(true);

    // The copies go with the last version and deployment that hold the photo.
    expect((await api.delete(`/api/v1/projects/${project.id}`)).status).toBe(200);
    expect(await api.ctx.database.db.selectFrom('image_variants').select('width').execute()).toEqual([]);
  });

  it('serves copies in previews too, and a GIF as it is unless a width is asked', async () => {
    const gif = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c00' } })
      .gif()
      .toBuffer();
    const { project } = await siteWith({ 'a.gif': gif, 'p.png': await photo(1000, 500, 'png') });
    const link = new URL((await api.get(`/api/v1/projects/${project.id}/preview`)).body.preview_url);
    const base = link.pathname.replace(/\/?$/, '/');
    const as = await fetchSite(port, link.host, `${base}a.gif`, { accept: AVIF });
    expect(as.bytes.equals(gif)).toBe(true);
    const small = await fetchSite(port, link.host, `${base}a.gif?w=300`);
    expect(await described(small.bytes)).toMatchObject({ format: 'png', width: 320, height: 240 });
    const png = await fetchSite(port, link.host, `${base}p.png?w=480`, { accept: AVIF });
    expect(png.headers['content-type']).toBe('image/avif');
    expect(png.headers['x-robots-tag']).toBe('noindex');
  });
});

describe('generated pages', () => {
  it('publish their pictures with a srcset whose every copy is the width it says, and width and height', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Generated' });
    const notes = JSON.stringify({ name: 'Sea Studio', kind: 'photographer' });
    await api.put(`/api/v1/projects/${p.id}/files/.sitewright/builtin-brief.json`, { content: notes });
    const page = (body: string) =>
      `<!doctype html><html lang="en"><head><title>Sea</title></head><body><main>${body}</main></body></html>`;
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, {
      content: page(
        '<section class="hero"><img src="images/sea.jpg" alt="Sea" loading="lazy"></section><img src="images/sun.jpg" alt="Sun">',
      ),
    });
    await put(p.id, 'images/sea.jpg', await photo(1400, 700));
    await put(p.id, 'images/sun.jpg', await photo(700, 700));
    expect((await api.post(`/api/v1/projects/${p.id}/publish`, {})).status).toBe(200);
    const host = `${p.subdomain}.sites.test`;
    const home = (await fetchSite(port, host, '/')).body;
    const [sea, sun] = [...home.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(sea).toContain('width="1400" height="700" fetchpriority="high"');
    expect(sea).not.toContain('loading');
    expect(sun).toContain('width="700" height="700" loading="lazy"');
    const srcset = /srcset="([^"]+)"/.exec(sea!)![1]!;
    const candidates = srcset.split(', ').map((c) => c.split(' ') as [string, string]);
    expect(candidates.map(([, w]) => w)).toEqual(['320w', '480w', '640w', '800w', '960w', '1280w', '1400w']);
    // Publishing made the AVIF copies the pages ask for, before any visitor asked.
    const warmed = async () =>
      (await api.ctx.database.db.selectFrom('image_variants').select(['width', 'format']).execute())
        .filter((row) => row.format === 'avif')
        .map((row) => row.width);
    await expect
      .poll(warmed, { timeout: 20_000 })
      .toEqual(expect.arrayContaining([320, 480, 640, 800, 960, 1280, 1400, 700]));
    for (const [url, w] of candidates) {
      const copy = await fetchSite(port, host, `/${url}`, { accept: AVIF });
      expect((await described(copy.bytes)).width, url).toBe(Number(w.slice(0, -1)));
    }
    // The preview shows the page as it will go live, images included.
    const link = new URL((await api.get(`/api/v1/projects/${p.id}/preview`)).body.preview_url);
    const preview = await fetchSite(port, link.host, link.pathname.replace(/\/?$/, '/'));
    expect(preview.body).toContain(`srcset="${srcset}"`);
  });
});

describe('image uploads', () => {
  it('refuses what is no image of its name, formats browsers do not show, and decompression bombs', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Refusals' });
    const bomb = pngBomb(8000); // 64 megapixels in a few KiB
    expect(bomb.length).toBeLessThan(200_000);
    const cases: [string, Buffer, number, string][] = [
      ['big.png', bomb, 413, 'is 8000×8000 pixels (64 megapixels); the limit is IMAGE_MAX_PIXELS = 40000000'],
      ['fake.png', Buffer.from('not a picture at all'), 400, "'images/fake.png' is not a PNG image"],
      [
        'wrong.jpg',
        await tinyPng(),
        400,
        "'images/wrong.jpg' is named as a JPEG image but holds a PNG image",
      ],
      ['phone.heic', Buffer.from('....ftypheic'), 400, 'is a HEIC image, which browsers do not show'],
    ];
    for (const [path, bytes, status, message] of cases) {
      const res = await put(p.id, `images/${path}`, bytes);
      expect(res.status, path).toBe(status);
      expect(res.body.error).toContain(message);
      expect((await api.get(`/api/v1/projects/${p.id}/files/images/${path}`)).status).toBe(404);
    }
    const ok = await put(p.id, 'images/ok.png', await tinyPng());
    expect(ok.status).toBe(201);
  });

  it('refuses an image that is none in a publish of built files (archives: test/http/uploads.test.ts)', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Built' });
    const res = await api.post(`/api/v1/projects/${p.id}/publish`, {
      builtFiles: { 'index.html': '<!doctype html><title>x</title>', 'logo.png': 'not a png' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("'logo.png' is not a PNG image");
    expect((await api.get(`/api/v1/projects/${p.id}/deployments`)).body.deployments).toEqual([]);
  });
});
