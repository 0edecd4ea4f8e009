// A generation computes the site's whole new file set from the files it read when it started, and a
// model may take minutes. What a person wrote meanwhile (a picture uploaded, a page edited in the
// builder or through the API) must not silently go when it ends: its result is laid over the files
// as they are then, file by file.
import type { SiteFile } from '../files/rules.ts';

export interface LaidOver {
  /** The project's new file set. */
  files: SiteFile[];
  /**
   * Files the generation changed that had also changed meanwhile: its version replaced the
   * person's, which the version history keeps (every write is a version).
   */
  replaced: string[];
}

/**
 * The generation's changes (from `base`, the files it read, to `result`) applied to `current`: a
 * file it left as it found it stays as it is now (changed, added or deleted meanwhile); a file it
 * wrote, added or deleted takes its change.
 */
export function layOver(base: SiteFile[], result: SiteFile[], current: SiteFile[]): LaidOver {
  const before = byPath(base);
  const after = byPath(result);
  const now = byPath(current);
  const files = new Map(now);
  const replaced: string[] = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const made = after.get(path);
    if (same(before.get(path), made)) continue;
    const mine = now.get(path);
    if (!same(before.get(path), mine) && !same(made, mine)) replaced.push(path);
    if (made === undefined) files.delete(path);
    else files.set(path, made);
  }
  return {
    files: [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, content]) => ({ path, content })),
    replaced: replaced.sort(),
  };
}

function byPath(set: SiteFile[]): Map<string, SiteFile['content']> {
  return new Map(set.map((file) => [file.path, file.content]));
}

/** The same bytes, or both absent (a text file is read as a string, any other as bytes). */
function same(a: SiteFile['content'] | undefined, b: SiteFile['content'] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}
