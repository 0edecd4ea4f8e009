// The generator's pages get responsive images at publish: a srcset of the image's copies, sizes,
// width and height, lazy loading below the first picture, and nothing else in the page changes.
import { describe, expect, it } from 'vitest';
import { HtmlValidate } from 'html-validate';
import { pictureRefs, responsiveImages, sitePath, srcsetOf } from '../../../src/modules/images/responsive.ts';
import { copyFormat, copyWidth } from '../../../src/modules/images/formats.ts';

const sizes = async (path: string) =>
  ({
    'images/hero.jpg': { width: 3000, height: 2000 },
    'images/small.png': { width: 500, height: 400 },
    'images/moving.gif': { width: 400, height: 300, animated: true },
  })[path];

describe('responsive images', () => {
  it('adds srcset, sizes, width and height; the hero’s picture loads first, the rest lazily', async () => {
    const html = `<!doctype html><html lang="en"><head><title>t</title></head><body>
<img class="art" src="images/hero.jpg" alt="Hero" loading="lazy" data-sw-picture="hero">
<div class="gallery"><img src="images/small.png" alt="Tile"></div>
<p>Text &amp; more</p>
<img src='../images/small.png' alt="Small"/>
<img src="images/moving.gif" alt="Moving">
<img src="https://example.com/x.jpg" alt="Elsewhere">
<img src="images/hero.jpg" srcset="mine.jpg 1x" width="10" height="5" alt="Own">
</body></html>`;
    const out = await responsiveImages(html, 'about/index.html', async (p) =>
      sizes(p.replace(/^about\//, '')),
    );
    expect(out).toContain(
      `<img class="art" src="images/hero.jpg" alt="Hero" data-sw-picture="hero" srcset="${srcsetOf('images/hero.jpg', 3000)}" sizes="(min-width: 1160px) 560px, (min-width: 720px) 50vw, calc(100vw - 2.5rem)" width="3000" height="2000" fetchpriority="high">`,
    );
    expect(srcsetOf('images/hero.jpg', 3000)).toBe(
      'images/hero.jpg?w=320 320w, images/hero.jpg?w=480 480w, images/hero.jpg?w=640 640w, images/hero.jpg?w=800 800w, images/hero.jpg?w=960 960w, images/hero.jpg?w=1280 1280w, images/hero.jpg?w=1920 1920w, images/hero.jpg?w=2560 2560w',
    );
    expect(out).toContain(
      `<img src='../images/small.png' alt="Small" srcset="../images/small.png?w=320 320w, ../images/small.png?w=480 480w, ../images/small.png?w=500 500w" sizes="(min-width: 1160px) 560px, (min-width: 720px) 50vw, calc(100vw - 2.5rem)" width="500" height="400" loading="lazy" />`,
    );
    // A gallery's tile is drawn smaller, and lazy though it comes early in the page.
    expect(out).toContain(
      '<img src="images/small.png" alt="Tile" srcset="images/small.png?w=320 320w, images/small.png?w=480 480w, images/small.png?w=500 500w" sizes="(min-width: 1160px) 270px, (min-width: 800px) 33vw, (min-width: 560px) 50vw, calc(100vw - 2.5rem)" width="500" height="400" loading="lazy">',
    );
    // Moving, elsewhere, or already responsive: as written.
    expect(out).toContain('<img src="images/moving.gif" alt="Moving">');
    expect(out).toContain('<img src="https://example.com/x.jpg" alt="Elsewhere">');
    expect(out).toContain(
      '<img src="images/hero.jpg" srcset="mine.jpg 1x" width="10" height="5" alt="Own" loading="lazy">',
    );
    expect(out.replace(/<img[^>]*>/g, '')).toBe(html.replace(/<img[^>]*>/g, ''));
    // What was added is valid HTML: the page has no problem it did not have before.
    const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });
    const problems = async (page: string) =>
      (await validator.validateString(page)).results.flatMap((r) => r.messages.map((m) => m.message));
    expect(await problems(out)).toEqual(await problems(html));
  });

  it('lists the copies a page asks for', () => {
    const html =
      '<img src="a.jpg?w=99" srcset="a.jpg?w=320 320w, /b/c.png 2x, https://x.test/d.jpg 1x"><picture><source srcset="e.webp?w=640"><img src="f.gif"></picture><img src="g.svg">';
    expect(pictureRefs(html, 'blog/p.html')).toEqual([
      { path: 'blog/a.jpg', width: 99 },
      { path: 'blog/a.jpg', width: 320 },
      { path: 'b/c.png' },
      { path: 'blog/e.webp', width: 640 },
      { path: 'blog/f.gif' },
    ]);
  });

  it('writes the srcset from the src without the spaces around it', async () => {
    const out = await responsiveImages('<img src=" images/small.png " alt="">', 'index.html', sizes);
    expect(out).toContain(
      'srcset="images/small.png?w=320 320w, images/small.png?w=480 480w, images/small.png?w=500 500w"',
    );
  });

  it('leaves a page without site images byte for byte', async () => {
    const html = '<p>No pictures</p><img src="data:image/png;base64,AA==" alt="">';
    expect(await responsiveImages(html, 'index.html', sizes)).toBe(html);
  });

  it('finds the site path an image names from its page', () => {
    expect(sitePath('images/a.jpg', 'index.html')).toBe('images/a.jpg');
    expect(sitePath('../img/a%20b.jpg', 'blog/post.html')).toBe('img/a b.jpg');
    expect(sitePath('/img/a.jpg', 'blog/post.html')).toBe('img/a.jpg');
    expect(sitePath('//cdn.example/a.jpg', 'index.html')).toBeUndefined();
    expect(sitePath('img/a.jpg?v=2', 'index.html')).toBeUndefined();
    expect(sitePath('img/a.jpg#top', 'index.html')).toBeUndefined();
  });

  it('chooses the width and the format of a copy', () => {
    expect(copyWidth(undefined, 3000)).toBe(2560);
    expect(copyWidth(600, 3000)).toBe(640);
    expect(copyWidth(600, 500)).toBe(500);
    expect(copyWidth(99999, 1000)).toBe(1000);
    expect(copyFormat('jpeg', false, 'image/avif,image/webp,*/*')).toBe('avif');
    expect(copyFormat('jpeg', false, 'image/avif;q=0, image/webp')).toBe('webp');
    expect(copyFormat('jpeg', false, '*/*')).toBe('jpeg');
    expect(copyFormat('webp', true, undefined)).toBe('png');
    expect(copyFormat('avif', false, 'image/*')).toBe('jpeg');
    expect(copyFormat('gif', false, '')).toBe('png');
  });
});
