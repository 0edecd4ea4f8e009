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
  const a = await clients.create(org.id, { email: 'a@access.test', name: 'A' });
  const b = await clients.create(org.id, { email: 'b@access.test', name: 'B' });
  const elsewhere = await clients.create(other.id, { email: 'a@access.test', name: 'A elsewhere' });
  ids.a = (await projects.create(systemPrincipal(org.id), { client_email: a.email, name: 'A site' })).id;
  ids.b = (await projects.create(systemPrincipal(org.id), { client_email: b.email, name: 'B site' })).id;
  ids.other = (
    await projects.create(systemPrincipal(other.id), { client_email: elsewhere.email, name: 'Other site' })
  ).id;
  ids.clientA = a.id;
  ids.clientB = b.id;
  agency = { orgId: org.id, permissions: ['read', 'write'], actor: { kind: 'member', userId: 'u-1' } };
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
