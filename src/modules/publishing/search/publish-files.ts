// A deployment's files made ready for search and sharing (site-files.ts) with what the database
// knows: the project's site settings, its address (the verified custom domain, else its
// subdomain) and when each page last changed. Files sent whole are changed in memory; an
// archive's, where the upload stored them.
import type { Executor } from '../../../db/executor.ts';
import { listFiles } from '../../files/repo.ts';
import type { ProjectRow } from '../../projects/repo.ts';
import type { SitesSettings } from '../../settings.ts';
import { readSiteSettings } from '../../site-settings/repo.ts';
import { readUploadFile, removeUploadFile, writeUploadFile, type UploadedFile } from '../uploads-repo.ts';
import { siteUrl } from '../urls.ts';
import type { SiteNotes } from './site-notes.ts';
import { isPage, makeReadyToGoLive, type SearchSite } from './site-files.ts';

async function searchSite(
  trx: Executor,
  sites: SitesSettings,
  project: ProjectRow,
  notes: SiteNotes,
): Promise<Omit<SearchSite, 'hasFile'>> {
  return {
    baseUrl: siteUrl(sites, project),
    settings: await readSiteSettings(trx, project.org_id, project.id),
    notes,
  };
}

/** `files` ready for search; the pages changed when the project's files did (else now). */
export async function searchReadyFiles(
  trx: Executor,
  sites: SitesSettings,
  project: ProjectRow,
  files: ReadonlyMap<string, Buffer>,
  notes: SiteNotes,
  /** `project`: the pages are the project's files, changed when those were; `now`: a build's output. */
  { pagesFrom }: { pagesFrom: 'project' | 'now' },
): Promise<Map<string, Buffer>> {
  const now = new Date().toISOString();
  const changed = new Map<string, string>();
  if (pagesFrom === 'project')
    for (const file of await listFiles(trx, project.org_id, project.id))
      if (isPage(file.path) && file.updated_at) changed.set(file.path, file.updated_at);
  const out = new Map(files);
  await makeReadyToGoLive(
    await searchSite(trx, sites, project, notes),
    {
      paths: [...files.keys()],
      read: async (path) => out.get(path)!,
      write: async (path, content) => void out.set(path, content),
      remove: async (path) => void out.delete(path),
    },
    (path) => changed.get(path) ?? now,
  );
  return out;
}

/**
 * An archive upload's files ready for search, changed where the upload stored them; answers the
 * deployment's files (at their published paths) with their new hashes and sizes.
 */
export async function searchReadyUpload(
  trx: Executor,
  sites: SitesSettings,
  project: ProjectRow,
  upload: { id: string; orgId: string },
  /** The files at their published paths, and each one's path in the upload. */
  files: readonly (UploadedFile & { stored: string })[],
): Promise<UploadedFile[]> {
  const now = new Date().toISOString();
  const byPath = new Map(files.map((file) => [file.path, file]));
  await makeReadyToGoLive(
    await searchSite(trx, sites, project, { name: null, kind: null, generated: false }),
    {
      paths: files.map((file) => file.path),
      read: (path) => readUploadFile(trx, upload, byPath.get(path)!.stored),
      write: async (path, content) => {
        const stored = byPath.get(path)?.stored ?? path;
        byPath.set(path, { ...(await writeUploadFile(trx, upload, stored, content)), path, stored });
      },
      remove: async (path) => {
        await removeUploadFile(trx, upload, byPath.get(path)!.stored);
        byPath.delete(path);
      },
    },
    () => now,
  );
  return [...byPath.values()].map(({ path, sha256, size }) => ({ path, sha256, size }));
}
