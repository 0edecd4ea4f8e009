// `sitewright user create|reset-password`, run as the real command; the accounts it makes are
// checked by signing in through the services on the same database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.ts';
import { testConfig } from '../helpers/app.ts';
import { cliEnv, runCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;
let ctx: Container;
let n = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  env = cliEnv(db);
  ctx = await createContainer(testConfig(db), { rateLimitKeyPrefix: `sw:test:cli-users:${process.pid}` });
});
afterAll(async () => {
  await ctx?.close();
  await db?.drop();
});

async function newOrg() {
  const name = `Users Co ${++n}`;
  const res = await runCli(['org', 'create', '--name', name, '--json'], env);
  expect(res.code).toBe(0);
  return JSON.parse(res.stdout) as { id: string; name: string };
}

const signIn = (email: string, password: string) =>
  ctx.services.accounts.signIn(email, password, '127.0.0.1');

describe('sitewright user', () => {
  it('creates a member with the password piped on stdin, printing no password', async () => {
    const org = await newOrg();
    const res = await runCli(
      ['user', 'create', '--email', 'ann@example.com', '--org', org.name, '--role', 'admin', '--name', 'Ann'],
      env,
      'piped secret 123\n',
    );
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout).toContain(`created user ann@example.com, admin of ${org.name}`);
    expect(res.stdout).not.toContain('password');
    expect(res.stdout).not.toContain('piped secret');
    const { token, user } = await signIn('ann@example.com', 'piped secret 123');
    expect(user.name).toBe('Ann');
    const session = await ctx.services.accounts.resolveSession(token);
    expect(session?.org).toEqual({ id: org.id, name: org.name, role: 'admin' });
  });

  it('generates a password when stdin gives none, and prints it once', async () => {
    const org = await newOrg();
    const res = await runCli(
      ['user', 'create', '--email', 'gen@example.com', '--org', org.id, '--role', 'owner', '--json'],
      env,
    );
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(res.stdout);
    expect(out).toEqual({
      id: expect.any(String),
      email: 'gen@example.com',
      name: null,
      org_id: org.id,
      role: 'owner',
      created: true,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    expect((await signIn('gen@example.com', out.password)).user.id).toBe(out.id);

    const text = await runCli(
      ['user', 'create', '--email', 'gen2@example.com', '--org', org.id, '--role', 'member'],
      env,
    );
    const password = /password: (\S+)/.exec(text.stdout)?.[1];
    expect(text.stdout.match(/password: /g)).toHaveLength(1);
    expect(text.stdout).toContain('shown only once');
    expect((await signIn('gen2@example.com', password!)).user.email).toBe('gen2@example.com');
  });

  it('adds an existing account to another organization without touching its password', async () => {
    const first = await newOrg();
    const second = await newOrg();
    await runCli(
      ['user', 'create', '--email', 'both@example.com', '--org', first.id, '--role', 'member'],
      env,
      'first password 1',
    );
    const res = await runCli(
      ['user', 'create', '--email', 'BOTH@example.com', '--org', second.id, '--role', 'admin'],
      env,
      'ignored password 2',
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('password is unchanged');
    const { token } = await signIn('both@example.com', 'first password 1');
    const session = await ctx.services.accounts.resolveSession(token);
    expect(session?.orgs.map((o) => [o.name, o.role]).sort()).toEqual([
      [first.name, 'member'],
      [second.name, 'admin'],
    ]);
    const again = await runCli(
      ['user', 'create', '--email', 'both@example.com', '--org', second.id, '--role', 'admin'],
      env,
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already a member');
  });

  it('reset-password sets the piped password and ends every session', async () => {
    const org = await newOrg();
    await runCli(
      ['user', 'create', '--email', 'reset@example.com', '--org', org.id, '--role', 'member'],
      env,
      'old password 123',
    );
    const { token } = await signIn('reset@example.com', 'old password 123');
    expect(await ctx.services.accounts.resolveSession(token)).toBeDefined();

    const res = await runCli(
      ['user', 'reset-password', '--email', 'reset@example.com'],
      env,
      'new password 456\n',
    );
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout).not.toContain('new password 456');
    expect(await ctx.services.accounts.resolveSession(token)).toBeUndefined();
    await expect(signIn('reset@example.com', 'old password 123')).rejects.toThrow();
    expect((await signIn('reset@example.com', 'new password 456')).user.email).toBe('reset@example.com');

    const generated = await runCli(['user', 'reset-password', '--email', 'reset@example.com', '--json'], env);
    const out = JSON.parse(generated.stdout);
    expect(out.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await signIn('reset@example.com', out.password)).user.email).toBe('reset@example.com');
  });

  it.each([
    [['user', 'create', '--org', 'x', '--role', 'member'], undefined, 'needs --email'],
    [['user', 'create', '--email', 'a@example.com', '--org', 'x'], undefined, 'needs --role'],
    [
      ['user', 'create', '--email', 'a@example.com', '--org', 'x', '--role', 'boss'],
      undefined,
      "unknown role 'boss'",
    ],
    [['user', 'create', '--email', 'a@example.com', '--role', 'member'], undefined, 'needs --org'],
    [
      ['user', 'create', '--email', 'a@example.com', '--org', 'No Such Org', '--role', 'member'],
      undefined,
      'no organization',
    ],
    [
      ['user', 'create', '--email', 'not-an-email', '--org', 'Users Co 1', '--role', 'member'],
      undefined,
      'valid email',
    ],
    [
      ['user', 'create', '--email', 'short@example.com', '--org', 'Users Co 1', '--role', 'member'],
      'short',
      'at least 10 characters',
    ],
    [
      ['user', 'create', '--email', 'two@example.com', '--org', 'Users Co 1', '--role', 'member'],
      'line one long\nline two long\n',
      'single line',
    ],
    [
      [
        'user',
        'create',
        '--email',
        'a@example.com',
        '--org',
        'x',
        '--role',
        'member',
        '--permissions',
        'read',
      ],
      undefined,
      'user create does not take --permissions',
    ],
    [
      ['user', 'reset-password', '--email', 'a@example.com', '--org', 'x'],
      undefined,
      'user reset-password does not take --org',
    ],
    [
      ['user', 'reset-password', '--email', 'nobody@example.com'],
      undefined,
      "no account with email 'nobody@example.com'",
    ],
    [['user', 'reset-password'], undefined, 'needs --email'],
    [['user', 'delete', '--email', 'a@example.com'], undefined, 'usage: sitewright user create'],
    [
      ['user', 'create', 'extra', '--email', 'a@example.com', '--org', 'x', '--role', 'member'],
      undefined,
      "unexpected argument 'extra'",
    ],
  ])('fails clearly on %j', async (args, input, message) => {
    const res = await runCli(args, env, input);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('lists the user commands in --help', async () => {
    const res = await runCli(['--help'], env);
    expect(res.stdout).toContain('user create --email E --org ORG_ID_OR_NAME --role owner|admin|member');
    expect(res.stdout).toContain('user reset-password --email E');
  });
});
