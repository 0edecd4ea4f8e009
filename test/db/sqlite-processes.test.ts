// Several processes of ours on one SQLite file (`sitewright start` twice, as docs/operations.md allows with a
// `sitewright worker` beside a server) write at the same time: every write waits for the write
// lock instead of failing with "database is locked" (a 500). SQLite only: PostgreSQL has no such
// lock.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { freePort, ServerProcess } from '../helpers/server-process.ts';

let db: TestDatabase | undefined;
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.kill('SIGTERM');
  await db?.drop();
});

describe.runIf(!onPostgres)('two server processes on one SQLite file', () => {
  it('answer every concurrent write without a 5xx', async () => {
    db = await createTestDatabase();
    const env = {
      DATA_DIR: db.dataDir,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_QUOTA: '100000',
      SQLITE_SYNCHRONOUS: 'NORMAL',
      WEBHOOK_POLL_INTERVAL: '20ms',
      GENERATION_POLL_INTERVAL: '50ms',
    };
    const container = await createContainer(loadConfig(env));
    const org = await container.services.orgs.createOrg(`Two processes ${process.pid}`);
    const { key } = await container.services.orgs.createKey(org.id, ['read', 'write'], null);
    await container.close();
    for (let i = 0; i < 2; i++) {
      const server = new ServerProcess(await freePort(), env);
      await server.start();
      servers.push(server);
    }
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const statuses: number[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < 160; i = next++) {
        const server = servers[i % 2]!;
        const email = `c${i}@example.com`;
        const client = await fetch(`${server.url}/api/v1/clients`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ email }),
        });
        statuses.push(client.status);
        const project = await fetch(`${server.url}/api/v1/projects`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ client_email: email, name: `Site ${i}` }),
        });
        statuses.push(project.status);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(
      statuses.filter((s) => s !== 201),
      servers.map((s) => s.logs.slice(-2000)).join('\n'),
    ).toEqual([]);
    const list = await (await fetch(`${servers[0]!.url}/api/v1/projects?limit=1`, { headers })).json();
    expect(list.total).toBe(160);
  }, 90_000);
});
