// Backups of the whole installation (every organization's records and site files: they all live in
// the database), made by `sitewright backup` or by the server every BACKUP_INTERVAL, and restores
// from them. How one is packed is archive.ts; the engine's copy and restore are db/backup.ts.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Database } from '../../db/index.ts';
import { sqliteFile } from '../../db/index.ts';
import { dumpPostgres, installSqlite, restorePostgres, snapshotSqlite } from '../../db/backup.ts';
import { knownMigrations } from '../../db/migrate.ts';
import { newId } from '../../lib/ids.ts';
import { newLease } from '../../jobs/lease.ts';
import { roleOf } from '../access/access.ts';
import { NotAllowedError } from '../common/errors.ts';
import type { Principal } from '../access/principal.ts';
import type { BackupSettings } from '../settings.ts';
import {
  BACKUP_NAME,
  BackupFileError,
  DATA_FILES,
  MANIFEST,
  backupFileName,
  copyBackup,
  packBackup,
  sha256File,
  unpackBackup,
  type BackupManifest,
} from './archive.ts';
import {
  finishRun,
  firstOrgId,
  lastRun,
  listRuns,
  renewLease,
  startCommandRun,
  type BackupRun,
} from './repo.ts';

/** A run's lease, renewed every third of it while the backup is made. */
export const LEASE_MS = 60_000;
/** How long BACKUP_COMMAND may run. */
const COMMAND_TIMEOUT_MS = 3_600_000;

export type { BackupRun } from './repo.ts';
export { BackupFileError } from './archive.ts';
export { RestoreRefusedError } from '../../db/backup.ts';

/** Where the data lives and what seals its secrets: what a backup copies and a restore replaces. */
export interface BackupTarget {
  dataDir: string;
  databaseUrl: string | undefined;
  /** The fingerprint of the secrets key (lib/secrets.ts), or null when there is none. */
  secretsKey: string | null;
  version: string;
}

export interface MadeBackup {
  /** The backup in each directory, the first directory's first. */
  paths: string[];
  manifest: BackupManifest;
  /** The archive's bytes. */
  size: number;
}

export interface BackupsLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the dashboard shows owners: the settings, the last outcomes, the recent runs. */
export interface BackupsOverview {
  settings: BackupSettings;
  lastSuccess: BackupRun | undefined;
  lastFailure: BackupRun | undefined;
  runs: BackupRun[];
}

export class BackupsService {
  constructor(
    private readonly database: Database,
    private readonly target: BackupTarget,
    readonly settings: BackupSettings,
    private readonly logger?: BackupsLogger,
  ) {}

  get engine(): 'sqlite' | 'postgres' {
    return this.target.databaseUrl ? 'postgres' : 'sqlite';
  }

  /**
   * Whether `principal` may see the installation's backups: an owner of its first organization
   * (the operator's, made at set-up). Owners of other organizations (agencies that signed up on a
   * shared installation) see nothing of the others' data, its paths or its errors.
   */
  async mayOverview(principal: Principal): Promise<boolean> {
    if (principal.clientId !== undefined || roleOf(principal) !== 'owner') return false;
    return (await firstOrgId(this.database.db)) === principal.orgId;
  }

  async overview(principal: Principal): Promise<BackupsOverview> {
    if (!(await this.mayOverview(principal)))
      throw new NotAllowedError("only the owners of the installation's first organization see its backups");
    const db = this.database.db;
    const [lastSuccess, lastFailure, runs] = await Promise.all([
      lastRun(db, 'succeeded'),
      lastRun(db, 'failed'),
      listRuns(db, 20),
    ]);
    return { settings: this.settings, lastSuccess, lastFailure, runs };
  }

  /**
   * `sitewright backup`: one backup into `dirs`, recorded like the schedule's; `asScheduled`: as
   * the schedule makes it (into BACKUP_DIR's, pruned to BACKUP_KEEP, shipped with BACKUP_COMMAND).
   */
  async backupNow(dirs: string[], asScheduled: boolean): Promise<MadeBackup> {
    const lease = { id: newId(), ...newLease(LEASE_MS) };
    await startCommandRun(this.database.db, lease);
    return this.runRecorded(lease.id, lease.token, dirs, asScheduled);
  }

