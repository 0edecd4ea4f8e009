// A generation and a publish called as a library against a real database (SQLite, or PostgreSQL
// with TEST_DATABASE_URL), the worker running in this process: a prompt becomes the project's
// files and a version, a publish a deployment named after that version, a second publish of the
// same files no new version, and a rollback only repoints the project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../../src/container.ts';
import { GenerationWorker } from '../../../src/modules/generations/worker.ts';
import { testConfig } from '../../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { waitUntil } from '../../helpers/wait.ts';
import { systemPrincipal } from '../../../src/modules/access/principal.ts';

let db: TestDatabase;
let runtime: Container;
let worker: GenerationWorker;
let orgId: string;
let projectId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await createContainer(testConfig(db, { GENERATION_POLL_INTERVAL: '50ms' }));
  worker = new GenerationWorker(runtime.database, runtime.services.aiModels, runtime.config);
  worker.start();
  const { orgs, clients, projects } = runtime.services;
  orgId = (await orgs.createOrg('Core Agency')).id;
  const client = await clients.create(systemPrincipal(orgId), { email: 'bakery@core.test', name: 'Jane' });
  projectId = (
    await projects.create(systemPrincipal(orgId), { client_email: client.email, name: 'Jane Bakery' })
  ).id;
});

afterAll(async () => {
  await worker?.stop(1_000);
  await runtime?.close();
  await db?.drop();
});

describe('a generation and a publish through the services', () => {
  it('turns a prompt into the files and one version, then publishes that version', async () => {
    const { generations, files, versions, publishing, deployments } = runtime.services;
    const generation = await generations.create(systemPrincipal(orgId), projectId, {
      prompt: 'A website for Jane Bakery in Bristol, warm colours',
    });
    expect(generation.status).toBe('queued');
    await waitUntil(
      async () =>
        (await generations.get(systemPrincipal(orgId), { projectId, generationId: generation.id })).status ===
        'succeeded',
      20_000,
      'the generation to succeed',
    );
    const paths = (await files.list(systemPrincipal(orgId), projectId)).map((f) => f.path);
    expect(paths).toContain('index.html');
    const history = await versions.list(systemPrincipal(orgId), projectId, 10, 0);
    expect(history.total).toBe(1);
    expect(history.versions[0]).toMatchObject({ source: 'generation', generation_id: generation.id });

    const first = await publishing.publish(systemPrincipal(orgId), projectId);
    expect(first.project.published_url).toMatch(/^https?:\/\//);
    const again = await publishing.publish(systemPrincipal(orgId), projectId);
    expect(again.deployId).not.toBe(first.deployId);
    // The same files: no new version, and both deployments name the one there is.
    expect((await versions.list(systemPrincipal(orgId), projectId, 10, 0)).total).toBe(1);
    const listed = await deployments.list(systemPrincipal(orgId), projectId, 10, 0);
    expect(listed.total).toBe(2);
    expect(new Set(listed.deployments.map((d) => d.version_id))).toEqual(new Set([history.versions[0]!.id]));

    // A rollback repoints the project to the earlier deployment; nothing is copied.
    const back = await deployments.promote(systemPrincipal(orgId), {
      projectId,
      deploymentId: first.deployId,
    });
    expect(back.deployId).toBe(first.deployId);
    expect((await deployments.list(systemPrincipal(orgId), projectId, 10, 0)).total).toBe(2);
  });
});
