// A generation's progress as server-sent events over a real socket, and stopping a generation:
// the events arrive in order with the provider's real steps, a stream resumes after the last event
// it got, it ends after the final one, and a cancelled generation changes no file.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { FakeOpenAi, GOOD_SITE } from '../helpers/fake-openai.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { sleep, untilSucceeded, waitUntil } from '../helpers/wait.ts';
import { tinyPng } from '../helpers/images.ts';

const fake = await new FakeOpenAi().start();
afterAll(() => fake.stop());

const api = useTestApi(
  {
    GENERATION_POLL_INTERVAL: '50ms',
    AI_API_KEY: 'sk-test',
    AI_BASE_URL: fake.baseUrl,
    AI_MODELS: 'gpt-4o-mini',
    AI_TIMEOUT: '30s',
  },
  { generationWorker: true },
);
let base: string;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
});

interface Frame {
  id: string;
  event: string;
  data: { seq: number; kind: string; message: string; path: string | null; created_at: string };
}

/** Reads a whole event stream (it ends after the final event) and parses its frames. */
async function readStream(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; frames: Frame[] }> {
  const res = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${api.key}`, ...headers },
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  const frames = text
    .split('\n\n')
    .filter((block) => block.startsWith('id:'))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))!
          .slice(name.length + 2);
      return { id: field('id'), event: field('event'), data: JSON.parse(field('data')) };
    });
  return { status: res.status, type: res.headers.get('content-type'), frames };
}

async function project() {
  const client = await createClient(api);
  return (await createProject(api, { client_email: client.email, name: 'Progress' })).id as string;
}

describe('generation events', () => {
  it('streams queued, running, each step and succeeded, in order, then ends', async () => {
    const id = await project();
    const generation = (
      await api.post(`/api/v1/projects/${id}/generate`, { prompt: 'A website for a bakery in Bristol' })
    ).body.generation;
    const { status, type, frames } = await readStream(
      `/api/v1/projects/${id}/generations/${generation.id}/events`,
    );
    expect(status).toBe(200);
    expect(type).toBe('text/event-stream; charset=utf-8');
    const kinds = frames.map((f) => f.event);
    expect(kinds[0]).toBe('queued');
    expect(kinds[1]).toBe('running');
    expect(kinds.at(-1)).toBe('succeeded');
    expect(frames.map((f) => Number(f.id))).toEqual(frames.map((_, i) => i + 1));
    const steps = frames.filter((f) => f.event === 'step').map((f) => f.data.message);
    expect(steps).toContain('Writing index.html');
    expect(steps.some((m) => m.startsWith('Planning a bakery site'))).toBe(true);
    expect(frames.find((f) => f.data.message === 'Writing styles.css')!.data.path).toBe('styles.css');
    const done = (await api.get(`/api/v1/projects/${id}/generations/${generation.id}`)).body.generation;
    expect(frames.at(-1)!.data.message).toBe(done.summary);

    // Resuming: only what came after the last event received.
    const resumed = await readStream(`/api/v1/projects/${id}/generations/${generation.id}/events`, {
      'last-event-id': '2',
    });
    expect(resumed.frames.map((f) => Number(f.id))).toEqual(frames.slice(2).map((f) => Number(f.id)));
    const after = await readStream(
      `/api/v1/projects/${id}/generations/${generation.id}/events?after=${frames.length - 1}`,
    );
    expect(after.frames.map((f) => f.event)).toEqual(['succeeded']);
  });

  it('sends events as they are recorded, while the provider runs', async () => {
    const id = await project();
    fake.reply({ kind: 'hang' });
    const generation = (
      await api.post(`/api/v1/projects/${id}/generate`, { prompt: 'A cafe', model: 'gpt-4o-mini' })
    ).body.generation;
    const res = await fetch(`${base}/api/v1/projects/${id}/generations/${generation.id}/events`, {
      headers: { authorization: `Bearer ${api.key}` },
    });
    const reader = res.body!.getReader();
    let text = '';
    await waitUntil(
      async () => {
        text += new TextDecoder().decode((await reader.read()).value);
        return text.includes('Asking gpt-4o-mini');
      },
      10_000,
      'the step to arrive',
    );
    expect(text).toContain('event: queued');
    expect(text).toContain('event: running');
    // Stopped while running: the stream tells so and ends.
    expect((await api.post(`/api/v1/projects/${id}/generations/${generation.id}/cancel`)).status).toBe(200);
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text).toMatch(/event: cancelled\ndata: .*"message":"Stopped: no file was changed"/);
  });

  it('refuses another organization’s generation with a JSON 404 before any stream', async () => {
    const id = await project();
    const generation = (await api.post(`/api/v1/projects/${id}/generate`, { prompt: 'A florist' })).body
      .generation;
    const other = await api.newOrg('Other');
    const res = await fetch(`${base}/api/v1/projects/${id}/generations/${generation.id}/events`, {
      headers: { authorization: `Bearer ${other.key}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/not found/i) });
    expect(
      (
        await api.post(`/api/v1/projects/${id}/generations/${generation.id}/cancel`, undefined, {
          key: other.key,
        })
      ).status,
    ).toBe(404);
  });
});

