// Settings → AI model through the forms, on both engines: owners connect a model with a test call
// against a fake OpenAI-compatible server, a failed call keeps nothing and never echoes the key,
// members see the model but cannot change it, the builder then offers it, and disconnecting goes
// back to the templates.
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { FakeOpenAi } from '../helpers/fake-openai.ts';
import { PageSession } from '../helpers/page-session.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const fake = await new FakeOpenAi().start();
afterAll(() => fake.stop());
const api = useTestApi({ SECRETS_KEY: Buffer.alloc(32, 3).toString('hex') });
const XSS = '<script>window.__xss=1</script>';

describe('Settings → AI model', () => {
  it('an owner connects a model, the builder offers it, and disconnecting goes back to the templates', async () => {
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    const empty = await owner.get('/settings/ai-model');
    expect(empty.status).toBe(200);
    expect(empty.body).toContain('Templates (offline), the builtin model');
    expect(empty.body).toContain('Test and connect');

    fake.reply({ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const refused = await owner.post('/settings/ai-model', {
      base_url: fake.baseUrl,
      api_key: 'sk-secret-9876',
      model: `m${XSS}`,
      use_by_default: 'on',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(
      /The model did not answer the test call: The endpoint answered 401: the key was refused/,
    );
    expect(refused.body).not.toContain('sk-secret-9876');
    expect(refused.body).not.toContain(XSS);
    expect(refused.body).toContain('m&lt;script&gt;');
    expect(await api.ctx.services.aiModels.get(systemPrincipal(api.org.id))).toBeUndefined();

    fake.reply({ kind: 'answer', content: 'OK' });
    const connected = await owner.post('/settings/ai-model', {
      base_url: fake.baseUrl,
      api_key: 'sk-secret-9876',
      model: 'llama3.2',
      use_by_default: 'on',
    });
    expect(connected.status).toBe(303);
    const page = await owner.get('/settings/ai-model');
    expect(page.body).toContain('Connected: llama3.2 answered the test call.');
    expect(page.body).toContain('key ending <span class="mono">…9876</span>');
    expect(page.body).not.toContain('sk-secret-9876');

    const client = await api.ctx.services.clients.create(systemPrincipal(api.org.id), {
      email: 'c@example.com',
    });
    const project = await api.ctx.services.projects.create(systemPrincipal(api.org.id), {
      client_email: client.email,
      name: 'Site',
    });
    const builder = await owner.get(`/app/projects/${project.id}`);
    expect(builder.body).toMatch(
      /<option value="llama3.2">llama3.2<\/option><option value="builtin">Templates \(offline\)<\/option>/,
    );

    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    const seen = await member.get('/settings/ai-model');
    expect(seen.body).toContain('llama3.2');
    expect(seen.body).not.toContain('Test and connect');
    expect((await member.post('/settings/ai-model', { model: 'x' })).status).toBe(403);
    expect((await member.post('/settings/ai-model/disconnect')).status).toBe(403);

    expect((await owner.post('/settings/ai-model/disconnect')).status).toBe(303);
    expect((await owner.get('/settings/ai-model')).body).toContain(
      'Disconnected. New generations use the builtin templates (offline).',
    );
    expect((await owner.get(`/app/projects/${project.id}`)).body).not.toContain('llama3.2');
  });

  it('the set-up page leads a new owner here once, with a way to skip', async () => {
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    const page = await owner.get('/settings/ai-model?setup=1');
    expect(page.body).toContain('One more step, if you like: an AI model');
    expect(page.body).toContain('href="/">Skip for now</a>');
    expect((await owner.get('/settings/ai-model')).body).not.toContain('Skip for now');
  });
});
