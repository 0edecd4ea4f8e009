// A generation's result laid over what was written while it ran (src/modules/generations/lay-over.ts).
import { describe, expect, it } from 'vitest';
import { layOver } from '../../../src/modules/generations/lay-over.ts';
import type { SiteFile } from '../../../src/modules/files/rules.ts';

const set = (files: Record<string, string | Buffer>): SiteFile[] =>
  Object.entries(files).map(([path, content]) => ({ path, content }));
const asObject = (files: SiteFile[]) => Object.fromEntries(files.map((f) => [f.path, f.content]));

describe('a generation laid over what changed meanwhile', () => {
  const base = set({
    'index.html': 'home',
    'about.html': 'about',
    'old.html': 'old',
    'logo.png': Buffer.from([1, 2]),
  });

  it('keeps what the generation left as it found it, as it is now: changed, added or deleted', () => {
    const result = set({
      'index.html': 'new home',
      'about.html': 'about',
      'old.html': 'old',
      'logo.png': Buffer.from([1, 2]),
    });
    const current = set({
      'index.html': 'home',
      'about.html': 'about, edited',
      'logo.png': Buffer.from([9]),
      'p.png': Buffer.from([3]),
    });
    const laid = layOver(base, result, current);
    expect(asObject(laid.files)).toEqual({
      'about.html': 'about, edited',
      'index.html': 'new home',
      'logo.png': Buffer.from([9]),
      'p.png': Buffer.from([3]),
    });
    expect(laid.files.map((f) => f.path)).toEqual(['about.html', 'index.html', 'logo.png', 'p.png']);
    expect(laid.replaced).toEqual([]);
  });

  it('takes what the generation wrote, added or deleted, naming each file also changed meanwhile', () => {
    const result = set({
      'index.html': 'new home',
      'contact.html': 'contact',
      'logo.png': Buffer.from([1, 2]),
    });
    const current = set({
      'index.html': 'home, edited',
      'about.html': 'about',
      'old.html': 'old, edited',
      'logo.png': Buffer.from([1, 2]),
      'contact.html': 'mine',
    });
    const laid = layOver(base, result, current);
    expect(asObject(laid.files)).toEqual({
      'contact.html': 'contact',
      'index.html': 'new home',
      'logo.png': Buffer.from([1, 2]),
    });
    expect(laid.replaced).toEqual(['contact.html', 'index.html', 'old.html']);
  });

  it('names nothing when the change made meanwhile is the generation’s own, and compares bytes with text', () => {
    const result = set({
      'index.html': 'new home',
      'about.html': 'about',
      'old.html': 'old',
      'logo.png': 'AB',
    });
    const current = set({
      'index.html': 'new home',
      'about.html': 'about',
      'old.html': 'old',
      'logo.png': Buffer.from('AB'),
    });
    const laid = layOver(base, result, current);
    expect(laid.replaced).toEqual([]);
    expect(asObject(laid.files)['logo.png']).toBe('AB');
  });
});
