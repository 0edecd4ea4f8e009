// A backup is one file, `sitewright-<time>.tar.gz`: a gzipped tar holding `manifest.json` first and
// the database copy (`database.sqlite`, or `database.pgdump` in pg_dump's custom format) after it.
// One file ships anywhere (BACKUP_COMMAND, scp, rclone) and opens with `tar` by hand. It is written
// under a `.partial` name and renamed when complete and flushed, so a half-written backup never
// carries a backup's name.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const MANIFEST = 'manifest.json';
export const DATA_FILES = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const;
export const BACKUP_NAME = /^sitewright-\d{8}T\d{6}-\d{3}Z\.tar\.gz$/;

const ManifestSchema = Type.Object({
  format: Type.Literal(1),
  /** The Sitewright version that made it. */
  version: Type.String(),
  engine: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  /** The last migration the database had run: a restore refuses one the code does not know. */
  migration: Type.String(),
  /** The database copy's bytes and SHA-256, checked before a restore uses it. */
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  created_at: Type.String(),
  /** A fingerprint of the key sealing the organizations' secrets (never the key), or null. */
  secrets_key: Type.Union([Type.String(), Type.Null()]),
});
export type BackupManifest = Static<typeof ManifestSchema>;

/** `sitewright-20261129T021500-123Z.tar.gz`: names sort as times do. */
export function backupFileName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-29T02:15:00.123Z
  const stamp = `${iso.slice(0, 10).replaceAll('-', '')}T${iso.slice(11, 19).replaceAll(':', '')}`;
  return `sitewright-${stamp}-${iso.slice(20, 23)}Z.tar.gz`;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Flushes a file to the disk, so a rename after it never names lost bytes. */
async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Packs `dir`'s manifest and data file into `target` atomically: written as `target.partial`,
 * flushed, then renamed. Gzip runs on libuv's threads, not the event loop.
 */
export async function packBackup(
  dir: string,
  engine: keyof typeof DATA_FILES,
  target: string,
): Promise<void> {
  const partial = `${target}.partial`;
  try {
    const tar = await import('tar'); // loaded by backups alone, not at every start
    const pack = tar.c({ cwd: dir, portable: true }, [MANIFEST, DATA_FILES[engine]]);
    await pipeline(pack, createGzip(), createWriteStream(partial, { flags: 'wx' }));
    await fsyncFile(partial);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** Copies a finished backup to another directory, as atomically as it was made. */
export async function copyBackup(source: string, target: string): Promise<void> {
  const partial = `${target}.partial`;
  try {
    await pipeline(createReadStream(source), createWriteStream(partial, { flags: 'wx' }));
    await fsyncFile(partial);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

export class BackupFileError extends Error {}

/**
 * Unpacks a backup into `dir` (which must be empty and on the disk the data will live on) and
 * checks it: a manifest Sitewright wrote, and a data file of its size and checksum. Nothing but
 * those two names is written, whatever the archive holds.
 */
export async function unpackBackup(file: string, dir: string): Promise<BackupManifest> {
  const wanted = new Set<string>([MANIFEST, ...Object.values(DATA_FILES)]);
  const tar = await import('tar');
  try {
    await pipeline(
      createReadStream(file),
      createGunzip(),
      tar.x({
        cwd: dir,
        strict: true,
        filter: (path, entry) => wanted.has(path) && 'type' in entry && entry.type === 'File',
      }),
    );
  } catch (error) {
    throw new BackupFileError(`${file} is not a Sitewright backup (${(error as Error).message})`);
  }
  let manifest: unknown;
  try {
    const handle = await open(`${dir}/${MANIFEST}`, 'r');
    try {
      manifest = JSON.parse(await handle.readFile('utf8'));
    } finally {
      await handle.close();
    }
  } catch {
    throw new BackupFileError(`${file} holds no readable ${MANIFEST}: it is not a Sitewright backup`);
  }
  if (!Value.Check(ManifestSchema, manifest))
    throw new BackupFileError(`${file}: its ${MANIFEST} is not one this version of Sitewright reads`);
  const data = `${dir}/${DATA_FILES[manifest.engine]}`;
  const sum = await sha256File(data).catch(() => undefined);
  if (sum !== manifest.sha256)
    throw new BackupFileError(`${file} is damaged: its database copy does not match the manifest's checksum`);
  return manifest;
}
