// `sitewright backup` and `sitewright restore` as an operator runs them, on the engine under test,
// and the restore drill: a backup taken while a writer creates clients and publishes sites,
// restored into a fresh place, and the restored server serving everything answered before the
// backup began, to the same keys.
import { readdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { cliEnv, runCli } from '../helpers/cli.ts';
import { freePort, ServerProcess } from '../helpers/server-process.ts';
import { fetchSite } from '../helpers/site-client.ts';

const dbs: TestDatabase[] = [];
const root = mkdtempSync(join(tmpdir(), 'sitewright-backup-cli-'));
afterAll(async () => {
  await Promise.all(dbs.map((db) => db.drop()));
  rmSync(root, { recursive: true, force: true });
});

async function database(): Promise<{ db: TestDatabase; env: NodeJS.ProcessEnv }> {
  const db = await createTestDatabase();
  dbs.push(db);
  return { db, env: cliEnv(db) };
}

async function ok(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const res = await runCli(args, env);
  expect(res.stderr + res.stdout, args.join(' ')).not.toContain('Error:');
  expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
  return res.stdout;
}

let source: { db: TestDatabase; env: NodeJS.ProcessEnv };
let file: string;
beforeAll(async () => {
  source = await database();
  await ok(['migrate'], source.env);
  await ok(['org', 'create', '--name', 'Kept'], source.env);
  file = JSON.parse(await ok(['backup', '--to', join(root, 'plain'), '--json'], source.env)).paths[0];
});

describe('sitewright backup', () => {
  it('needs somewhere to write', async () => {
    const res = await runCli(['backup'], source.env);
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toContain('backup needs --to DIR, or BACKUP_DIR set');
  });

  it('writes to every BACKUP_DIR and keeps BACKUP_KEEP there', async () => {
    const dirs = [join(root, 'one'), join(root, 'two')];
    const env = { ...source.env, BACKUP_DIR: dirs.join(','), BACKUP_KEEP: '1' };
    await ok(['backup'], env);
    const out = await ok(['backup'], env);
    for (const dir of dirs) {
      const names = readdirSync(dir);
      expect(names).toHaveLength(1);
      expect(out).toContain(join(dir, names[0]!));
    }
  });
});

describe('sitewright restore', () => {
  it('restores into an empty place and refuses one with data unless --force, which keeps it aside', async () => {
    const target = await database();
    const first = await runCli(['restore', file], target.env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('restored');
    expect(JSON.parse(await ok(['org', 'list', '--json'], target.env)).map((o: any) => o.name)).toEqual([
      'Kept',
    ]);
    await ok(['org', 'create', '--name', 'Later'], target.env);
    const again = await runCli(['restore', file], target.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds data');
    expect(again.stderr).toContain('--force');
    const forced = JSON.parse(await ok(['restore', file, '--force', '--json'], target.env));
    expect(forced.kept_aside).toBeTruthy();
    if (!onPostgres) expect(existsSync(forced.kept_aside)).toBe(true);
    const names = async () =>
      JSON.parse(await ok(['org', 'list', '--json'], target.env)).map((o: any) => o.name);
    expect(await names()).toEqual(['Kept']);
    // Again, over a database that now holds a kept-aside copy: a backup carries Sitewright's own
    // tables only, and a second forced restore keeps the current ones aside too.
    const later = JSON.parse(await ok(['backup', '--to', join(root, 'second'), '--json'], target.env))
      .paths[0];
    await ok(['org', 'create', '--name', 'Later again'], target.env);
    const second = JSON.parse(await ok(['restore', later, '--force', '--json'], target.env));
    expect(second.kept_aside).toBeTruthy();
    expect(second.kept_aside).not.toBe(forced.kept_aside);
    expect(await names()).toEqual(['Kept']);
    // Ten runs of the command, each a process of its own.
  }, 60_000);

  it('refuses what is not a backup, a damaged one, and one made by a newer Sitewright', async () => {
    const target = await database();
    const bogus = join(root, 'bogus.tar.gz');
    writeFileSync(bogus, 'not a backup');
    const damaged = join(root, 'damaged.tar.gz');
    const bytes = readFileSync(file);
    bytes[bytes.length - 40] = bytes[bytes.length - 40]! ^ 0xff;
    writeFileSync(damaged, bytes);
    for (const [path, message] of [
      [join(root, 'missing.tar.gz'), 'no file at'],
      [bogus, 'is not a Sitewright backup'],
      [damaged, /is not a Sitewright backup|is damaged/],
    ] as const) {
      const res = await runCli(['restore', path], target.env);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(message);
    }
    // A newer version's backup: its manifest names a migration this code does not know.
    const { execFileSync } = await import('node:child_process');
    const dir = mkdtempSync(join(root, 'newer-'));
    execFileSync('tar', ['xzf', file, '-C', dir]);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, migration: '999_future' }));
    const newer = join(root, 'newer.tar.gz');
    execFileSync('tar', [
      'czf',
      newer,
      '-C',
      dir,
      'manifest.json',
      onPostgres ? 'database.pgdump' : 'database.sqlite',
    ]);
    const res = await runCli(['restore', newer], target.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('was made by a newer Sitewright');
    expect(res.stderr).toContain('999_future');
    // Nothing was written by any of them.
    if (!onPostgres) expect(existsSync(join(target.db.dataDir, 'sitewright.db'))).toBe(false);
  });
});

describe('the restore drill', () => {
  it('restores every record answered before the backup began, every published site, and the keys', async () => {
    const live = await database();
    await ok(['migrate'], live.env);
    await ok(['org', 'create', '--name', 'Drill'], live.env);
    const key = JSON.parse(
      await ok(['keys', 'create', '--org', 'Drill', '--permissions', 'read,write', '--json'], live.env),
    ).key as string;
    const server = new ServerProcess(await freePort(), {
      ...(live.env as Record<string, string>),
      RATE_LIMIT_QUOTA: '100000',
    });
    await server.start();
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res.json() as Promise<any>;
    };
    interface Site {
      client: string;
      subdomain: string;
      text: string;
    }
    const answered: { at: number; site: Site }[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const email = `drill-${i}@example.com`;
        const { client } = await call('POST', '/clients', { email, name: `Drill ${i}` });
        const { project } = await call('POST', '/projects', { name: `Site ${i}`, client_email: email });
        const text = `Drill site number ${i}`;
        await call('POST', `/projects/${project.id}/publish`, {
          builtFiles: { 'index.html': `<!doctype html><title>${i}</title><h1>${text}</h1>` },
        });
        answered.push({ at: Date.now(), site: { client: client.id, subdomain: project.subdomain, text } });
      }
    })();
    while (answered.length < 5) await new Promise((r) => setTimeout(r, 20));
    const began = Date.now();
    const before = answered.filter((a) => a.at < began).map((a) => a.site);
    const backup = await runCli(['backup', '--to', join(root, 'drill'), '--json'], live.env);
    const during = answered.length - before.length;
    writing = false;
    await writer;
    await server.kill('SIGTERM');
    expect(backup.code, backup.stderr).toBe(0);
    // The writer went on while the backup was made.
    expect(during).toBeGreaterThan(0);

    const fresh = await database();
    await ok(['restore', JSON.parse(backup.stdout).paths[0]], fresh.env);
    const restored = new ServerProcess(await freePort(), fresh.env as Record<string, string>);
    await restored.start();
    try {
      expect((await fetch(`${restored.url}/readyz`)).status).toBe(200);
      for (const site of before) {
        const res = await fetch(`${restored.url}/api/v1/clients/${site.client}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(res.status).toBe(200);
        const page = await fetchSite(restored.port, `${site.subdomain}.localhost:${restored.port}`, '/');
        expect(page.status).toBe(200);
        expect(page.body).toContain(site.text);
      }
    } finally {
      await restored.kill('SIGTERM');
    }
  }, 120_000);
});
