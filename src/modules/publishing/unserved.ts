// Files a project keeps that no site and no preview serves: the platform's own notes about the site
// (everything under `.sitewright/`, and the builtin generator's old root `site.json`). Publishing
// leaves them out of a deployment; serving answers them as missing, which also covers deployments
// published before they were left out.
import { isInternalPath } from '../files/paths.ts';
import { isLegacyNotes } from '../generations/builtin/notes.ts';

export function isUnserved(path: string, content: string | Buffer): boolean {
  return isInternalPath(path) || isLegacyNotes(path, content);
}
