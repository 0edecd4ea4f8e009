// The builder's Replace image: the selected picture (an <img>, or a generated site's picture
// placeholder) shows another of the project's images, or one uploaded then (checked like any
// image, stored under images/ beside a file of the same name), with the alt text given; one new
// version. A generated site keeps the picture and its alt text through later prompts.
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';
import { photo, pngBomb, tinyPng } from '../../helpers/images.ts';
import { replaceImageElement } from '../../../src/modules/files/image-edit.ts';
import { systemPrincipal } from '../../../src/modules/access/principal.ts';

type Element = DefaultTreeAdapterMap['element'];
const api = useTestApi({ GENERATION_POLL_INTERVAL: '50ms' }, { generationWorker: true });

/** The selector the builder's preview computes for the first element `match` accepts. */
function selectorOf(html: string, match: (el: Element) => boolean): string {
  const find = (el: Element, path: string[]): string[] | undefined => {
    const children = el.childNodes.filter((n): n is Element => 'tagName' in n);
    for (const [i, child] of children.entries()) {
      const here = [...path, `${child.tagName}:nth-child(${i + 1})`];
      if (match(child)) return here;
      const deeper = find(child, here);
      if (deeper) return deeper;
    }
    return undefined;
  };
  const root = parse(html).childNodes.find((n): n is Element => 'tagName' in n)!;
  return ['html', ...find(root, [])!].join(' > ');
}
const slot = (name: string) => (el: Element) =>
  el.attrs.some((a) => a.name === 'data-sw-picture' && a.value === name);

describe('replaceImageElement', () => {
  const page =
    '<!doctype html><html><body><main><img class="a" src="old.jpg" srcset="old.jpg?w=320 320w" sizes="100vw" width="10" height="5" alt="Old" loading="lazy"><svg class="art" data-sw-picture="hero" viewBox="0 0 1 1"><path d="M0 0"/></svg><p>Text</p></main></body></html>';
  it('points an <img> at the new picture, with its alt, without the old one’s sizes', () => {
    const out = replaceImageElement(
      page,
      'blog/post.html',
      'html > body:nth-child(2) > main:nth-child(1) > img:nth-child(1)',
      'images/new photo.jpg',
      'A "new" <one>',
    );
    expect(out).toContain(
      '<img src="../images/new photo.jpg" alt="A &quot;new&quot; &lt;one>" class="a" loading="lazy"><svg',
    );
  });
  it('turns a picture placeholder into the picture, in its place and with its class', () => {
    const out = replaceImageElement(
      page,
      'index.html',
      'html > body:nth-child(2) > main:nth-child(1) > svg:nth-child(2)',
      'images/x.png',
      'X',
    );
    expect(out).toContain(
      '<img class="art" src="images/x.png" alt="X" loading="lazy" data-sw-picture="hero"><p>Text</p>',
    );
  });
  it('refuses the <img> of a <picture>, whose sources would still be shown', () => {
    const html =
      '<html><body><picture><source srcset="a.avif"><img src="a.jpg" alt="A"></picture></body></html>';
    const selector = 'html > body:nth-child(2) > picture:nth-child(1) > img:nth-child(2)';
    expect(() => replaceImageElement(html, 'index.html', selector, 'b.jpg', 'B')).toThrow('<picture>');
  });
  it('refuses an element that is no picture, and one no longer in the page', () => {
    expect(() =>
      replaceImageElement(
        page,
        'index.html',
        'html > body:nth-child(2) > main:nth-child(1) > p:nth-child(3)',
        'a.png',
        '',
      ),
    ).toThrow('is no picture');
    expect(() =>
      replaceImageElement(
        page,
        'index.html',
        'html > body:nth-child(2) > main:nth-child(1) > p:nth-child(9)',
        'a.png',
        '',
      ),
    ).toThrow('no longer in the page');
  });
});

