// `sitewright backup [--to DIR]` and `sitewright restore FILE [--force]` (docs/operations.md,
// Backups). A backup is taken while the server runs and writes; a restore is made with the server
// stopped, into an empty DATA_DIR or database.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config.ts';
import { openMigratedDatabase, secretsKeyFingerprint } from '../container.ts';
import { VERSION } from '../lib/version.ts';
import {
  BackupFileError,
  BackupsService,
  RestoreRefusedError,
  restoreBackup,
  type BackupTarget,
} from '../modules/backups/service.ts';
import { announceDatabase, databaseName, openExistingDatabase } from './database.ts';
import { noExtra } from './commands.ts';
import { CliError, printJson } from './output.ts';

interface Flags {
  to?: string | undefined;
  force?: boolean | undefined;
  json?: boolean | undefined;
}

function targetOf(config: Config): BackupTarget {
  return {
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    secretsKey: secretsKeyFingerprint(config),
    version: VERSION,
  };
}

export async function backupCommand(config: Config, args: string[], flags: Flags): Promise<void> {
  noExtra(args, 'backup');
  if (flags.to !== undefined && !flags.to.trim()) throw new CliError('backup --to needs a directory');
  const dirs = flags.to ? [flags.to] : config.backup.dirs;
  if (dirs.length === 0) throw new CliError('backup needs --to DIR, or BACKUP_DIR set to where backups go');
  const database = await openExistingDatabase(config);
  try {
    const backups = new BackupsService(database, targetOf(config), config.backup);
    // Without --to it is the schedule's backup made now: pruned to BACKUP_KEEP, shipped with BACKUP_COMMAND.
    const made = await backups.backupNow(dirs, !flags.to).catch((error: unknown) => {
      throw new CliError(`backup failed: ${(error as Error).message}`);
    });
    const paths = made.paths.map((path) => resolve(path));
    if (flags.json) printJson({ paths, size: made.size, manifest: made.manifest });
    else
      process.stdout.write(
        `backup of ${databaseName(config)} written (${made.size} bytes, migration ${made.manifest.migration}):\n${paths.map((p) => `  ${p}\n`).join('')}`,
      );
  } finally {
    await database.close();
  }
}

export async function restoreCommand(config: Config, args: string[], flags: Flags): Promise<void> {
  const [file, ...extra] = args;
  noExtra(extra, 'restore');
  if (!file) throw new CliError('restore needs the backup file: sitewright restore FILE [--force]');
  if (!existsSync(file)) throw new CliError(`no file at ${resolve(file)}`);
  announceDatabase(config);
  let restored;
  try {
    restored = await restoreBackup(file, targetOf(config), flags.force === true);
  } catch (error) {
    if (error instanceof BackupFileError || error instanceof RestoreRefusedError)
      throw new CliError(error.message);
    throw error;
  }
  // Opening the database migrates it forward to this code's schema.
  const database = await openMigratedDatabase(config);
  await database.close();
  const { manifest, keptAside, secretsWarning } = restored;
  if (flags.json) printJson({ restored: resolve(file), manifest, kept_aside: keptAside ?? null });
  else
    process.stdout.write(
      `restored ${resolve(file)} (made ${manifest.created_at} by Sitewright ${manifest.version}) into ${databaseName(config)}\n` +
        (keptAside ? `  what was there is kept aside as ${keptAside}\n` : ''),
    );
  if (secretsWarning) process.stderr.write(`sitewright: warning: ${secretsWarning}\n`);
}