describe('cancelling a generation', () => {
  it('stops a running generation: cancelled, and its answer never replaces the files', async () => {
    const id = await project();
    await api.put(`/api/v1/projects/${id}/files/index.html`, { content: '<h1>Before</h1>' });
    fake.reply({ kind: 'hang' });
    const asked = fake.requests.length;
    const generation = (
      await api.post(`/api/v1/projects/${id}/generate`, { prompt: 'Redo it', model: 'gpt-4o-mini' })
    ).body.generation;
    // Running, and waiting for the model's answer.
    await waitUntil(() => fake.requests.length > asked, 10_000, 'it to ask the model');
    const abandoned = fake.abandoned;
    const at = Date.now();
    const cancelled = await api.post(`/api/v1/projects/${id}/generations/${generation.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.generation).toMatchObject({ status: 'cancelled', finished_at: expect.any(String) });
    // The worker of this process hears of the cancel at once and drops the model's request (a
    // look at the job's status would come only after two seconds).
    await waitUntil(async () => fake.abandoned > abandoned, 1_500, 'the request to be dropped');
    expect(Date.now() - at).toBeLessThan(1_500);
    // The worker lets go of it; the files and versions are as they were.
    await new Promise((r) => setTimeout(r, 600));
    const after = (await api.get(`/api/v1/projects/${id}/generations/${generation.id}`)).body.generation;
    expect(after.status).toBe('cancelled');
    expect((await api.get(`/api/v1/projects/${id}/files/index.html`)).body.file.content).toBe(
      '<h1>Before</h1>',
    );
    expect((await api.get(`/api/v1/projects/${id}/versions`)).body.total).toBe(1);
    // Finished: a second cancel is a conflict.
    const again = await api.post(`/api/v1/projects/${id}/generations/${generation.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "The generation has already finished (status 'cancelled')" });
  });

  it('never applies an answer that arrives after the cancel', async () => {
    const id = await project();
    await api.put(`/api/v1/projects/${id}/files/index.html`, { content: '<h1>Kept</h1>' });
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const generation = (
      await api.post(`/api/v1/projects/${id}/generate`, { prompt: 'Moon cafe', model: 'gpt-4o-mini' })
    ).body.generation;
    const cancel = await api.post(`/api/v1/projects/${id}/generations/${generation.id}/cancel`);
    // Either it was still going (cancelled, nothing applied) or it had already finished (409).
    const status = (await api.get(`/api/v1/projects/${id}/generations/${generation.id}`)).body.generation
      .status;
    await new Promise((r) => setTimeout(r, 400));
    const content = (await api.get(`/api/v1/projects/${id}/files/index.html`)).body.file.content;
    if (cancel.status === 200) {
      expect(status).toBe('cancelled');
      expect(
        (await api.get(`/api/v1/projects/${id}/generations/${generation.id}`)).body.generation.status,
      ).toBe('cancelled');
      expect(content).toBe('<h1>Kept</h1>');
    } else {
      expect(cancel.status).toBe(409);
      expect(content).toContain('Moon Cafe');
    }
  });
});