describe('Replace image', () => {
  it('places an uploaded photo in a generated site’s hero; later prompts keep it and its alt text', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Lyon weddings' });
    const prompt = 'A wedding photographer in Lyon with a gallery';
    const waitFor = async (id: string) => {
      for (let i = 0; i < 400; i++) {
        const { generation } = (await api.get(`/api/v1/projects/${p.id}/generations/${id}`)).body;
        if (generation.status !== 'queued' && generation.status !== 'running') return generation;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('generation did not finish');
    };
    const first = (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt })).body.generation;
    expect((await waitFor(first.id)).status).toBe('succeeded');
    const read = async () =>
      (await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content as string;
    const files = api.ctx.services.files;
    const owner = systemPrincipal(api.org.id);
    const bytes = await photo(1600, 900);
    const edit = {
      file: 'index.html',
      selector: selectorOf(await read(), slot('hero')),
      alt: 'Emma and James on the steps of the cathedral',
      upload: { name: 'Emma & James (1).JPG', content: bytes },
    };
    const placed = await files.replaceImage(owner, p.id, edit, { source: 'edit' });
    expect(placed.image).toBe('images/Emma-James-1.jpg');
    expect(await read()).toContain(
      '<img class="art" src="images/Emma-James-1.jpg" alt="Emma and James on the steps of the cathedral" loading="lazy" data-sw-picture="hero">',
    );
    const versions = (await api.get(`/api/v1/projects/${p.id}/versions`)).body.versions;
    expect(versions[0]).toMatchObject({
      source: 'edit',
      summary: 'Replaced a picture in index.html with images/Emma-James-1.jpg',
    });

    // The same bytes again reuse the file; other bytes of the same name go beside it.
    const hero = selectorOf(await read(), slot('hero'));
    const again = await files.replaceImage(owner, p.id, { ...edit, selector: hero }, { source: 'edit' });
    expect(again.image).toBe('images/Emma-James-1.jpg');
    const other = await files.replaceImage(owner, p.id, {
      ...edit,
      selector: hero,
      upload: { name: 'Emma & James (1).JPG', content: await photo(800, 600) },
    });
    expect(other.image).toBe('images/Emma-James-1-2.jpg');
    await files.replaceImage(owner, p.id, {
      ...edit,
      selector: hero,
      upload: undefined,
      image: 'images/Emma-James-1.jpg',
    });

    const darker = (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'make it dark' })).body
      .generation;
    expect((await waitFor(darker.id)).status).toBe('succeeded');
    const after = await read();
    expect(after).toContain(
      'src="images/Emma-James-1.jpg" alt="Emma and James on the steps of the cathedral" loading="lazy" data-sw-picture="hero"',
    );
  });

  it('refuses an upload that is no good image, a file that is no picture, and changes nothing', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Refused' });
    const html =
      '<!doctype html><html lang="en"><head><title>x</title></head><body><img src="a.png" alt="A"></body></html>';
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: html });
    await api.put(`/api/v1/projects/${p.id}/files/a.png`, {
      content: (await tinyPng()).toString('base64'),
      encoding: 'base64',
    });
    const owner = systemPrincipal(api.org.id);
    const selector = 'html > body:nth-child(2) > img:nth-child(1)';
    const files = api.ctx.services.files;
    const count = async () => (await api.get(`/api/v1/projects/${p.id}/versions`)).body.versions.length;
    const before = await count();
    await expect(
      files.replaceImage(owner, p.id, {
        file: 'index.html',
        selector,
        alt: '',
        upload: { name: 'big.png', content: pngBomb(9000) },
      }),
    ).rejects.toThrow('IMAGE_MAX_PIXELS');
    await expect(
      files.replaceImage(owner, p.id, {
        file: 'index.html',
        selector,
        alt: '',
        upload: { name: 'notes.txt', content: Buffer.from('x') },
      }),
    ).rejects.toThrow('is no picture');
    await expect(
      files.replaceImage(owner, p.id, { file: 'index.html', selector, alt: '', image: 'index.html' }),
    ).rejects.toThrow('is no picture');
    await expect(
      files.replaceImage(owner, p.id, { file: 'index.html', selector, alt: '', image: 'gone.png' }),
    ).rejects.toThrow("has no file 'gone.png'");
    expect(await count()).toBe(before);
    expect((await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content).toBe(html);
    expect((await api.get(`/api/v1/projects/${p.id}/files/images/big.png`)).status).toBe(404);
  });
});
