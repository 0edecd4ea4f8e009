// Check-then-write under concurrency, on both engines: limits hold exactly and a same-path race
// never surfaces a unique violation as a 500.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';

const api = useTestApi({ PROJECT_MAX_FILES: '5', PROJECT_MAX_BYTES: '1000', FILE_MAX_BYTES: '400' });

async function project() {
  const client = await createClient(api);
  return createProject(api, { client_email: client.email, name: 'Raced' });
}
const fileCount = async (projectId: string) =>
  (await api.get(`/api/v1/projects/${projectId}/files`)).body.files.length;

describe('concurrent file writes', () => {
  it('30 concurrent PUTs of different paths leave exactly PROJECT_MAX_FILES files', async () => {
    const p = await project();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api.put(`/api/v1/projects/${p.id}/files/f${i}.txt`, { content: 'x' }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 400)).toBe(true);
    expect(await fileCount(p.id)).toBe(5);
  });

  it('concurrent PUTs of one new path all succeed: one file, no 500', async () => {
    for (let round = 0; round < 5; round++) {
      const p = await project();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.put(`/api/v1/projects/${p.id}/files/same.txt`, { content: `v${i}` }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(await fileCount(p.id)).toBe(1);
    }
  });

  it('PROJECT_MAX_BYTES holds under concurrent writes', async () => {
    const p = await project();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.put(`/api/v1/projects/${p.id}/files/b${i}.txt`, { content: 'y'.repeat(300) }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    const files = (await api.get(`/api/v1/projects/${p.id}/files`)).body.files;
    expect(files.reduce((sum: number, f: any) => sum + f.size, 0)).toBeLessThanOrEqual(1000);
  });

  it('concurrent adds of one custom domain: one wins, the others are refused without a 500', async () => {
    const a = await project();
    const b = await project();
    await api.post(`/api/v1/projects/${a.id}/publish`, { builtFiles: { 'index.html': 'a' } });
    await api.post(`/api/v1/projects/${b.id}/publish`, { builtFiles: { 'index.html': 'b' } });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.post(`/api/v1/projects/${i % 2 ? a.id : b.id}/domains`, { domain: 'www.raced-domain.com' }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.every((r) => r.status < 500)).toBe(true);
  });

  it('concurrent publishes all succeed and the last deployment is served', async () => {
    const p = await project();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': `<h1>v${i}</h1>` } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
