// The builtin model on a prompt aimed at one selected element: new text, removal, and a clear
// failure for what it does not understand; the rest of the site is untouched.
import { describe, expect, it } from 'vitest';
import { BuiltinProvider } from '../../../src/providers/builtin/index.ts';

const PAGE =
  '<!doctype html><html><head><title>Luna</title></head><body><h1>Luna Bakery</h1><p class="x">Fresh bread</p></body></html>';
const files = [
  { path: 'index.html', content: PAGE },
  { path: 'styles.css', content: 'h1{}' },
];
const h1 = {
  file: 'index.html',
  selector: 'html > body:nth-child(2) > h1:nth-child(1)',
  html: '<h1>Luna Bakery</h1>',
};
const p = {
  file: 'index.html',
  selector: 'html > body:nth-child(2) > p:nth-child(2)',
  html: '<p class="x">Fresh bread</p>',
};
const run = (prompt: string, element = h1) =>
  new BuiltinProvider().generate({
    prompt,
    model: 'builtin',
    files,
    element,
    signal: new AbortController().signal,
  });

describe('builtin: a prompt aimed at a selected element', () => {
  it.each([
    ['Change it to "Luna & Sons"', '<h1>Luna &amp; Sons</h1>'],
    ['say Luna Bakery of Bristol', '<h1>Luna Bakery of Bristol</h1>'],
    ['please change this heading to Our bakery.', '<h1>Our bakery</h1>'],
  ])('%s', async (prompt, expected) => {
    const result = await run(prompt);
    const index = result.files.find((f) => f.path === 'index.html')!.content as string;
    expect(index).toBe(PAGE.replace('<h1>Luna Bakery</h1>', expected));
    expect(result.files.find((f) => f.path === 'styles.css')!.content).toBe('h1{}');
    expect(result.summary).toMatch(/set the selected h1/);
  });

  it('removes the element, and fails clearly on what it does not understand', async () => {
    const removed = await run('remove this', p);
    expect(removed.files.find((f) => f.path === 'index.html')!.content).toBe(
      PAGE.replace('<p class="x">Fresh bread</p>', ''),
    );
    await expect(run('make it sparkle')).rejects.toThrow(
      /did not understand what to change in the selected element/,
    );
    await expect(
      run('say hi', { ...h1, selector: 'html > body:nth-child(2) > h2:nth-child(1)' }),
    ).rejects.toThrow(/no longer in the page/);
  });
});
