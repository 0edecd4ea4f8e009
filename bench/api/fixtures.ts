// Fixtures of `npm run bench`, made only through interfaces that stay put while the code moves:
// the `sitewright` CLI for organizations and keys, the REST API for everything else. Records are
// spread evenly: clients and projects round-robin over the organizations.
import { writeFileSync } from 'node:fs';
import { cliJson } from '../lib/product.ts';

export interface Sizes {
  orgs: number;
  keysPerOrg: number;
  clients: number;
  projects: number;
}

export interface OrgFixtures {
  id: string;
  keys: string[];
  clients: { id: string; email: string }[];
  projects: string[];
}

/** Runs `work` over `items` with at most `limit` at once. */
async function inParallel<T>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function post(url: string, key: string, body: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

export async function loadFixtures(
  apiUrl: string,
  env: NodeJS.ProcessEnv,
  sizes: Sizes,
  tag: string,
): Promise<OrgFixtures[]> {
  // Each CLI call is a process of its own (about 0.7 s, mostly start-up): two at a time per core.
  const orgs: OrgFixtures[] = Array.from({ length: sizes.orgs }, () => ({
    id: '',
    keys: [],
    clients: [],
    projects: [],
  }));
  await inParallel(orgs, 4, async (org, i) => {
    org.id = (
      await cliJson<{ id: string }>(env, ['org', 'create', '--name', `Bench agency ${tag} ${i + 1}`])
    ).id;
  });
  const keySlots = orgs.flatMap((org) => Array.from({ length: sizes.keysPerOrg }, () => org));
  await inParallel(keySlots, 4, async (org, i) => {
    const created = await cliJson<{ key: string }>(env, [
      'keys',
      'create',
      '--org',
      org.id,
      '--permissions',
      'read,write',
      '--name',
      `bench ${i + 1}`,
    ]);
    org.keys.push(created.key);
  });

  const clientSlots = Array.from({ length: sizes.clients }, (_, i) => i);
  await inParallel(clientSlots, 16, async (i) => {
    const org = orgs[i % orgs.length]!;
    const email = `client-${i + 1}@bench.example`;
    const { client } = await post(`${apiUrl}/api/v1/clients`, org.keys[i % org.keys.length]!, {
      email,
      name: `Client ${i + 1}`,
      company: `Company ${i + 1}`,
    });
    org.clients.push({ id: client.id, email });
  });
  const projectSlots = Array.from({ length: sizes.projects }, (_, i) => i);
  await inParallel(projectSlots, 16, async (i) => {
    const org = orgs[i % orgs.length]!;
    const client = org.clients[Math.floor(i / orgs.length) % org.clients.length]!;
    const body = {
      name: `Bench site ${i + 1}`,
      client_email: client.email,
      description: 'A site made for the benchmark',
    };
    const { project } = await post(`${apiUrl}/api/v1/projects`, org.keys[i % org.keys.length]!, body);
    org.projects.push(project.id);
  });
  return orgs;
}

/** The fixtures as a Lua table for bench/wrk/api.lua (arrays are 1-based there). */
export function writeLuaFixtures(orgs: OrgFixtures[], file: string): void {
  const list = (xs: (string | number)[]) =>
    `{${xs.map((x) => (typeof x === 'number' ? x : `"${x}"`)).join(',')}}`;
  const clients = orgs.flatMap((o, i) => o.clients.map((c) => [c.id, i + 1] as const));
  const projects = orgs.flatMap((o, i) => o.projects.map((p) => [p, i + 1] as const));
  writeFileSync(
    file,
    `return {
  keys = {${orgs.map((o) => list(o.keys)).join(',\n')}},
  clients = ${list(clients.map((c) => c[0]))},
  client_org = ${list(clients.map((c) => c[1]))},
  projects = ${list(projects.map((p) => p[0]))},
  project_org = ${list(projects.map((p) => p[1]))},
  projects_per_org = ${list(orgs.map((o) => o.projects.length))},
}
`,
  );
}
