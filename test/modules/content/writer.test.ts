// The content write protocol, called as a library against a real database (SQLite, or PostgreSQL
// with TEST_DATABASE_URL): a change holds the project's lock, checks the rules, writes the files,
// records a version, and then the caller's work, all in one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../../src/container.ts';
import { ContentWriter } from '../../../src/modules/content/writer.ts';
import { TooLargeError } from '../../../src/modules/common/errors.ts';
import { testConfig } from '../../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { systemPrincipal } from '../../../src/modules/access/principal.ts';

let db: TestDatabase;
let runtime: Container;
let writer: ContentWriter;
let orgId: string;
let clientEmail: string;
const LIMITS = {
  maxFileBytes: 1_000,
  maxProjectBytes: 10_000,
  maxProjectFiles: 5,
  maxImagePixels: 1_000_000,
};

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await createContainer(testConfig(db));
  writer = new ContentWriter(runtime.database, LIMITS);
  const org = await runtime.services.orgs.createOrg('Content Agency');
  orgId = org.id;
  clientEmail = (
    await runtime.services.clients.create(systemPrincipal(orgId), { email: 'c@content.test', name: 'C' })
  ).email;
});

afterAll(async () => {
  await runtime?.close();
  await db?.drop();
});

const newProject = async () =>
  (
    await runtime.services.projects.create(systemPrincipal(orgId), {
      client_email: clientEmail,
      name: 'Site',
    })
  ).id;
const versionCount = async (projectId: string) =>
  (await runtime.services.versions.list(systemPrincipal(orgId), projectId, 100, 0)).total;
const paths = async (projectId: string) =>
  (await runtime.services.files.list(systemPrincipal(orgId), projectId)).map((f) => f.path).sort();
const put = (projectId: string, path: string, text: string, then?: () => Promise<void>) =>
  writer.change(systemPrincipal(orgId), projectId, {
    write: (files) => files.put(path, Buffer.from(text)),
    version: () => ({ source: 'files_api', summary: `Wrote ${path}` }),
    finish: async (_trx, result) => {
      await then?.();
      return result;
    },
  });

describe('the content writer', () => {
  it('writes the files and records a version, and none when nothing changed', async () => {
    const id = await newProject();
    expect((await put(id, 'index.html', '<h1>One</h1>')).created).toBe(true);
    expect(await versionCount(id)).toBe(1);
    expect((await put(id, 'index.html', '<h1>One</h1>')).created).toBe(false);
    expect(await versionCount(id)).toBe(1);
    await put(id, 'index.html', '<h1>Two</h1>');
    expect(await versionCount(id)).toBe(2);
  });

  it('refuses what breaks a rule before anything is written', async () => {
    const id = await newProject();
    await expect(put(id, 'big.html', 'x'.repeat(1_001))).rejects.toBeInstanceOf(TooLargeError);
    expect(await paths(id)).toEqual([]);
    expect(await versionCount(id)).toBe(0);
  });

  it("rolls the files and the version back when the caller's own work fails", async () => {
    const id = await newProject();
    await put(id, 'index.html', '<h1>Kept</h1>');
    const failing = put(id, 'about.html', '<h1>Lost</h1>', async () => {
      throw new Error('the caller failed');
    });
    await expect(failing).rejects.toThrow('the caller failed');
    expect(await paths(id)).toEqual(['index.html']);
    expect(await versionCount(id)).toBe(1);
  });

  it('queues concurrent changes of one project, so its limits hold', async () => {
    const id = await newProject();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => put(id, `page-${i}.html`, `<p>${i}</p>`)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(LIMITS.maxProjectFiles);
    expect(await paths(id)).toHaveLength(LIMITS.maxProjectFiles);
    expect(await versionCount(id)).toBe(LIMITS.maxProjectFiles);
  });
});
