// An organization's own AI model, through the services on a real database (both engines) and a
// fake OpenAI-compatible server on loopback: nothing is kept before the test call answers, the
// key is sealed and never shown, the model is offered to its organization only, and generations
// go to its endpoint with its key.
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../src/lib/secrets.ts';
import { endpointConnector, refusingFetch } from '../../../src/providers/openai/connect.ts';
import { OrgModelService } from '../../../src/modules/generations/org-model.ts';
import { useTestApi } from '../../helpers/app.ts';
import { FakeOpenAi, GOOD_SITE } from '../../helpers/fake-openai.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';
import { waitUntil } from '../../helpers/wait.ts';
import { systemPrincipal } from '../../../src/modules/access/principal.ts';

const fake = await new FakeOpenAi().start();
afterAll(() => fake.stop());
const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
const api = useTestApi({ SECRETS_KEY, GENERATION_POLL_INTERVAL: '50ms' }, { generationWorker: true });
const OK = { kind: 'answer', content: 'OK' } as const;

const connect = (orgId: string, extra: Partial<Parameters<OrgModelService['connect']>[1]> = {}) =>
  api.ctx.services.aiModels.connect(systemPrincipal(orgId), {
    base_url: fake.baseUrl,
    api_key: 'sk-test-abcd1234',
    model: 'llama-test',
    use_by_default: true,
    ...extra,
  });

/** The same service over the same database, with other settings. */
const variant = (settings: Partial<ConstructorParameters<typeof OrgModelService>[3]>) =>
  new OrgModelService(
    api.ctx.database,
    api.ctx.providers,
    endpointConnector({ timeoutMs: 30_000, allowPrivateEndpoints: settings.allowPrivateEndpoints ?? true }),
    {
      allowPrivateEndpoints: true,
      secrets: new SecretBox(Buffer.alloc(32, 7)),
      secretsMissing: 'no key',
      ...settings,
    },
  );

