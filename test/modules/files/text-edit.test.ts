// In-place text edits find the element the preview named and change only the text between its tags.
import { describe, expect, it } from 'vitest';
import { replaceElementText } from '../../../src/modules/files/text-edit.ts';

const PAGE = `<!doctype html>
<html lang="en"><head><title>Moon</title></head>
<body>
  <header><h1 class="x">Moon &amp; Cafe</h1><p>Open <b>daily</b></p></header>
  <main><h2>Menu</h2><p>Bread</p><p>Cakes</p></main>
</body></html>`;

describe('replaceElementText', () => {
  it('replaces the text of the element at the selector and keeps every other byte', () => {
    const out = replaceElementText(
      PAGE,
      'html > body:nth-child(2) > main:nth-child(2) > p:nth-child(3)',
      'Tarts & <pies>',
    );
    expect(out).toBe(PAGE.replace('<p>Cakes</p>', '<p>Tarts &amp; &lt;pies&gt;</p>'));
  });

  it('keeps line breaks as <br>', () => {
    const out = replaceElementText(
      PAGE,
      'html > body:nth-child(2) > header:nth-child(1) > h1:nth-child(1)',
      'Moon\nCafe',
    );
    expect(out).toContain('<h1 class="x">Moon<br>Cafe</h1>');
  });

  it('refuses an element that holds more than text, one that is gone, and selectors it does not make', () => {
    expect(() =>
      replaceElementText(PAGE, 'html > body:nth-child(2) > header:nth-child(1) > p:nth-child(2)', 'x'),
    ).toThrow(/holds text alone/);
    expect(() =>
      replaceElementText(PAGE, 'html > body:nth-child(2) > main:nth-child(2) > p:nth-child(9)', 'x'),
    ).toThrow(/no longer in the page/);
    expect(() =>
      replaceElementText(PAGE, 'html > body:nth-child(2) > main:nth-child(2) > h3:nth-child(1)', 'x'),
    ).toThrow(/no longer in the page/);
    expect(() => replaceElementText(PAGE, 'main p', 'x')).toThrow(/not a selector the builder makes/);
    expect(() => replaceElementText(PAGE, 'body:nth-child(2)', 'x')).toThrow(/start at html/);
    expect(() =>
      replaceElementText(
        PAGE,
        'html > body:nth-child(2) > main:nth-child(2) > h2:nth-child(1)',
        'x'.repeat(10_001),
      ),
    ).toThrow(/longer than/);
  });

  it('finds elements the browser adds implicitly the way the browser does', () => {
    const bare = '<h1>Hi</h1><p>There</p>';
    expect(replaceElementText(bare, 'html > body:nth-child(2) > p:nth-child(2)', 'You')).toBe(
      '<h1>Hi</h1><p>You</p>',
    );
    const table = '<table><tr><td>a</td></tr></table>';
    expect(
      replaceElementText(
        table,
        'html > body:nth-child(2) > table:nth-child(1) > tbody:nth-child(1) > tr:nth-child(1) > td:nth-child(1)',
        'b',
      ),
    ).toBe('<table><tr><td>b</td></tr></table>');
  });
});
