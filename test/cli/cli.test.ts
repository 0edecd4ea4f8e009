import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { cliEnv, runCli, startServer, stopServer } from '../helpers/cli.ts';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  db = await createTestDatabase();
  env = cliEnv(db);
  // Only migrate (and start) create a database; the other commands need the server's.
  expect((await runCli(['migrate'], env)).code).toBe(0);
});

/** How the CLI names the test database on stderr. */
const nameOf = (t: TestDatabase) =>
  t.databaseUrl
    ? `PostgreSQL ${new URL(t.databaseUrl).host}${new URL(t.databaseUrl).pathname}`
    : `SQLite ${join(t.dataDir, 'sitewright.db')}`;
afterAll(async () => db?.drop());

describe('the database the CLI opens', () => {
  it('is named on stderr by the commands that write, never with credentials', async () => {
    const created = await runCli(['org', 'create', '--name', 'Named DB', '--json'], env);
    expect(created.code).toBe(0);
    expect(created.stderr).toBe(`sitewright: database: ${nameOf(db)}\n`);
    expect(created.stderr).not.toContain('postgres@');
    expect(JSON.parse(created.stdout).name).toBe('Named DB');
    const key = await runCli(['keys', 'create', '--org', 'Named DB', '--permissions', 'read', '--json'], env);
    expect(key.stderr).toBe(`sitewright: database: ${nameOf(db)}\n`);
    expect((await runCli(['keys', 'revoke', JSON.parse(key.stdout).id], env)).stderr).toBe(
      `sitewright: database: ${nameOf(db)}\n`,
    );
    expect((await runCli(['org', 'list', '--json'], env)).stderr).toBe('');
  });

  it('is never created by a command other than migrate or start: another DATA_DIR is a clear error', async () => {
    const other = await createTestDatabase();
    try {
      const otherEnv = cliEnv(other);
      const missing = onPostgres
        ? `${nameOf(other)} holds no Sitewright tables`
        : `no database at ${join(other.dataDir, 'sitewright.db')} (DATA_DIR=${other.dataDir})`;
      for (const args of [
        ['org', 'create', '--name', 'Lost'],
        ['keys', 'create', '--org', 'Lost', '--permissions', 'read'],
        ['org', 'list'],
        ['keys', 'revoke', '01a20225-2fef-73dd-be9d-af188b7b1886'],
        ['worker'],
      ]) {
        const res = await runCli(args, otherEnv);
        expect([args, res.code, res.stdout]).toEqual([args, 2, '']);
        expect(res.stderr).toContain(missing);
        expect(res.stderr).toContain(
          'Set DATA_DIR (or DATABASE_URL) to the one the server uses, or run `sitewright migrate`',
        );
      }
      if (!onPostgres) expect(readdirSync(other.dataDir)).toEqual([]);
      // migrate creates it, saying where; then the other commands work on it.
      const migrated = await runCli(['migrate'], otherEnv);
      expect(migrated.code).toBe(0);
      expect(migrated.stderr).toBe(`sitewright: database: ${nameOf(other)}\n`);
      if (!onPostgres) expect(existsSync(join(other.dataDir, 'sitewright.db'))).toBe(true);
      expect((await runCli(['org', 'create', '--name', 'Found'], otherEnv)).code).toBe(0);
    } finally {
      await other.drop();
    }
  });
});

