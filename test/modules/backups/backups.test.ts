// Backups on the engine under test: a backup in several directories at once, its manifest and
// checks, pruning to BACKUP_KEEP, BACKUP_COMMAND, and the schedule's slot (exactly one of several
// instances makes each backup; another takes over a dead one's, and a failed one is tried again).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { onPostgres } from '../../helpers/database.ts';
import { createClient } from '../../helpers/fixtures.ts';
import { BackupsService } from '../../../src/modules/backups/service.ts';
import { BackupScheduler } from '../../../src/modules/backups/scheduler.ts';
import { unpackBackup, BACKUP_NAME } from '../../../src/modules/backups/archive.ts';
import { systemPrincipal } from '../../../src/modules/access/principal.ts';
import type { BackupSettings } from '../../../src/modules/settings.ts';
import { claimSlot, firstOrgId, startCommandRun } from '../../../src/modules/backups/repo.ts';
import { newId } from '../../../src/lib/ids.ts';
import { knownMigrations } from '../../../src/db/migrate.ts';

const api = useTestApi();
const root = mkdtempSync(join(tmpdir(), 'sitewright-backups-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
let dirs: string[];
beforeEach(() => {
  n += 1;
  dirs = [join(root, `a${n}`), join(root, `b${n}`, 'nested')];
});

function service(settings: Partial<BackupSettings> = {}, secretsKey: string | null = null): BackupsService {
  return new BackupsService(
    api.ctx.database,
    {
      dataDir: api.ctx.config.dataDir,
      databaseUrl: api.ctx.config.databaseUrl,
      secretsKey,
      version: '9.9.9',
    },
    { dirs, intervalMs: 3_600_000, keep: 7, command: undefined, ...settings },
  );
}

/** The operator: acting for the installation's first organization. */
const operator = async () => systemPrincipal((await firstOrgId(api.ctx.database.db))!);

const backupsIn = (dir: string) => readdirSync(dir).filter((name) => BACKUP_NAME.test(name));

describe('a backup', () => {
  it('is one verified archive in every directory, with a manifest that names what it holds', async () => {
    const client = await createClient(api);
    const made = await service({}, 'abcd1234abcd1234').make(dirs);
    expect(made.paths.map((p) => p.split('/').slice(0, -1).join('/'))).toEqual(dirs);
    for (const dir of dirs) {
      expect(backupsIn(dir)).toHaveLength(1);
      // Nothing else is left: no staging directory, no .partial file.
      expect(readdirSync(dir)).toEqual(backupsIn(dir));
    }
    expect(readFileSync(made.paths[0]!)).toEqual(readFileSync(made.paths[1]!));
    expect(made.manifest).toMatchObject({
      format: 1,
      version: '9.9.9',
      engine: onPostgres ? 'postgres' : 'sqlite',
      migration: knownMigrations().at(-1),
      secrets_key: 'abcd1234abcd1234',
    });
    expect(made.manifest.sha256).toMatch(/^[0-9a-f]{64}$/);
    const out = mkdtempSync(join(root, 'unpack-'));
    const manifest = await unpackBackup(made.paths[1]!, out);
    expect(manifest).toEqual(made.manifest);
    expect(readdirSync(out).sort()).toEqual(
      ['manifest.json', onPostgres ? 'database.pgdump' : 'database.sqlite'].sort(),
    );
    if (!onPostgres) {
      // The copy is a whole database of its own, holding what was written before it.
      const { default: SQLite } = await import('better-sqlite3');
      const copy = new SQLite(join(out, 'database.sqlite'), { readonly: true });
      expect(copy.prepare('select email from clients where id = ?').get(client.id)).toEqual({
        email: client.email,
      });
      copy.close();
    }
  });

  it('is refused when damaged: a changed byte fails the checksum, another file is not a backup', async () => {
    const made = await service().make(dirs);
    const out = mkdtempSync(join(root, 'bad-'));
    const bytes = readFileSync(made.paths[0]!);
    bytes[bytes.length - 40] = bytes[bytes.length - 40]! ^ 0xff;
    const damaged = join(root, `damaged-${n}.tar.gz`);
    writeFileSync(damaged, bytes);
    await expect(unpackBackup(damaged, out)).rejects.toThrow(/not a Sitewright backup|damaged/);
    const other = join(root, `other-${n}.tar.gz`);
    writeFileSync(other, 'hello');
    await expect(unpackBackup(other, mkdtempSync(join(root, 'bad-')))).rejects.toThrow(
      'is not a Sitewright backup',
    );
  });

  it('is recorded with its size and destinations, pruned to BACKUP_KEEP, and shipped by BACKUP_COMMAND', async () => {
    const shipped = join(root, `shipped-${n}.txt`);
    const backups = service({
      keep: 2,
      command: `printf '%s|%s\\n' "$1" "$SITEWRIGHT_BACKUP_FILE" >> ${shipped}`,
    });
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await backups.backupNow(dirs, true));
    for (const dir of dirs)
      expect(backupsIn(dir)).toEqual(
        made
          .slice(1)
          .map((m) => m.paths[0]!.split('/').pop())
          .sort(),
      );
    const lines = readFileSync(shipped, 'utf8').trim().split('\n');
    expect(lines).toEqual(made.map((m) => `${m.paths[0]}|${m.paths[0]}`));
    const { runs, lastSuccess } = await backups.overview(await operator());
    expect(lastSuccess).toMatchObject({ status: 'succeeded', trigger: 'command', size: made[2]!.size });
    expect(runs[0]).toMatchObject({
      file_name: made[2]!.paths[0]!.split('/').pop(),
      destinations: dirs,
      command_error: null,
    });
  });

  it('records a command that fails, and keeps the backup', async () => {
    const backups = service({ command: 'echo no route to the bucket >&2; exit 3' });
    const made = await backups.backupNow(dirs, true);
    expect(existsSync(made.paths[0]!)).toBe(true);
    const { runs } = await backups.overview(await operator());
    expect(runs[0]).toMatchObject({
      status: 'succeeded',
      command_error: 'BACKUP_COMMAND exited with 3: no route to the bucket',
    });
  });

  it('that fails is recorded with why, and leaves no file behind', async () => {
    const file = join(root, `a-file-${n}`);
    writeFileSync(file, '');
    const backups = service();
    await expect(backups.backupNow([join(file, 'sub')], true)).rejects.toThrow();
    const { lastFailure } = await backups.overview(await operator());
    expect(lastFailure?.error).toMatch(/ENOTDIR|not a directory/);
  });

  it("is shown to the owners of the installation's first organization only", async () => {
    const first = (await firstOrgId(api.ctx.database.db))!;
    const as = (orgId: string, role: 'owner' | 'admin') => ({
      orgId,
      permissions: ['read', 'write'] as const,
      actor: { kind: 'member' as const, userId: 'u', role },
    });
    expect(await service().mayOverview(as(first, 'owner') as never)).toBe(true);
    expect(await service().mayOverview(as(first, 'admin') as never)).toBe(false);
    // An agency that signed up on the same installation later.
    const later = await api.ctx.services.orgs.createOrg(`Signed-up agency ${n}`);
    expect(await service().mayOverview(as(later.id, 'owner') as never)).toBe(false);
    await expect(service().overview(as(later.id, 'owner') as never)).rejects.toThrow(
      "only the owners of the installation's first organization",
    );
  });

  it('is not kept in any directory when it cannot be written to every one', async () => {
    const file = join(root, `full-disk-${n}`);
    writeFileSync(file, '');
    // The second directory exists as a file: the copy there fails after the first is written.
    const broken = [dirs[0]!, file];
    await expect(service().backupNow(broken, true)).rejects.toThrow();
    expect(backupsIn(dirs[0]!)).toEqual([]);
    expect(readdirSync(dirs[0]!).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('shows a run whose process died as interrupted', async () => {
    const now = Date.now();
    const lease = {
      id: newId(),
      token: newId(),
      now: new Date(now - 120_000).toISOString(),
      until: new Date(now - 60_000).toISOString(),
    };
    await startCommandRun(api.ctx.database.db, lease);
    const { runs } = await service().overview(await operator());
    expect(runs.find((r) => r.id === lease.id)?.status).toBe('interrupted');
  });

  it('ends BACKUP_COMMAND when its shell does, and stops what it left running', async () => {
    const marker = join(root, `stray-${n}`);
    const backups = service({ command: `(sleep 3; touch ${marker}) >&2 & echo shipped` });
    const started = Date.now();
    await backups.backupNow(dirs, true);
    expect(Date.now() - started).toBeLessThan(2_500);
    await new Promise((r) => setTimeout(r, 3_500));
    expect(existsSync(marker)).toBe(false);
  });
});

describe('the schedule', () => {
  it('makes each slot once, whichever of several instances asks', async () => {
    const backups = service({ intervalMs: 86_400_000 });
    const instances = [1, 2, 3].map(() => new BackupScheduler(backups, api.ctx.database));
    const at = Date.UTC(2031, 0, 5, 3);
    const made = await Promise.all(instances.map((s) => s.tick(at)));
    expect(made.filter(Boolean)).toHaveLength(1);
    expect(await instances[0]!.tick(at + 3_600_000)).toBe(false); // the same day: done
    expect(backupsIn(dirs[0]!)).toHaveLength(1);
    expect(await instances[1]!.tick(at + 86_400_000)).toBe(true); // the next day
    expect(backupsIn(dirs[1]!)).toHaveLength(2);
  });

  it('tries a failed backup again after a while, not at once', async () => {
    const file = join(root, `blocker-${n}`);
    writeFileSync(file, '');
    // One slot in a thousand days: every tick below asks for the same one.
    const intervalMs = 1_000 * 86_400_000;
    const now = Date.now();
    expect(
      await new BackupScheduler(service({ intervalMs, dirs: [join(file, 'x')] }), api.ctx.database).tick(now),
    ).toBe(false);
    const fixed = new BackupScheduler(service({ intervalMs }), api.ctx.database);
    expect(await fixed.tick(now + 60_000)).toBe(false);
    expect(existsSync(dirs[0]!)).toBe(false);
    expect(await fixed.tick(now + 16 * 60_000)).toBe(true);
    expect(backupsIn(dirs[0]!)).toHaveLength(1);
  });

  it('takes over the backup of an instance that died while making it', async () => {
    const intervalMs = 2_000 * 86_400_000;
    const now = Date.now();
    const slot = `${intervalMs}:${Math.floor(now / intervalMs)}`;
    const dead = {
      id: newId(),
      token: newId(),
      now: new Date(now).toISOString(),
      until: new Date(now + 60_000).toISOString(),
    };
    expect(await claimSlot(api.ctx.database.db, slot, dead, new Date(0).toISOString())).toBe(dead.id);
    const scheduler = new BackupScheduler(service({ intervalMs }), api.ctx.database);
    expect(await scheduler.tick(now + 30_000)).toBe(false); // its lease still runs
    expect(await scheduler.tick(now + 61_000)).toBe(true);
    const { runs } = await service().overview(await operator());
    expect(runs.find((r) => r.id === dead.id)).toMatchObject({ status: 'succeeded', trigger: 'schedule' });
  });
});
