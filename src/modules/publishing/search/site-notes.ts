// What the generator noted about a site it made: its name and kind (`bakery`), read from its notes
// under `.sitewright/` (or the older root `site.json`). The site's JSON-LD takes the kind's
// schema.org type, and its name when the owner has not set one. A site made by hand has none.
import { GENERATOR_NOTES_FILE } from '../../files/paths.ts';
import { isPlatformFile } from '../platform-files.ts';

export interface SiteNotes {
  name: string | null;
  kind: string | null;
  /** The generator made the site (its notes are there): its pages' layout is the generator's. */
  generated: boolean;
}

const text = (content: string | Buffer) => (typeof content === 'string' ? content : content.toString('utf8'));

export function siteNotes(files: readonly { path: string; content: string | Buffer }[]): SiteNotes {
  for (const path of [GENERATOR_NOTES_FILE, 'site.json']) {
    const file = files.find((f) => f.path === path);
    // A root site.json counts only when it is the generator's (a site's own is not notes).
    if (!file || (path === 'site.json' && !isPlatformFile(path, file.content))) continue;
    try {
      const notes = JSON.parse(text(file.content)) as Record<string, unknown>;
      const name = typeof notes.name === 'string' && notes.name.trim() ? notes.name.trim() : null;
      const kind = typeof notes.kind === 'string' ? notes.kind : null;
      return { name, kind, generated: true };
    } catch {
      continue;
    }
  }
  return { name: null, kind: null, generated: false };
}
