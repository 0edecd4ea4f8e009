// The access rules, called as a library against a real database (SQLite, or PostgreSQL with
// TEST_DATABASE_URL): what a principal of each kind may see of an organization's projects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../../src/container.ts';
import { requireAgency } from '../../../src/modules/access/access.ts';
import { systemPrincipal, type Principal } from '../../../src/modules/access/principal.ts';
import { NotAllowedError, NotFoundError } from '../../../src/modules/common/errors.ts';
import { testConfig } from '../../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

let db: TestDatabase;
let runtime: Container;
let agency: Principal;
let clientA: Principal;
let otherAgency: Principal;
const ids: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await createContainer(testConfig(db));
  const { orgs, clients, projects } = runtime.services;
  const org = await orgs.createOrg('Access Agency');
  const other = await orgs.createOrg('Other Agency');
  const a = await clients.create(systemPrincipal(org.id), { email: 'a@access.test', name: 'A' });
  const b = await clients.create(systemPrincipal(org.id), { email: 'b@access.test', name: 'B' });
  const elsewhere = await clients.create(systemPrincipal(other.id), {
    email: 'a@access.test',
    name: 'A elsewhere',
  });
  ids.a = (await projects.create(systemPrincipal(org.id), { client_email: a.email, name: 'A site' })).id;
  ids.b = (await projects.create(systemPrincipal(org.id), { client_email: b.email, name: 'B site' })).id;
  ids.other = (
    await projects.create(systemPrincipal(other.id), { client_email: elsewhere.email, name: 'Other site' })
  ).id;
  ids.clientA = a.id;
  ids.clientB = b.id;
  agency = {
    orgId: org.id,
    permissions: ['read', 'write'],
    actor: { kind: 'member', userId: 'u-1', role: 'owner' },
  };
  clientA = { ...agency, clientId: a.id, actor: { kind: 'client', userId: 'u-2' } };
  otherAgency = systemPrincipal(other.id);
});

afterAll(async () => {
  await runtime?.close();
  await db?.drop();
});

const names = (list: { projects: { name: string }[] }) => list.projects.map((p) => p.name).sort();

describe('access to projects', () => {
  it('an agency principal sees every project of its organization, and none of another', async () => {
    const { projects } = runtime.services;
    expect(names(await projects.list(agency, {}, 50, 0))).toEqual(['A site', 'B site']);
    expect((await projects.get(agency, ids.b!)).name).toBe('B site');
    await expect(projects.get(agency, ids.other!)).rejects.toBeInstanceOf(NotFoundError);
    await expect(projects.get(otherAgency, ids.a!)).rejects.toBeInstanceOf(NotFoundError);
    expect(names(await projects.list(agency, { clientId: ids.clientB! }, 50, 0))).toEqual(['B site']);
  });

  it("a client's principal sees its client's projects only; another client's is not found", async () => {
    const { projects } = runtime.services;
    expect(names(await projects.list(clientA, {}, 50, 0))).toEqual(['A site']);
    expect(names(await projects.list(clientA, { clientId: ids.clientA! }, 50, 0))).toEqual(['A site']);
    expect(await projects.list(clientA, { clientId: ids.clientB! }, 50, 0)).toEqual({
      projects: [],
      total: 0,
    });
    expect((await projects.get(clientA, ids.a!)).name).toBe('A site');
    const refused = await projects.get(clientA, ids.b!).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NotFoundError);
    // Exactly what another organization's project answers: nothing tells the two apart.
    const foreign = await projects.get(clientA, ids.other!).catch((error: unknown) => error);
    expect((refused as Error).message).toBe((foreign as Error).message);
  });

  it("lets a client's principal change its own project only, and create none", async () => {
    const { projects } = runtime.services;
    expect((await projects.update(clientA, ids.a!, { description: 'Ours' })).description).toBe('Ours');
    await expect(projects.update(clientA, ids.b!, { description: 'Theirs' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await projects.get(agency, ids.b!)).description).toBeNull();
    await expect(projects.delete(clientA, ids.b!)).rejects.toBeInstanceOf(NotFoundError);
    expect((await projects.get(agency, ids.b!)).name).toBe('B site');
    const refused = projects.create(clientA, { client_email: 'a@access.test', name: 'Another' });
    await expect(refused).rejects.toBeInstanceOf(NotAllowedError);
    expect((await projects.list(agency, {}, 50, 0)).total).toBe(2);
  });

  it("refuses a client's principal what acts on the agency's other clients", () => {
    expect(() => requireAgency(clientA, 'for the agency')).toThrow(NotAllowedError);
    expect(() => requireAgency(agency, 'for the agency')).not.toThrow();
  });
});