describe('sitewright CLI', () => {
  it('creates and lists organizations', async () => {
    const created = await runCli(['org', 'create', '--name', 'Acme Agency', '--json'], env);
    expect(created.code).toBe(0);
    const org = JSON.parse(created.stdout);
    expect(org).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme Agency',
      created_at: expect.any(String),
    });
    const list = await runCli(['org', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toContainEqual(org);
    const text = await runCli(['org', 'list'], env);
    expect(text.stdout).toContain('Acme Agency');
    const dup = await runCli(['org', 'create', '--name', 'Acme Agency'], env);
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toContain('already exists');
  });

  it('creates a key shown once, lists keys without secrets, revokes', async () => {
    const org = JSON.parse((await runCli(['org', 'create', '--name', 'Keys Co', '--json'], env)).stdout);
    const created = await runCli(
      ['keys', 'create', '--org', 'Keys Co', '--permissions', 'read,write', '--name', 'ci', '--json'],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    const key = JSON.parse(created.stdout);
    expect(Object.keys(key).sort()).toEqual(['created_at', 'id', 'key', 'name', 'org_id', 'permissions']);
    expect(key).toMatchObject({ org_id: org.id, permissions: ['read', 'write'], name: 'ci' });
    expect(key.key).toMatch(/^wk_[0-9A-Za-z]{49}$/);

    const byId = await runCli(['keys', 'list', '--org', org.id, '--json'], env);
    const listed = JSON.parse(byId.stdout);
    expect(listed).toHaveLength(1);
    expect(byId.stdout).not.toContain(key.key);
    expect(listed[0]).toMatchObject({ id: key.id, prefix: key.key.slice(0, 11), revoked_at: null });

    const revoked = await runCli(['keys', 'revoke', key.id], env);
    expect(revoked.code).toBe(0);
    const after = JSON.parse((await runCli(['keys', 'list', '--org', org.id, '--json'], env)).stdout);
    expect(after[0].revoked_at).not.toBeNull();
  });

  it('sets the embed origins and creates an embed key for a headless install', async () => {
    const org = JSON.parse((await runCli(['org', 'create', '--name', 'Embed Co', '--json'], env)).stdout);
    const origins = ['https://app.host.example', 'http://localhost:5173/'];
    const set = await runCli(
      ['org', 'update', '--org', 'Embed Co', '--embed-origins', origins.join(','), '--json'],
      env,
    );
    expect([set.code, set.stderr]).toEqual([0, `sitewright: database: ${nameOf(db)}\n`]);
    expect(JSON.parse(set.stdout)).toEqual({
      id: org.id,
      embed_origins: ['https://app.host.example', 'http://localhost:5173'],
    });
    const key = await runCli(['keys', 'create', '--org', org.id, '--permissions', 'embed', '--json'], env);
    expect(JSON.parse(key.stdout)).toMatchObject({ permissions: ['embed'] });
    const cleared = await runCli(['org', 'update', '--org', org.id, '--embed-origins', ''], env);
    expect(cleared.stdout).toBe('Embed Co: embed origins (none)\n');
  });

  it.each([
    [['org', 'update', '--org', 'x'], '--embed-origins'],
    [['org', 'update', '--org', 'No Such Org', '--embed-origins', 'https://a.example'], 'no organization'],
    [['keys', 'create', '--org', 'Embed Co', '--permissions', 'read,embed'], 'embed permission alone'],
    [['keys', 'create', '--org', 'No Such Org', '--permissions', 'read'], 'no organization'],
    [['keys', 'create', '--org', 'x', '--permissions', 'admin'], "unknown permission 'admin'"],
    [['keys', 'create', '--permissions', 'read'], '--org'],
    [['keys', 'revoke', '01a20225-2fef-73dd-be9d-af188b7b1886'], 'no API key'],
    [['org', 'create'], '--name'],
    [['org', 'create', '--name', 'X', '--bogus'], 'bogus'],
    [['frobnicate'], "unknown command 'frobnicate'"],
    [[], 'a command is needed'],
    [['org', 'list', '--name', 'foo'], 'org list does not take --name'],
    [
      ['keys', 'revoke', '--org', 'x', '01a20225-2fef-73dd-be9d-af188b7b1886'],
      'keys revoke does not take --org',
    ],
    [['migrate', '--json'], 'migrate does not take --json'],
    [['org', 'create', '--name', '01a20225-2fef-73dd-be9d-af188b7b1886'], 'must not be a UUID'],
  ])('fails clearly on %j', async (args, message) => {
    const res = await runCli(args, env);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints its usage for --help, on stdout', async () => {
    const res = await runCli(['--help'], env);
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout).toContain('Usage: sitewright <command>');
  });

  it('works while the server runs on the same data, and the server stops gracefully', async () => {
    const port = 20000 + (process.pid % 20000);
    const server = await startServer(env, port);
    try {
      await runCli(['org', 'create', '--name', 'Live', '--json'], env);
      const { key, id } = JSON.parse(
        (await runCli(['keys', 'create', '--org', 'Live', '--permissions', 'read,write', '--json'], env))
          .stdout,
      );
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'live@example.com' }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('x-request-id')).toBeTruthy();

      // The server remembers authenticated keys; a revocation by another process still counts
      // from the very next request.
      const list = () =>
        fetch(`http://127.0.0.1:${port}/api/v1/clients`, { headers: { authorization: `Bearer ${key}` } });
      expect((await list()).status).toBe(200);
      expect((await list()).status).toBe(200);
      expect((await runCli(['keys', 'revoke', id], env)).code).toBe(0);
      expect((await list()).status).toBe(401);
    } finally {
      expect(await stopServer(server)).toBe(0);
    }
  });

  it('stops the server when `npm start` itself gets SIGTERM, as a supervisor sends it', async () => {
    const port = 20000 + ((process.pid + 1) % 20000);
    const npm = await startServer(env, port, ['npm', 'start']);
    expect(await stopServer(npm)).toBe(0);
    // The server is gone too, not left running without its parent.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
