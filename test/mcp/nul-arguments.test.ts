// A NUL character (U+0000) in a tool's string argument is refused as the REST API refuses it in a
// body (web/nul-check.ts): a tool error naming the argument, before the tool runs, and nothing is
// written. On PostgreSQL a NUL that reached a text column made the driver fail. Sent by the SDK's
// own client over real HTTP, in the 2025 revisions and the current one, on both engines.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { useLoopback, useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test' });
const server = useLoopback(api);

async function connect(versions: string[] | undefined, modern: boolean) {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${api.key}` } },
  });
  const client = new Client(
    { name: 'sitewright-test', version: '1.0.0' },
    {
      ...(versions ? { supportedProtocolVersions: versions } : {}),
      ...(modern ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  await client.connect(transport);
  expect(client.getNegotiatedProtocolVersion()).toBe(modern ? '2026-07-28' : (versions?.[0] ?? '2025-11-25'));
  return client;
}

/** The tool error naming the argument (the 2026 revision's result also carries the server's identity in `_meta`). */
const refusal = (argument: string) =>
  expect.objectContaining({
    content: [{ type: 'text', text: `argument '${argument}' must not contain a NUL character` }],
    isError: true,
  });

describe.each([
  ['2025-06-18', ['2025-06-18'], false],
  ['2025-11-25', undefined, false],
  ['2026-07-28', undefined, true],
])('a NUL in a tool argument (%s)', (_label, versions, modern) => {
  it('is a tool error naming the argument, and nothing is written', async () => {
    const owner = await createClient(api);
    const project = await createProject(api, { client_email: owner.email, name: 'Moon Cafe' });
    const tagged = await api.patch(`/api/v1/projects/${project.id}`, { tags: ['cafe'] });
    expect(tagged.status).toBe(200);
    const before = tagged.body.project;
    // The REST API's answer to the same field, for comparison: a 400 naming it.
    const rest = await api.post('/api/v1/projects', { client_email: owner.email, name: 'Moon\u0000Cafe' });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatch(/name.*NUL/);

    const client = await connect(versions, modern);
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as Record<string, unknown>;
    expect(await call('create_project', { client_email: owner.email, name: 'Moon\u0000Cafe' })).toEqual(
      refusal('name'),
    );
    expect(
      await call('create_project', { client_email: owner.email, name: 'Sun Cafe', description: 'A\u0000' }),
    ).toEqual(refusal('description'));
    expect(await call('update_project', { project_id: project.id, tags: ['cafe', 'b\u0000r'] })).toEqual(
      refusal('tags[1]'),
    );
    // One bad argument refuses the whole change: the good one beside it is not applied either.
    expect(
      await call('update_project', { project_id: project.id, name: 'New\u0000', tags: ['new'] }),
    ).toEqual(refusal('name'));
    expect(await call('create_client', { email: 'nul@example.com', company: 'Moon\u0000 Ltd' })).toEqual(
      refusal('company'),
    );
    expect(await call('generate_site', { project_id: project.id, prompt: 'A cafe\u0000' })).toEqual(
      refusal('prompt'),
    );
    await client.close();

    const projects = (await api.get('/api/v1/projects')).body;
    expect(projects.total).toBe(1);
    expect(projects.projects.map((p: any) => p.id)).toEqual([project.id]);
    expect((await api.get(`/api/v1/projects/${project.id}`)).body.project).toEqual(before);
    expect(
      (await api.ctx.services.clients.search(systemPrincipal(api.org.id), { q: 'nul@' }, 10, 0)).total,
    ).toBe(0);
    const generations = await api.ctx.database.db
      .selectFrom('generations')
      .select('id')
      .where('project_id', '=', project.id)
      .execute();
    expect(generations).toEqual([]);
  });
});
