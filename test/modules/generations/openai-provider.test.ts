// The OpenAI-compatible provider against a fake server on loopback: good answers are written,
// anything malformed, truncated, unsafe or late fails the generation with a clear error.
import { afterAll, describe, expect, it } from 'vitest';
import { OpenAiProvider } from '../../../src/modules/generations/openai.ts';
import { GenerationError } from '../../../src/modules/generations/provider.ts';
import { FakeOpenAi, GOOD_SITE } from '../../helpers/fake-openai.ts';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';

// Started at load, so that the API harness below can be configured with its address.
const fake = await new FakeOpenAi().start();
afterAll(() => fake.stop());

const provider = () => new OpenAiProvider({ apiKey: 'sk-test', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'], timeoutMs: 500 });
const run = (files: { path: string; content: string | Buffer }[] = [], signal = new AbortController().signal) =>
  provider().generate({ prompt: 'A site for Moon Cafe', model: 'gpt-4o-mini', files, signal });

describe('OpenAI-compatible provider', () => {
  it('asks for JSON and returns the validated files', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const result = await run();
    expect(result.summary).toBe('Built a one-page site for Moon Cafe');
    expect(result.files.map((f) => f.path)).toEqual(['index.html', 'css/site.css']);
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.authorization).toBe('Bearer sk-test');
    expect(request.body).toMatchObject({ model: 'gpt-4o-mini', response_format: { type: 'json_object' } });
    expect(request.body.messages.at(-1)).toEqual({ role: 'user', content: 'A site for Moon Cafe' });
  });

  it('sends the current text files for an edit and keeps binary files', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const logo = Buffer.from([1, 2, 3]);
    const result = await run([{ path: 'index.html', content: '<p>old</p>' }, { path: 'logo.png', content: logo }]);
    expect(fake.requests.at(-1)!.body.messages[1].content).toContain('<p>old</p>');
    expect(result.files.find((f) => f.path === 'logo.png')?.content).toEqual(logo);
  });

  it('keeps the text files it had no room to show, and says so to the model', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const big = 'x'.repeat(250_000); // beyond the 200 KB of context a follow-up sends
    const result = await run([{ path: 'index.html', content: '<p>old</p>' }, { path: 'data/catalogue.json', content: big }]);
    const sent = fake.requests.at(-1)!.body.messages[1].content as string;
    expect(sent).not.toContain(big);
    expect(sent).toContain('Text files not shown (too large for this message); they are kept as they are unless you return a new version: data/catalogue.json');
    expect(result.files.find((f) => f.path === 'data/catalogue.json')?.content).toBe(big);
    expect(result.files.find((f) => f.path === 'index.html')?.content).not.toBe('<p>old</p>');
  });

  it.each([
    ['malformed JSON', { kind: 'answer', content: '{"files": [' }, /not valid JSON/, false],
    ['a truncated answer', { kind: 'answer', content: GOOD_SITE, finishReason: 'length' }, /cut off/, false],
    ['a refusal', { kind: 'answer', content: '', refusal: 'I cannot help with that' }, /refused/, false],
    ['the wrong shape', { kind: 'answer', content: '{"pages": []}' }, /no "files" array/, false],
    ['path traversal', { kind: 'answer', content: JSON.stringify({ files: [{ path: '../../etc/passwd', content: 'x' }] }) }, /unsafe path/, false],
    ['an absolute path', { kind: 'answer', content: JSON.stringify({ files: [{ path: '/index.html', content: 'x' }] }) }, /unsafe path/, false],
    ['no index.html', { kind: 'answer', content: JSON.stringify({ files: [{ path: 'a.html', content: '<html><body></body></html>' }] }) }, /no index.html/, false],
    ['a broken index.html', { kind: 'answer', content: JSON.stringify({ files: [{ path: 'index.html', content: '<div>half' }] }) }, /not a complete HTML document/, false],
    ['HTTP 500', { kind: 'status', status: 500 }, /answered 500/, true],
    ['HTTP 429', { kind: 'status', status: 429 }, /answered 429/, true],
    ['HTTP 401', { kind: 'status', status: 401 }, /answered 401/, false],
    ['a server that never answers', { kind: 'hang' }, /did not answer within AI_TIMEOUT/, true],
  ] as const)('fails clearly on %s', async (_what, reply, message, retryable) => {
    fake.reply(reply as never);
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as GenerationError).message).toMatch(message);
    expect((error as GenerationError).retryable).toBe(retryable);
  });

  it('stops when the job is aborted', async () => {
    fake.reply({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new GenerationError('The generation took longer than GENERATION_TIMEOUT', true)), 50);
    await expect(run([], controller.signal)).rejects.toThrow(/GENERATION_TIMEOUT/);
  });
});

describe('generation through the API with an OpenAI-compatible model', () => {
  const api = useTestApi(
    { AI_API_KEY: 'sk-test', AI_BASE_URL: fake.baseUrl, AI_MODELS: 'gpt-4o-mini', GENERATION_RETRY_SCHEDULE: '0s,50ms', GENERATION_POLL_INTERVAL: '25ms', AI_TIMEOUT: '2s' },
    { generationWorker: true },
  );
  const finished = async (projectId: string, id: string) => {
    for (let i = 0; i < 200; i++) {
      const g = (await api.get(`/api/v1/projects/${projectId}/generations/${id}`)).body.generation;
      if (g.status === 'succeeded' || g.status === 'failed') return g;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('not finished');
  };

  it('retries a 5xx and writes the answer; refuses garbage without touching the files', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Moon' });
    const wait = (id: string) => finished(p.id, id);
    fake.reply({ kind: 'status', status: 503 }, { kind: 'answer', content: GOOD_SITE });
    const ok = await wait((await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'Moon Cafe', model: 'gpt-4o-mini' })).body.generation.id);
    expect(ok).toMatchObject({ status: 'succeeded', attempts: 2, files: ['css/site.css', 'index.html'], model: 'gpt-4o-mini' });

    fake.reply({ kind: 'answer', content: JSON.stringify({ files: [{ path: '../x', content: 'y' }] }) });
    const bad = await wait((await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'Break it', model: 'gpt-4o-mini' })).body.generation.id);
    expect(bad).toMatchObject({ status: 'failed', attempts: 1 });
    expect(bad.error).toContain('unsafe path');
    const files = (await api.get(`/api/v1/projects/${p.id}/files`)).body.files.map((f: any) => f.path);
    expect(files).toEqual(['css/site.css', 'index.html']);
  });

  it('aims a prompt at a selected element: the model receives its page, selector and HTML', async () => {
    const c = await createClient(api);
    const p = await createProject(api, { client_email: c.email, name: 'Moon' });
    const element = { file: 'index.html', selector: 'body > main > h1', html: '<h1>Moon Cafe</h1>' };
    const tooLong = await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'x', element: { ...element, selector: 's'.repeat(2_001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('selector');
    const extra = await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'x', element: { ...element, color: 'red' } });
    expect(extra.status).toBe(400);

    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const created = await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'Say "Moon Café"', model: 'gpt-4o-mini', element });
    expect(created.status).toBe(202);
    const done = await finished(p.id, created.body.generation.id);
    expect(done.status).toBe('succeeded');
    const sent = fake.requests.at(-1)!.body.messages as { content: string }[];
    expect(sent.at(-1)!.content).toBe('Say "Moon Café"');
    expect(sent.at(-2)!.content).toContain('index.html (CSS selector: body > main > h1)');
    expect(sent.at(-2)!.content).toContain('<h1>Moon Cafe</h1>');
  });
});
