// Files a project keeps that no site and no preview serves: the platform's own notes about the site
// (everything under `.sitewright/`, and the builtin generator's old root `site.json`). Publishing
// leaves them out of a deployment; serving answers them as missing, which also covers deployments
// published before they were left out.
import { isInternalPath } from '../files/paths.ts';

export function isPlatformFile(path: string, content: string | Buffer): boolean {
  return isInternalPath(path) || isLegacyNotes(path, content);
}

/**
 * A root `site.json` that is the builtin generator's notes from before they moved under
 * `.sitewright/` (providers/builtin/brief-file.ts): an object with a string `name` and `kind` and a
 * `sections` array, the shape that generator reads back. A site's own `site.json` is served.
 */
function isLegacyNotes(path: string, content: string | Buffer): boolean {
  if (path !== 'site.json') return false;
  try {
    const notes = JSON.parse(typeof content === 'string' ? content : content.toString('utf8')) as unknown;
    if (typeof notes !== 'object' || notes === null) return false;
    const { name, kind, sections } = notes as Record<string, unknown>;
    return typeof name === 'string' && typeof kind === 'string' && Array.isArray(sections);
  } catch {
    return false;
  }
}