describe("access to a project's content and the agency's records", () => {
  const page = (title: string) => ({ content: `<!doctype html><title>${title}</title>` });

  it("a client's principal works on its own site's files, versions and publishing, and finds no other", async () => {
    const { files, versions, publishing, domains, forms, generations } = runtime.services;
    const { file } = await files.put(clientA, ids.a!, 'index.html', page('A'));
    expect(file.path).toBe('index.html');
    const [latest] = (await versions.list(clientA, ids.a!, 10, 0)).versions;
    expect(latest!.author).toMatchObject({ type: 'user', id: 'u-2' });
    expect((await publishing.publish(clientA, ids.a!)).status).toBe('ready');
    // Each call made only when awaited: a refusal is never left unhandled.
    for (const attempt of [
      () => files.put(clientA, ids.b!, 'index.html', page('B')),
      () => files.list(clientA, ids.b!),
      () => versions.list(clientA, ids.b!, 10, 0),
      () => publishing.publish(clientA, ids.b!),
      () => publishing.unpublish(clientA, ids.b!),
      () => domains.list(clientA, ids.b!),
      () => forms.list(clientA, ids.b!, {}),
      () => generations.list(clientA, ids.b!, 10, 0),
      () => generations.create(clientA, ids.b!, { prompt: 'A bakery' }),
      () => files.put(clientA, ids.other!, 'index.html', page('Other')),
    ])
      await expect(attempt()).rejects.toBeInstanceOf(NotFoundError);
    expect(await files.list(agency, ids.b!)).toEqual([]);
  });

  it('a read-only principal reads but writes nothing', async () => {
    const { files, publishing } = runtime.services;
    const reader: Principal = { ...agency, permissions: ['read'] };
    expect((await files.list(reader, ids.a!)).map((f) => f.path)).toContain('index.html');
    await expect(files.put(reader, ids.a!, 'x.html', page('X'))).rejects.toBeInstanceOf(NotAllowedError);
    await expect(publishing.unpublish(reader, ids.a!)).rejects.toBeInstanceOf(NotAllowedError);
    await expect(files.get(agency, ids.a!, 'x.html')).rejects.toBeInstanceOf(NotFoundError);
  });

  it("a client's principal reads its own client and plan and the public templates, and manages none", async () => {
    const { clients, plans, templates, webhooks } = runtime.services;
    const plan = await plans.create(agency, { name: 'Starter', price: 10, interval: 'monthly' });
    await clients.update(agency, ids.clientA!, { plan_id: plan.id });
    const other = await plans.create(agency, { name: 'Pro', price: 50, interval: 'monthly' });
    const shared = await templates.create(agency, {
      name: 'Shared',
      source_project_id: ids.a!,
      is_public: true,
    });
    await templates.create(agency, { name: 'Private', source_project_id: ids.a!, is_public: false });

    expect((await clients.get(clientA, ids.clientA!)).email).toBe('a@access.test');
    await expect(clients.get(clientA, ids.clientB!)).rejects.toBeInstanceOf(NotFoundError);
    expect((await plans.get(clientA, plan.id)).name).toBe('Starter');
    await expect(plans.get(clientA, other.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await templates.list(clientA, 50, 0)).records.map((t) => t.id)).toEqual([shared.id]);
    expect((await templates.list(agency, 50, 0)).total).toBe(2);

    // Each call made only when awaited: a refusal is never left unhandled.
    for (const attempt of [
      () => clients.list(clientA, 10, 0),
      () => clients.create(clientA, { email: 'c@access.test' }),
      () => plans.list(clientA, 10, 0),
      () => templates.get(clientA, shared.id),
      () => webhooks.list(clientA, 10, 0),
    ])
      await expect(attempt()).rejects.toBeInstanceOf(NotAllowedError);
  });
});

describe("access to the organization's own administration", () => {
  it('is for its owners and admins and the operator: a member, an API key or a client is refused', async () => {
    const { members, aiModels, buildLinks } = runtime.services;
    const as = (role: 'owner' | 'admin' | 'member'): Principal => ({
      ...agency,
      actor: { kind: 'member', userId: 'u-1', role },
    });
    expect((await members.list(as('admin'))).members).toEqual([]);
    expect(await aiModels.get(as('member'))).toBeUndefined();
    expect((await members.list(systemPrincipal(agency.orgId))).invitations).toEqual([]);
    const apiKey: Principal = { ...agency, actor: { kind: 'api_key', keyId: 'k-1' } };
    expect((await members.list(as('member'))).members).toEqual([]);
    const byAdmin = await runtime.services.plans.create(as('admin'), {
      name: 'Team',
      price: 5,
      interval: 'monthly',
    });
    expect(byAdmin.name).toBe('Team');
    for (const attempt of [
      () => members.cancelInvitation(as('member'), ids.a!),
      () => members.remove(apiKey, 'u-1'),
      () => members.list(clientA),
      () => aiModels.disconnect(as('member')),
      () => runtime.services.plans.create(as('member'), { name: 'Cheap', price: 1, interval: 'monthly' }),
      () => runtime.services.webhooks.list(clientA, 10, 0),
      () => buildLinks.setSignUps(as('member'), false),
    ])
      await expect(attempt()).rejects.toBeInstanceOf(NotAllowedError);
  });
});