describe('what is written while a generation runs', () => {
  it('is kept: the answer is laid over it, and a file both changed is named and kept in the history', async () => {
    const id = await project();
    await api.put(`/api/v1/projects/${id}/files/index.html`, { content: '<h1>Before</h1>' });
    await api.put(`/api/v1/projects/${id}/files/notes.txt`, { content: 'Untouched by the answer' });
    // The answer rewrites index.html, adds css/site.css and, being a whole site, deletes notes.txt.
    fake.forget();
    fake.reply({ kind: 'answer', content: GOOD_SITE, holdAt: 40, holdMs: 30_000 });
    const generation = (
      await api.post(`/api/v1/projects/${id}/generate`, { prompt: 'Moon cafe', model: 'gpt-4o-mini' })
    ).body.generation;
    await waitUntil(() => fake.held, 10_000, 'the answer to be on its way');
    // Meanwhile the person uploads a picture and edits the home page.
    const png = await tinyPng();
    expect(
      (
        await api.put(`/api/v1/projects/${id}/files/images/meanwhile.png`, {
          content: png.toString('base64'),
          encoding: 'base64',
        })
      ).status,
    ).toBe(201);
    expect(
      (await api.put(`/api/v1/projects/${id}/files/index.html`, { content: '<h1>Mine</h1>' })).status,
    ).toBe(200);
    const mine = (await api.get(`/api/v1/projects/${id}/versions`)).body.versions[0];
    fake.release();
    await untilSucceeded(
      async () => (await api.get(`/api/v1/projects/${id}/generations/${generation.id}`)).body.generation,
    );

    const files = (await api.get(`/api/v1/projects/${id}/files`)).body.files.map((f: any) => f.path);
    expect(files.sort()).toEqual(['css/site.css', 'images/meanwhile.png', 'index.html']);
    const picture = (await api.get(`/api/v1/projects/${id}/files/images/meanwhile.png`)).body.file;
    expect(picture.content).toBe(png.toString('base64'));
    // Both changed index.html: the answer's version is the site's, the person's is in the history.
    const home = (await api.get(`/api/v1/projects/${id}/files/index.html`)).body.file.content;
    expect(home).toContain('Moon Cafe');
    const done = (await api.get(`/api/v1/projects/${id}/generations/${generation.id}`)).body.generation;
    expect(done.summary).toContain('replaced by this answer: index.html;');
    const earlier = await api.get(`/api/v1/projects/${id}/versions/${mine.id}/files/index.html`);
    expect(earlier.body.file.content).toBe('<h1>Mine</h1>');
  });
});

describe('generations of one project', () => {
  it('run one at a time, in order: the next starts on what the one before made', async () => {
    const id = await project();
    await api.put(`/api/v1/projects/${id}/files/index.html`, { content: '<h1>Before</h1>' });
    const edit = JSON.stringify({
      changes: [
        {
          path: 'index.html',
          edits: [{ search: '<h1>Moon Cafe</h1>', replace: '<h1>Moon Cafe in Bristol</h1>' }],
        },
      ],
      summary: 'Named the city',
    });
    fake.forget();
    fake.reply(
      { kind: 'answer', content: GOOD_SITE, holdAt: 40, holdMs: 30_000 },
      { kind: 'answer', content: edit },
    );
    const generate = (prompt: string) =>
      api
        .post(`/api/v1/projects/${id}/generate`, { prompt, model: 'gpt-4o-mini' })
        .then((r) => r.body.generation);
    const read = (generationId: string) => async () =>
      (await api.get(`/api/v1/projects/${id}/generations/${generationId}`)).body.generation;
    const first = await generate('Moon cafe');
    await waitUntil(() => fake.held, 10_000, 'the first answer to be on its way');
    const asked = fake.requests.length;
    const second = await generate('Say we are in Bristol');
    // The worker has a free turn (GENERATION_CONCURRENCY is 2) and looks every 50 ms: it waits.
    await sleep(800);
    expect(fake.requests.length).toBe(asked);
    expect((await read(second.id)()).status).toBe('queued');
    fake.release();
    await untilSucceeded(read(first.id));
    await untilSucceeded(read(second.id));
    // The second edited the first one's page, which it could only do if it read it.
    const home = (await api.get(`/api/v1/projects/${id}/files/index.html`)).body.file.content;
    expect(home).toContain('<h1>Moon Cafe in Bristol</h1>');
    expect((await read(second.id)()).summary).toBe('Named the city');
  });
});
