// Where the builtin generator keeps its brief between prompts. It lives under `.sitewright/`, which
// is never published nor served (files/paths.ts). Sites made before that kept it as `site.json` at
// the root, where it was served publicly; such a file is still read (and moved on the next edit),
// and publishing and serving leave it out (modules/publishing/platform-files.ts).
import { GENERATOR_NOTES_FILE } from '../../modules/files/paths.ts';
import type { SiteFile } from '../../modules/generations/provider.ts';
import { parseBrief, type Brief } from './brief.ts';

export const NOTES_FILE = GENERATOR_NOTES_FILE;
export const LEGACY_NOTES_FILE = 'site.json';

const text = (content: string | Buffer): string =>
  typeof content === 'string' ? content : content.toString('utf8');

/** The brief the generator left in `files`, and the paths it kept it under (to be replaced). */
export function readNotes(files: SiteFile[]): { brief: Brief | undefined; paths: Set<string> } {
  const paths = new Set<string>();
  let brief: Brief | undefined;
  for (const path of [NOTES_FILE, LEGACY_NOTES_FILE]) {
    const file = files.find((f) => f.path === path);
    const parsed = file && parseBrief(text(file.content));
    if (!parsed) continue;
    paths.add(path);
    brief ??= parsed;
  }
  return { brief, paths };
}