  /**
   * Makes a backup for the run `id`, held under `token` (its lease renewed meanwhile), and records
   * how it ended.
   */
  async runRecorded(id: string, token: string, dirs: string[], ship: boolean): Promise<MadeBackup> {
    const renew = setInterval(() => {
      renewLease(this.database.db, id, token, newLease(LEASE_MS).until).then(
        (held) => held || this.logger?.error({ id }, 'backup: another instance took this backup over'),
        (error: unknown) => this.logger?.warn({ err: error }, 'backup: could not renew the lease'),
      );
    }, LEASE_MS / 3);
    try {
      return await this.runHeld(id, token, dirs, ship);
    } finally {
      clearInterval(renew);
    }
  }

  private async runHeld(id: string, token: string, dirs: string[], ship: boolean): Promise<MadeBackup> {
    let made: MadeBackup;
    try {
      made = await this.make(dirs);
    } catch (error) {
      const message = (error as Error).message;
      await finishRun(this.database.db, id, token, {
        status: 'failed',
        finished_at: new Date().toISOString(),
        error: message,
      });
      this.logger?.error({ err: error, dirs }, `backup failed: ${message}`);
      throw error;
    }
    let commandError: string | null = null;
    if (ship) {
      // The backup is made: neither pruning nor shipping it may keep that from being recorded.
      await Promise.all(
        dirs.map((dir) =>
          this.prune(dir).catch((error: unknown) =>
            this.logger?.error({ err: error, dir }, 'backup: could not remove older backups'),
          ),
        ),
      );
      if (this.settings.command) commandError = await this.ship(made.paths[0]!);
    }
    await finishRun(this.database.db, id, token, {
      status: 'succeeded',
      finished_at: new Date().toISOString(),
      file_name: made.paths[0]!.split('/').pop()!,
      size: made.size,
      destinations: dirs.map((dir) => resolve(dir)),
      error: null,
      command_error: commandError,
    });
    this.logger?.info({ paths: made.paths, size: made.size }, 'backup made');
    return made;
  }

