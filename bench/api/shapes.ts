// Before anything is measured: both servers answer each operation alike. Reads must be the same
// bytes (the twin reads an identical copy of the database); writes the same JSON shape (fields,
// order and types; ids and times differ). A twin that answered less would flatter the API.
import type { OrgFixtures } from './fixtures.ts';

interface Probe {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  same: 'bytes' | 'shape';
}

function probes(org: OrgFixtures): Probe[] {
  return [
    {
      name: 'GET client',
      method: 'GET',
      path: `/api/v1/clients/${org.clients[1]!.id}`,
      status: 200,
      same: 'bytes',
    },
    {
      name: 'GET projects',
      method: 'GET',
      path: '/api/v1/projects?limit=50&offset=7',
      status: 200,
      same: 'bytes',
    },
    {
      name: 'POST client',
      method: 'POST',
      path: '/api/v1/clients',
      body: { email: 'shape-check@bench.example', name: 'Shape', company: null },
      status: 201,
      same: 'shape',
    },
    {
      name: 'PATCH project',
      method: 'PATCH',
      path: `/api/v1/projects/${org.projects[2]!}`,
      body: { name: 'Shape check' },
      status: 200,
      same: 'shape',
    },
  ];
}

/** Field names in order with the JSON type of each value, recursively (arrays: their first item). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return ['array', value.length > 0 ? shape(value[0]) : null];
  if (value && typeof value === 'object') return Object.entries(value).map(([k, v]) => [k, shape(v)]);
  return value === null ? 'null' : typeof value;
}

export async function checkSameAnswers(apiUrl: string, minimalUrl: string, org: OrgFixtures): Promise<void> {
  const headers = { authorization: `Bearer ${org.keys[0]!}`, 'content-type': 'application/json' };
  for (const p of probes(org)) {
    const [api, min] = await Promise.all(
      [apiUrl, minimalUrl].map(async (base) => {
        const res = await fetch(base + p.path, {
          method: p.method,
          headers,
          body: p.body === undefined ? undefined : JSON.stringify(p.body),
        });
        return { status: res.status, text: await res.text() };
      }),
    );
    if (api!.status !== p.status || min!.status !== p.status) {
      throw new Error(
        `${p.name}: API answered ${api!.status}, minimal ${min!.status} (expected ${p.status})\nAPI: ${api!.text}\nminimal: ${min!.text}`,
      );
    }
    const differs =
      p.same === 'bytes'
        ? api!.text !== min!.text
        : JSON.stringify(shape(JSON.parse(api!.text))) !== JSON.stringify(shape(JSON.parse(min!.text)));
    if (differs)
      throw new Error(
        `${p.name}: the answers differ (${p.same})\nAPI: ${api!.text.slice(0, 600)}\nminimal: ${min!.text.slice(0, 600)}`,
      );
  }
}
