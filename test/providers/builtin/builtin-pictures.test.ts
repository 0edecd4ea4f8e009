// The builtin model places one of the project's images where the person points: on the picture
// selected in the preview, or in the hero or the about section named in a follow-up. The place is
// kept in the brief (the next prompt renders the site again with it), a missing image or an
// element that is no picture is said in one sentence, and a site it did not make gets the image
// in its selected <img>.
import { describe, expect, it } from 'vitest';
import { BuiltinProvider } from '../../../src/providers/builtin/index.ts';
import type { ElementContext, SiteFile } from '../../../src/modules/generations/provider.ts';

const generate = (prompt: string, files: SiteFile[] = [], element?: ElementContext) =>
  new BuiltinProvider().generate({
    prompt,
    model: 'builtin',
    files,
    element,
    signal: new AbortController().signal,
  });
const page = (files: SiteFile[], path = 'index.html') =>
  files.find((f) => f.path === path)!.content as string;
const PHOTO = { path: 'images/wedding1.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) };

/** The element of `html` that opens with `start`, as the builder's selection reports it. */
function selected(files: SiteFile[], start: RegExp, file = 'index.html'): ElementContext {
  const html = page(files, file);
  const at = html.search(start);
  expect(at).toBeGreaterThan(-1);
  const tag = /^<([a-z0-9]+)/.exec(html.slice(at))![1]!;
  const end = html.indexOf(`</${tag}>`, at) + tag.length + 3;
  return { file, selector: 'main > section', html: html.slice(at, end) };
}

describe('builtin: placing an image', () => {
  it('puts the image on the selected picture, and keeps it there through later prompts', async () => {
    const first = await generate('A wedding photographer in Lyon with a gallery', [PHOTO]);
    expect(page(first.files)).toContain('data-sw-picture="gallery.0"');
    const tile = selected(first.files, /<svg data-sw-picture="hero"/);
    const placed = await generate('show the photo images/wedding1.png here', first.files, tile);
    expect(placed.summary).toBe('Edited the site: images/wedding1.png placed in the hero');
    expect(page(placed.files)).toContain(
      '<img class="art" src="images/wedding1.png" alt="Wedding1" loading="lazy" data-sw-picture="hero">',
    );
    const darker = await generate('make it dark', placed.files);
    expect(page(darker.files)).toContain(
      'src="images/wedding1.png" alt="Wedding1" loading="lazy" data-sw-picture="hero"',
    );
    expect(page(darker.files, 'styles.css')).toContain('color-scheme: dark');
  });

  it('places it in the hero or the about section a follow-up names, beside other changes', async () => {
    const first = await generate('A physiotherapy practice in Munich with an about section', [PHOTO]);
    const hero = await generate('Make it green and put wedding1.png in the hero', first.files);
    expect(hero.summary).toMatch(/brand colour .*, images\/wedding1.png placed in the hero$/);
    expect(page(hero.files)).toMatch(
      /<img class="art" src="images\/wedding1.png"[^>]*data-sw-picture="hero">/,
    );
    const about = await generate('use images/wedding1.png for the about section', hero.files);
    expect(page(about.files)).toMatch(
      /<img class="art" src="images\/wedding1.png"[^>]*data-sw-picture="about">/,
    );
    // Named without a place, alone or beside a change it makes: said, with what to do.
    await expect(generate('use images/wedding1.png', about.files)).rejects.toThrow(
      /places an image where you point: select the picture in the preview/,
    );
    const both = await generate('make it blue and use images/wedding1.png', about.files);
    expect(both.summary).toMatch(/Not done: .*places an image where you point/);
  });

  it('says so when the image is not in the project or the selection is no picture', async () => {
    // Uploaded after the site was made: the gallery still shows its six pictures to replace.
    const made = await generate('A bakery in Bristol with a gallery');
    const first = { files: [...made.files, PHOTO] };
    const tile = selected(first.files, /<svg data-sw-picture="gallery.2"/);
    await expect(generate('put cake.jpg here', first.files, tile)).rejects.toThrow(
      /^There is no image cake.jpg in the project, so nothing changed: upload it in the Files tab first/,
    );
    const heading = selected(first.files, /<h1 /);
    await expect(generate('show images/wedding1.png here', first.files, heading)).rejects.toThrow(
      /The selected element is not a picture, so images\/wedding1.png was not placed/,
    );
    const placed = await generate('show images/wedding1.png here', first.files, tile);
    expect(placed.summary).toBe('Edited the site: images/wedding1.png placed in the gallery (picture 3)');
    expect(page(placed.files)).toContain(
      '<figure class="tile"><img class="art" src="images/wedding1.png" alt="Wedding1" loading="lazy" data-sw-picture="gallery.2"><figcaption data-sw="gallery.2.caption">Wedding1</figcaption>',
    );
    expect(page(placed.files).match(/Replace with one of your photos/g)).toHaveLength(5);
  });

  it('on a site it did not make, swaps the selected <img>', async () => {
    const files = [
      {
        path: 'about/index.html',
        content:
          '<!doctype html><title>A</title><main><img src="old.jpg" srcset="old-2x.jpg 2x" alt="Us"></main>',
      },
      PHOTO,
    ];
    const element = {
      file: 'about/index.html',
      selector: 'main > img',
      html: '<img src="old.jpg" srcset="old-2x.jpg 2x" alt="Us">',
    };
    const swapped = await generate('use wedding1.png here', files, element);
    expect(page(swapped.files, 'about/index.html')).toContain(
      '<main><img src="../images/wedding1.png" alt="Us"></main>',
    );
    await expect(generate('use wedding1.png here', files, { ...element, html: '<main>' })).rejects.toThrow(
      /not a picture/,
    );
  });

  it('renders again a site made before pictures had places', async () => {
    const first = await generate('A bakery in Bristol with a gallery and an about section');
    const before = first.files.map((f) =>
      typeof f.content === 'string' && f.path.endsWith('.html')
        ? { ...f, content: f.content.replace(/ data-sw-picture="[^"]*"/g, '') }
        : f,
    );
    const darker = await generate('make it dark', before);
    expect(darker.summary).toMatch(/dark theme/);
  });
});
