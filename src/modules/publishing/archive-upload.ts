// The files of a site sent as one archive, stored one by one as the archive yields them (each
// checked against the files API's rules as it comes), so that the publish that follows copies them
// inside the database. Memory holds the list of paths and hashes, never the site.
import type { Database } from '../../db/index.ts';
import { invalid } from '../common/errors.ts';
import { sha256 } from '../files/content.ts';
import { isInternalPath } from '../files/paths.ts';
import {
  checkFileSize,
  checkImages,
  checkProjectTotals,
  validPath,
  type FileLimits,
} from '../files/rules.ts';
import { storeUploadFile, type UploadedFile } from './uploads-repo.ts';

/** A file as an archive reader hands it over: the path as the archive names it. */
export interface ArchiveFile {
  path: string;
  content: Buffer;
}

/**
 * What desktops add to every archive and no site wants (macOS's resource forks and Finder notes,
 * Windows' thumbnails): left out, where any other hidden file is refused like in the files API.
 */
function isDesktopClutter(path: string): boolean {
  return path.startsWith('__MACOSX/') || /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(path);
}

/** Stores the files of `archive` as upload `upload`; returns what it stored. */
export async function storeArchive(
  database: Database,
  upload: { id: string; orgId: string },
  archive: AsyncIterable<ArchiveFile>,
  limits: FileLimits,
): Promise<UploadedFile[]> {
  const stored = new Map<string, UploadedFile>();
  let bytes = 0;
  for await (const file of archive) {
    if (isDesktopClutter(file.path)) continue;
    const path = validPath(file.path, 'archive path');
    if (stored.has(path)) throw invalid(`archive path '${path}' appears twice once normalised`);
    // The platform's own notes about a site are never published, from an archive either.
    if (isInternalPath(path)) continue;
    checkFileSize(path, file.content.length, limits);
    bytes += file.content.length;
    checkProjectTotals(stored.size + 1, bytes, limits);
    await checkImages([[path, file.content]], limits);
    const meta = { path, sha256: sha256(file.content), size: file.content.length };
    await storeUploadFile(database, upload, { ...meta, content: file.content });
    stored.set(path, meta);
  }
  return [...stored.values()];
}

/**
 * Where each stored path is published: as it is, or, when the archive holds one folder with the
 * whole site in it (what zipping a build folder makes) and nothing at its root, inside that folder.
 */
export function publishedPaths(files: readonly UploadedFile[]): (path: string) => string {
  const top = files[0]?.path.split('/')[0];
  const oneFolder =
    top !== undefined &&
    !files.some((file) => file.path === 'index.html') &&
    files.every((file) => file.path.startsWith(`${top}/`));
  return (path) => (oneFolder ? path.slice(top.length + 1) : path);
}