describe('an organization’s own AI model', () => {
  it('is kept only after a test call, with the key sealed, and offered to its organization only', async () => {
    fake.reply(OK);
    const before = fake.requests.length;
    const model = await connect(api.org.id);
    expect(model).toMatchObject({
      base_url: fake.baseUrl,
      model: 'llama-test',
      key_hint: '1234',
      use_by_default: true,
      usable: true,
    });
    const call = fake.requests[before]!;
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.body.model).toBe('llama-test');
    expect(call.authorization).toBe('Bearer sk-test-abcd1234');
    const row = await api.ctx.database.db
      .selectFrom('ai_models')
      .selectAll()
      .where('org_id', '=', api.org.id)
      .executeTakeFirstOrThrow();
    expect(row.api_key_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('sk-test-abcd1234');

    const mine = await api.ctx.services.generations.modelsFor(api.org.id);
    expect(mine.defaultModel).toBe('llama-test');
    expect(mine.models).toEqual(['llama-test', 'builtin']);
    const other = await api.newOrg('Other');
    const theirs = await api.ctx.services.generations.modelsFor(other.org.id);
    expect(theirs.models).toEqual(['builtin']);
    const client = await api.ctx.services.clients.create(systemPrincipal(other.org.id), {
      email: 'x@example.com',
    });
    const project = await api.ctx.services.projects.create(systemPrincipal(other.org.id), {
      client_email: client.email,
      name: 'Theirs',
    });
    await expect(
      api.ctx.services.generations.create(systemPrincipal(other.org.id), project.id, {
        prompt: 'x',
        model: 'llama-test',
      }),
    ).rejects.toThrow(/unknown model 'llama-test'; available: builtin/);
  });

  it('generates through the organization’s endpoint with its key, by default', async () => {
    fake.reply(OK);
    await connect(api.org.id);
    const client = await createClient(api);
    const id = (await createProject(api, { client_email: client.email, name: 'Own model' })).id as string;
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const before = fake.requests.length;
    const queued = await api.post(`/api/v1/projects/${id}/generate`, { prompt: 'A bakery in Bristol' });
    expect(queued.status).toBe(202);
    expect(queued.body.generation.model).toBe('llama-test');
    await waitUntil(
      async () =>
        (await api.get(`/api/v1/projects/${id}/generations/${queued.body.generation.id}`)).body.generation
          .status === 'succeeded',
    );
    expect(fake.requests[before]!.authorization).toBe('Bearer sk-test-abcd1234');
    // The templates are still there when asked for.
    const builtin = await api.post(`/api/v1/projects/${id}/generate`, {
      prompt: 'A bakery in Bristol',
      model: 'builtin',
    });
    expect(builtin.body.generation.model).toBe('builtin');
  });

  it('keeps nothing when the test call fails, and says why', async () => {
    const org = (await api.newOrg('Failing')).org.id;
    fake.reply({
      kind: 'status',
      status: 401,
      body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    });
    await expect(connect(org)).rejects.toThrow(/answered 401: the key was refused/);
    fake.reply({ kind: 'status', status: 404, body: { error: { message: 'model not found' } } });
    await expect(connect(org)).rejects.toThrow(/no model 'llama-test' there/);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(connect(org, { base_url: `http://127.0.0.1:${port}/v1` })).rejects.toThrow(
      /Could not reach the endpoint \(.*ECONNREFUSED/,
    );
    expect(await api.ctx.services.aiModels.get(systemPrincipal(org))).toBeUndefined();
    for (const [input, message] of [
      [{ model: ' ' }, /field 'model' is required/],
      [{ model: 'builtin' }, /templates model/],
      [{ model: 'a\u0000b' }, /field 'model' must be/],
      [{ base_url: 'ftp://x.example/v1' }, /http or https/],
      [{ base_url: 'https://user:pw@x.example/v1' }, /credentials/],
      [{ base_url: 'not a url' }, /must be a URL/],
      [{ base_url: null, api_key: null }, /api_key' is required for OpenAI/],
      [{ api_key: 'two words' }, /one key without spaces/],
    ] as const) {
      await expect(connect(org, input)).rejects.toThrow(message);
    }
  });

  it('keeps the saved key when only the model changes, and forgets everything on disconnect', async () => {
    const org = (await api.newOrg('Changing')).org.id;
    fake.reply(OK);
    await connect(org);
    fake.reply(OK);
    const before = fake.requests.length;
    const changed = await connect(org, { api_key: null, model: 'llama-other', use_by_default: false });
    expect(changed).toMatchObject({ model: 'llama-other', key_hint: '1234', use_by_default: false });
    expect(fake.requests[before]!.authorization).toBe('Bearer sk-test-abcd1234');
    const choice = await api.ctx.services.generations.modelsFor(org);
    expect(choice.defaultModel).toBe('builtin');
    expect(choice.models).toEqual(['builtin', 'llama-other']);
    expect(await api.ctx.services.aiModels.disconnect(systemPrincipal(org))).toBe(true);
    expect(await api.ctx.services.aiModels.get(systemPrincipal(org))).toBeUndefined();
    expect((await api.ctx.services.generations.modelsFor(org)).models).toEqual(['builtin']);
    expect(await api.ctx.services.aiModels.disconnect(systemPrincipal(org))).toBe(false);
  });

  it('a key sealed for another organization or with another secrets key does not open', async () => {
    const org = (await api.newOrg('Sealed')).org.id;
    fake.reply(OK);
    await connect(org);
    const otherKey = variant({ secrets: new SecretBox(Buffer.alloc(32, 9)) });
    expect(await otherKey.get(systemPrincipal(org))).toMatchObject({ usable: false });
    expect((await otherKey.choiceFor(org)).models).toEqual(['builtin']);
    await expect(
      otherKey.connect(systemPrincipal(org), {
        base_url: fake.baseUrl,
        api_key: null,
        model: 'llama-test',
        use_by_default: true,
      }),
    ).rejects.toThrow(/cannot be read any more/);
    // Moved to another organization's row, the sealed key is refused.
    const thief = (await api.newOrg('Thief')).org.id;
    const row = await api.ctx.database.db
      .selectFrom('ai_models')
      .selectAll()
      .where('org_id', '=', org)
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await api.ctx.database.db
      .insertInto('ai_models')
      .values({ ...row, org_id: thief, use_by_default: true, checked_at: at, created_at: at, updated_at: at })
      .execute();
    expect(await api.ctx.services.aiModels.get(systemPrincipal(thief))).toMatchObject({ usable: false });
  });

  it('without a secrets key, keyless endpoints only, and the reason said', async () => {
    const noBox = variant({ secrets: undefined, secretsMissing: 'set SECRETS_KEY' });
    const org = (await api.newOrg('No box')).org.id;
    await expect(
      noBox.connect(systemPrincipal(org), {
        base_url: fake.baseUrl,
        api_key: 'sk-1',
        model: 'm',
        use_by_default: true,
      }),
    ).rejects.toThrow(/cannot be kept: set SECRETS_KEY/);
    fake.reply(OK);
    expect(
      await noBox.connect(systemPrincipal(org), {
        base_url: fake.baseUrl,
        api_key: null,
        model: 'm',
        use_by_default: true,
      }),
    ).toMatchObject({ key_hint: null, usable: true });
    expect((await noBox.choiceFor(org)).models).toEqual(['m', 'builtin']);
  });

  it('refuses private endpoints where the operator does not allow them, as written and after DNS', async () => {
    const strict = variant({ allowPrivateEndpoints: false });
    const org = (await api.newOrg('Strict')).org.id;
    for (const url of [
      'http://127.0.0.1:11434/v1',
      'https://127.0.0.1/v1',
      'https://localhost/v1',
      'https://[::1]/v1',
      'https://10.0.0.8/v1',
      'https://ollama.internal/v1',
    ]) {
      await expect(
        strict.connect(systemPrincipal(org), {
          base_url: url,
          api_key: null,
          model: 'm',
          use_by_default: true,
        }),
      ).rejects.toThrow(/https URL|private, loopback or reserved/);
    }
    // A name that resolves to loopback passes the check as written; the connection is refused.
    const server = createServer((_, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const guarded = refusingFetch();
      await expect(guarded(`http://localhost:${port}/`)).rejects.toThrow();
      await expect(guarded(`http://127.0.0.1:${port}/`)).rejects.toThrow();
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('reached');
    } finally {
      server.close();
    }
  });
});