  /** One consistent, verified copy of the database, packed into each of `dirs`. */
  async make(dirs: string[]): Promise<MadeBackup> {
    if (dirs.length === 0) throw new Error('no directory to write the backup to');
    await Promise.all(dirs.map((dir) => mkdir(dir, { recursive: true })));
    const engine = this.engine;
    // Staged beside the first destination: the copy may be as large as the database.
    const staging = await mkdtemp(join(dirs[0]!, '.sitewright-backup-'));
    try {
      const data = join(staging, DATA_FILES[engine]);
      const migration =
        engine === 'sqlite'
          ? await snapshotSqlite(sqliteFile(this.target.dataDir), data)
          : await dumpPostgres(this.target.databaseUrl!, data);
      const manifest: BackupManifest = {
        format: 1,
        version: this.target.version,
        engine,
        migration,
        size: (await stat(data)).size,
        sha256: await sha256File(data),
        created_at: new Date().toISOString(),
        secrets_key: this.target.secretsKey,
      };
      await writeFile(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
      const name = backupFileName(new Date());
      const paths = dirs.map((dir) => join(dir, name));
      try {
        await packBackup(staging, engine, paths[0]!);
        for (const path of paths.slice(1)) await copyBackup(paths[0]!, path);
      } catch (error) {
        // A backup not in every directory is not made: none is left to fill a disk unpruned.
        await Promise.all(paths.map((path) => rm(path, { force: true })));
        throw error;
      }
      return { paths, manifest, size: (await stat(paths[0]!)).size };
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  /** Keeps the newest BACKUP_KEEP backups in `dir`; removes leftovers of runs that died. */
  async prune(dir: string): Promise<void> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const backups = names
      .filter((name) => BACKUP_NAME.test(name))
      .sort()
      .reverse();
    const stale = Date.now() - 24 * 3_600_000;
    for (const name of backups.slice(this.settings.keep)) await rm(join(dir, name), { force: true });
    for (const name of names) {
      const leftover =
        name.startsWith('.sitewright-backup-') || /^sitewright-.*\.tar\.gz\.partial$/.test(name);
      if (!leftover) continue;
      const info = await stat(join(dir, name)).catch(() => undefined);
      if (info && info.mtimeMs < stale) await rm(join(dir, name), { recursive: true, force: true });
    }
  }

  /**
   * Runs BACKUP_COMMAND with the backup's path; answers its failure, or null. It runs in a process
   * group of its own: at COMMAND_TIMEOUT_MS the whole group is killed (a pipeline's children too),
   * and its end is the shell's exit, not the closing of pipes that a stray child could hold.
   */
  private ship(path: string): Promise<string | null> {
    return new Promise((done) => {
      const command = this.settings.command!;
      // A command that does not name the path itself gets it as its last argument.
      const script = /\$\{?(1|SITEWRIGHT_BACKUP_FILE)\b/.test(command) ? command : `${command} "$1"`;
      const child = spawn('/bin/sh', ['-c', script, 'sitewright-backup', path], {
        env: { ...process.env, SITEWRIGHT_BACKUP_FILE: path },
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
      });
      let stderr = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, COMMAND_TIMEOUT_MS);
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-1_000)));
      child.on('error', (error) => {
        clearTimeout(timer);
        done(`BACKUP_COMMAND could not run: ${error.message}`);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        // Whatever it left running is stopped with it.
        killGroup(child.pid);
        child.stderr.destroy();
        if (code === 0) return done(null);
        const why = timedOut
          ? `took longer than ${COMMAND_TIMEOUT_MS / 60_000} minutes and was stopped`
          : signal
            ? `was stopped (${signal})`
            : `exited with ${code}`;
        const message = `BACKUP_COMMAND ${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`;
        this.logger?.error({ path }, message);
        done(message);
      });
    });
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

export interface Restored {
  manifest: BackupManifest;
  /** Where the data that was there was kept: a file (SQLite) or a schema (PostgreSQL). */
  keptAside: string | undefined;
  /** Set when the backup's secrets need a key this installation does not have. */
  secretsWarning: string | undefined;
}

/**
 * `sitewright restore FILE`: puts the backup in place of the database (DATA_DIR's or
 * DATABASE_URL's), refusing one that holds data unless `force`, and one made by a newer
 * Sitewright. The caller then opens the database, which migrates it forward.
 */
export async function restoreBackup(file: string, target: BackupTarget, force: boolean): Promise<Restored> {
  const engine = target.databaseUrl ? 'postgres' : 'sqlite';
  // Unpacked under DATA_DIR: on SQLite's disk, so the copy is moved into place rather than copied;
  // and writable in the image, whose root (and /tmp) may be read-only.
  await mkdir(target.dataDir, { recursive: true });
  const staging = await mkdtemp(join(target.dataDir, '.sitewright-restore-'));
  try {
    const manifest = await unpackBackup(file, staging);
    if (manifest.engine !== engine)
      throw new BackupFileError(
        `${file} is a ${manifest.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup; this installation uses ${engine === 'sqlite' ? 'SQLite (no DATABASE_URL)' : 'PostgreSQL (DATABASE_URL)'}`,
      );
    if (!knownMigrations().includes(manifest.migration))
      throw new BackupFileError(
        `${file} was made by a newer Sitewright (${manifest.version}, migration ${manifest.migration}); upgrade this one first`,
      );
    const data = join(staging, DATA_FILES[engine]);
    const keptAside =
      engine === 'sqlite'
        ? await installSqlite(target.dataDir, data, force)
        : await restorePostgres(target.databaseUrl!, data, force);
    const secretsWarning =
      manifest.secrets_key && manifest.secrets_key !== target.secretsKey
        ? `the organizations' secrets in this backup (AI model and Stripe keys) were sealed with the secrets key ${manifest.secrets_key}, and this installation has ${target.secretsKey ? `another (${target.secretsKey})` : 'none'}: set SECRETS_KEY to that key (or put its secrets.key back in DATA_DIR), or those organizations reconnect their keys`
        : undefined;
    return { manifest, keptAside, secretsWarning };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
