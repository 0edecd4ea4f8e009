// The OpenAI-compatible provider against a fake server on loopback: good answers are written,
// anything malformed, truncated, unsafe or late fails the generation with a clear error.
import { afterAll, describe, expect, it } from 'vitest';
import { OpenAiProvider } from '../../../src/providers/openai/openai.ts';
import { GenerationError, type ProgressStep } from '../../../src/modules/generations/provider.ts';
import { FakeOpenAi, GOOD_SITE, page } from '../../helpers/fake-openai.ts';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';

// Started at load, so that the API harness below can be configured with its address.
const fake = await new FakeOpenAi().start();
afterAll(() => fake.stop());

const provider = (timeoutMs = 500) =>
  new OpenAiProvider({ apiKey: 'sk-test', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'], timeoutMs });
const run = (
  files: { path: string; content: string | Buffer }[] = [],
  signal = new AbortController().signal,
  onProgress?: (step: ProgressStep) => void,
) =>
  provider(onProgress ? 5_000 : 500).generate({
    prompt: 'A site for Moon Cafe',
    model: 'gpt-4o-mini',
    files,
    signal,
    onProgress,
  });

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

  it('names the project to the model for a first site, so an unnamed business gets the project’s name', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    await provider(500).generate({
      prompt: 'a dog grooming business in york',
      projectName: 'Pawfect Grooming',
      model: 'gpt-4o-mini',
      files: [],
      signal: new AbortController().signal,
    });
    const messages = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(messages.at(-2)!.content).toContain(
      'The project is called "Pawfect Grooming": use that as the site\'s name unless the next request names the business.',
    );
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'a dog grooming business in york' });
  });

  it('sends the current text files for an edit and keeps binary files', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const logo = Buffer.from([1, 2, 3]);
    const result = await run([
      { path: 'index.html', content: '<p>old</p>' },
      { path: 'logo.png', content: logo },
    ]);
    expect(fake.requests.at(-1)!.body.messages[1].content).toContain('<p>old</p>');
    expect(result.files.find((f) => f.path === 'logo.png')?.content).toEqual(logo);
  });

  it('keeps the text files it had no room to show, and says so to the model', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const big = 'x'.repeat(250_000); // beyond the 200 KB of context a follow-up sends
    const result = await run([
      { path: 'index.html', content: '<p>old</p>' },
      { path: 'data/catalogue.json', content: big },
    ]);
    const sent = fake.requests.at(-1)!.body.messages[1].content as string;
    expect(sent).not.toContain(big);
    expect(sent).toContain(
      'Text files not shown (too large for this message); they are kept as they are unless you return a new version: data/catalogue.json',
    );
    expect(result.files.find((f) => f.path === 'data/catalogue.json')?.content).toBe(big);
    expect(result.files.find((f) => f.path === 'index.html')?.content).not.toBe('<p>old</p>');
  });

  it.each([
    ['malformed JSON', { kind: 'answer', content: '{"files": [' }, /not valid JSON/, false],
    ['a truncated answer', { kind: 'answer', content: GOOD_SITE, finishReason: 'length' }, /cut off/, false],
    ['a refusal', { kind: 'answer', content: '', refusal: 'I cannot help with that' }, /refused/, false],
    ['the wrong shape', { kind: 'answer', content: '{"pages": []}' }, /no "files" array/, false],
    [
      'path traversal',
      { kind: 'answer', content: JSON.stringify({ files: [{ path: '../../etc/passwd', content: 'x' }] }) },
      /unsafe path/,
      false,
    ],
    [
      'an absolute path',
      { kind: 'answer', content: JSON.stringify({ files: [{ path: '/index.html', content: 'x' }] }) },
      /unsafe path/,
      false,
    ],
    [
      'no index.html',
      {
        kind: 'answer',
        content: JSON.stringify({ files: [{ path: 'a.html', content: '<html><body></body></html>' }] }),
      },
      /no index.html/,
      false,
    ],
    [
      'a broken index.html',
      { kind: 'answer', content: JSON.stringify({ files: [{ path: 'index.html', content: '<div>half' }] }) },
      /not a complete HTML document/,
      false,
    ],
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
    setTimeout(
      () => controller.abort(new GenerationError('The generation took longer than GENERATION_TIMEOUT', true)),
      50,
    );
    await expect(run([], controller.signal)).rejects.toThrow(/GENERATION_TIMEOUT/);
  });
});

type Site = { path: string; content: string | Buffer }[];
const answer = (body: object) => JSON.stringify(body);
const steps = () => {
  const seen: ProgressStep[] = [];
  return { seen, onProgress: (step: ProgressStep) => seen.push(step) };
};
const failure = async (promise: Promise<unknown>) => {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GenerationError);
  return error as GenerationError;
};
const nav = (from = '') =>
  `<nav aria-label="Main"><a href="${from}index.html">Home</a> <a href="${from}about.html">About</a> <a href="${from}menu/">Menu</a></nav>\n`;
const threePages = () => [
  {
    path: 'index.html',
    content: page(
      'Moon Cafe',
      `${nav()}<p>Welcome to "Moon" \\ cafe</p>\n`,
      '<link rel="stylesheet" href="css/site.css">\n',
    ),
  },
  { path: 'about.html', content: page('About', nav()) },
  { path: 'menu/index.html', content: page('Menu', nav('../')) },
  { path: 'css/site.css', content: 'body { font-family: sans-serif }' },
];
/** A site of 50 files: index.html, 48 pages that link home, and a stylesheet. */
const fiftyFiles = (): Site => [
  { path: 'index.html', content: page('Home', '<p><a href="page-1.html">First page</a></p>\n') },
  ...Array.from({ length: 48 }, (_, i) => ({
    path: `page-${i + 1}.html`,
    content: page(
      `Page ${i + 1}`,
      `<p>Text of page ${i + 1}. Price: 5 EUR.</p>\n<p><a href="index.html">Home</a></p>\n`,
    ),
  })),
  { path: 'site.css', content: 'p { margin: 0 }' },
];

describe('streamed answers', () => {
  it('reports each file of a streamed multi-page site as soon as the model closes it, in order', async () => {
    const site = threePages();
    const content = answer({ files: site, summary: 'Built three pages' });
    // The stream pauses right after the first file's object closed: its step must arrive before the rest.
    fake.reply({ kind: 'answer', content, holdAt: content.indexOf('},{"path":"about.html"') + 1 });
    let heldAtFirst: boolean | undefined;
    const { seen, onProgress } = steps();
    const result = await run([], undefined, (step) => {
      if (step.path === 'index.html') {
        heldAtFirst = fake.held;
        fake.release();
      }
      onProgress(step);
    });
    expect(heldAtFirst).toBe(true);
    expect(seen.map((s) => s.message)).toEqual([
      'Asking gpt-4o-mini',
      'Writing index.html',
      'Writing about.html',
      'Writing menu/index.html',
      'Writing css/site.css',
      'Checking the site',
    ]);
    expect(seen.filter((s) => s.path).map((s) => s.path)).toEqual(site.map((f) => f.path));
    expect(result.files).toEqual(site);
    expect(result.summary).toBe('Built three pages');
    expect(fake.requests.at(-1)!.body.stream).toBe(true);
    // The fake cut the answer into small pieces, some between a backslash and what it escapes.
    expect(fake.lastChunks.length).toBeGreaterThan(100);
    expect(fake.lastChunks.some((c) => c.endsWith('\\'))).toBe(true);
  });

  it.each([
    ['the connection dies mid-way', 'destroy' as const],
    ['the response ends without the model finishing', 'end' as const],
  ])('fails clearly and retryably when %s', async (_what, cut) => {
    fake.reply({ kind: 'answer', content: GOOD_SITE, cutAt: 60, cut });
    const { seen, onProgress } = steps();
    const error = await failure(run([], undefined, onProgress));
    expect(error.message).toMatch(/^The model’s answer broke off after 60 characters/);
    expect(error.retryable).toBe(true);
    expect(seen.map((s) => s.message)).toEqual(['Asking gpt-4o-mini']);
  });

  it('gives up on a stream that goes quiet for AI_TIMEOUT (retryable)', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE, holdAt: 40 }); // held for a second; AI_TIMEOUT is 0.5 s
    const started = Date.now();
    const error = await failure(run());
    expect(error.message).toMatch(
      /^The model’s answer broke off after \d+ characters: nothing arrived for AI_TIMEOUT \(0\.5 s\)$/,
    );
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(950);
    fake.release(); // the fake's side of the abandoned stream
  });

  it('stops a streaming answer when the job is aborted, with the job’s reason', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE, holdAt: 40 });
    const controller = new AbortController();
    const pending = run([], controller.signal);
    while (!fake.held) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new GenerationError('The generation took longer than GENERATION_TIMEOUT', true));
    const error = await failure(pending);
    expect(error.message).toBe('The generation took longer than GENERATION_TIMEOUT');
  });

  it('fails clearly on a complete but invalid JSON answer, and on one cut at the output limit', async () => {
    fake.reply({
      kind: 'answer',
      content: '{"files": [{"path": "index.html", "content": "<h1>x</h1>"}] "summary": "x"}',
    });
    const invalid = await failure(run());
    expect(invalid.message).toBe('The model’s answer was not valid JSON');
    expect(invalid.retryable).toBe(false);
    fake.reply({ kind: 'answer', content: GOOD_SITE.slice(0, 80), finishReason: 'length' });
    const cut = await failure(run());
    expect(cut.message).toMatch(/cut off \(finish_reason "length"\)/);
    expect(cut.retryable).toBe(false);
  });
});

describe('edits: only what changed', () => {
  it('applies search/replace edits and a delete to a 50-file site; everything else stays as it was', async () => {
    const site = fiftyFiles();
    fake.reply({
      kind: 'answer',
      content: answer({
        changes: [
          {
            path: 'page-7.html',
            edits: [
              { search: 'Price: 5 EUR.', replace: 'Price: $& 6 EUR.' },
              { search: '<h1>Page 7</h1>', replace: '<h1>Page seven</h1>' },
            ],
          },
          { path: 'page-48.html', delete: true },
          { path: 'extra.html', content: page('Extra') },
        ],
        summary: 'Raised the price on page 7',
      }),
    });
    const { seen, onProgress } = steps();
    const result = await run(site, undefined, onProgress);
    expect(result.summary).toBe('Raised the price on page 7');
    expect(seen.filter((s) => s.path).map((s) => s.message)).toEqual([
      'Editing page-7.html',
      'Deleting page-48.html',
      'Writing extra.html',
    ]);
    const byPath = new Map(result.files.map((f) => [f.path, f.content]));
    expect(byPath.size).toBe(50);
    expect(byPath.has('page-48.html')).toBe(false);
    expect(byPath.get('extra.html')).toBe(page('Extra'));
    const edited = byPath.get('page-7.html') as string;
    expect(edited).toContain('<p>Text of page 7. Price: $& 6 EUR.</p>'); // "$&" is literal text, not a pattern
    expect(edited).toContain('<h1>Page seven</h1>');
    for (const file of site)
      if (!['page-7.html', 'page-48.html'].includes(file.path))
        expect(byPath.get(file.path)).toBe(file.content);

    const sent = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(sent[0]!.content).toContain('{"changes": [');
    expect(sent[1]!.content).toContain('The site has 50 files:\nindex.html (');
    expect(sent[1]!.content).toContain(`page-48.html (${Buffer.byteLength(site[48]!.content)} bytes)`);
    expect(sent[1]!.content).toContain('Text of page 31.');
  }, 30_000);

  it('tells a first generation to send whole files, and a follow-up to send changes', async () => {
    fake.reply({ kind: 'answer', content: GOOD_SITE }, { kind: 'answer', content: GOOD_SITE });
    await run();
    expect(fake.requests.at(-1)!.body.messages[0].content).not.toContain('"changes"');
    await run([{ path: 'index.html', content: '<p>old</p>' }]);
    expect(fake.requests.at(-1)!.body.messages[0].content).toContain('"changes"');
  });

  it.each([
    ['not found', 'Price: 9 EUR.', 'page-3.html: the search text was not found: "Price: 9 EUR."'],
    [
      'found twice',
      '<p>',
      'page-3.html: the search text occurs 2 times (it must occur exactly once; include more of the surrounding text): "<p>"',
    ],
  ])(
    'asks the model to repair an edit whose search text is %s, then applies the repair to the original files',
    async (_what, search, problem) => {
      const site = fiftyFiles();
      const first = answer({
        changes: [
          { path: 'page-2.html', content: page('Page two') },
          { path: 'page-3.html', edits: [{ search, replace: '<p>New</p>' }] },
        ],
      });
      const repair = answer({
        changes: [{ path: 'page-3.html', edits: [{ search: 'Price: 5 EUR.', replace: 'Price: 7 EUR.' }] }],
        summary: 'Changed the price',
      });
      fake.reply({ kind: 'answer', content: first }, { kind: 'answer', content: repair });
      const { seen, onProgress } = steps();
      const result = await run(site, undefined, onProgress);
      expect(seen.map((s) => s.message)).toContain('Asking gpt-4o-mini to repair: 1 problem');
      const messages = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
      expect(messages.at(-2)).toEqual({ role: 'assistant', content: first });
      expect(messages.at(-1)!.role).toBe('user');
      expect(messages.at(-1)!.content).toContain(`- ${problem}`);
      expect(messages.at(-1)!.content).toContain('applies to the files as I first gave them');
      const byPath = new Map(result.files.map((f) => [f.path, f.content]));
      expect(byPath.get('page-3.html')).toContain('Price: 7 EUR.');
      // The first answer was never applied: page-2 is as it was.
      expect(byPath.get('page-2.html')).toBe(site[2]!.content);
      expect(result.summary).toBe('Changed the price');
    },
    30_000,
  );
});

describe('quality gate and the one repair round', () => {
  const broken = {
    'an html-validate error': {
      from: '<p>Welcome',
      to: '<p><img src="css/site.css">Welcome',
      problem: /index\.html:\d+:\d+: <img> is missing required "alt" attribute \(wcag\/h37\)/,
    },
    'a missing h1': {
      from: '<h1>Moon Cafe</h1>',
      to: '<h2>Moon Cafe</h2>',
      problem: /index\.html: the page has 0 <h1> elements; it needs exactly one \(h1\)/,
    },
    'a broken internal link': {
      from: 'menu/">Menu',
      to: 'menu.html">Menu',
      problem: /index\.html:\d+:\d+: <a href="menu\.html"> points to a file the site does not have \(link\)/,
    },
  };

  it.each(Object.entries(broken))(
    'asks once to repair %s, then returns the repaired site',
    async (_what, { from, to, problem }) => {
      const good = threePages();
      const bad = good.map((f) =>
        f.path === 'index.html' ? { ...f, content: (f.content as string).replace(from, to) } : f,
      );
      expect(bad[0]!.content).not.toBe(good[0]!.content);
      const first = answer({ files: bad, summary: 'Built it' });
      fake.reply(
        { kind: 'answer', content: first },
        { kind: 'answer', content: answer({ files: good, summary: 'Built it, repaired' }) },
      );
      const { seen, onProgress } = steps();
      const result = await run([], undefined, onProgress);
      expect(result.files).toEqual(good);
      expect(result.summary).toBe('Built it, repaired');
      const messages = seen.map((s) => s.message);
      expect(messages.slice(messages.indexOf('Checking the site'))).toEqual([
        'Checking the site',
        'Asking gpt-4o-mini to repair: 1 problem',
        'Writing index.html',
        'Writing about.html',
        'Writing menu/index.html',
        'Writing css/site.css',
        'Checking the site',
      ]);
      const sent = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
      expect(sent.at(-2)).toEqual({ role: 'assistant', content: first });
      expect(sent.at(-1)!.content).toMatch(problem);
    },
  );

  it('takes a repair sent as changes to the site the first answer made', async () => {
    const site = threePages().filter((f) => f.path !== 'about.html');
    fake.reply(
      { kind: 'answer', content: answer({ files: site, summary: 'Built it' }) },
      {
        kind: 'answer',
        content: answer({
          changes: [{ path: 'about.html', content: page('About', nav()) }],
          summary: 'Added the about page',
        }),
      },
    );
    const result = await run();
    expect(result.files.map((f) => f.path).sort()).toEqual([
      'about.html',
      'css/site.css',
      'index.html',
      'menu/index.html',
    ]);
    expect(fake.requests.at(-1)!.body.messages.at(-1).content).toContain(
      '<a href="about.html"> points to a file the site does not have',
    );
  });

  it('fails, not retryably, naming the problems when the repaired answer still fails; asks only once', async () => {
    const bad = threePages().map((f) =>
      f.path === 'about.html'
        ? {
            ...f,
            content: (f.content as string)
              .replace('<title>About</title>', '<title></title>')
              .replace('<h1>About</h1>', ''),
          }
        : f,
    );
    const before = fake.requests.length;
    fake.reply(
      { kind: 'answer', content: answer({ files: bad }) },
      { kind: 'answer', content: answer({ files: bad }) },
    );
    const error = await failure(run());
    expect(fake.requests.length - before).toBe(2);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^The generated site still fails the quality check after a repair \(\d+ problems\): /,
    );
    expect(error.message).toContain('about.html: the page has 0 <h1> elements; it needs exactly one (h1)');
    expect(error.message).toContain('about.html: the page has no <title> with text (title)');
  });

  it('does not hold an edit to account for problems the site already had', async () => {
    const site: Site = [
      ...threePages(),
      { path: 'legacy.html', content: '<p>An old page <a href="gone.html">with a dead link</a></p>' },
    ];
    fake.reply({
      kind: 'answer',
      content: answer({
        changes: [
          { path: 'about.html', edits: [{ search: '<h1>About</h1>', replace: '<h1>About us</h1>' }] },
        ],
      }),
    });
    const { seen, onProgress } = steps();
    const result = await run(site, undefined, onProgress);
    expect(seen.map((s) => s.message).filter((m) => m.includes('repair'))).toEqual([]);
    expect(result.files.find((f) => f.path === 'about.html')!.content).toContain('<h1>About us</h1>');
    // A new problem of the same page still counts.
    fake.reply(
      {
        kind: 'answer',
        content: answer({
          changes: [
            {
              path: 'legacy.html',
              edits: [{ search: '</p>', replace: '</p><a href="gone-too.html">x</a>' }],
            },
          ],
        }),
      },
      { kind: 'answer', content: answer({ changes: [{ path: 'legacy.html', content: page('Legacy') }] }) },
    );
    const repaired = await run(site);
    expect(fake.requests.at(-1)!.body.messages.at(-1).content).toContain('gone-too.html');
    expect(fake.requests.at(-1)!.body.messages.at(-1).content).not.toContain('"gone.html"');
    expect(repaired.files.find((f) => f.path === 'legacy.html')!.content).toBe(page('Legacy'));
  });
});

describe('generation through the API with an OpenAI-compatible model', () => {
  const api = useTestApi(
    {
      AI_API_KEY: 'sk-test',
      AI_BASE_URL: fake.baseUrl,
      AI_MODELS: 'gpt-4o-mini',
      GENERATION_RETRY_SCHEDULE: '0s,50ms',
      GENERATION_POLL_INTERVAL: '25ms',
      AI_TIMEOUT: '2s',
    },
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
    const ok = await wait(
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'Moon Cafe', model: 'gpt-4o-mini' }))
        .body.generation.id,
    );
    expect(ok).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      files: ['css/site.css', 'index.html'],
      model: 'gpt-4o-mini',
    });

    fake.reply({ kind: 'answer', content: JSON.stringify({ files: [{ path: '../x', content: 'y' }] }) });
    const bad = await wait(
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'Break it', model: 'gpt-4o-mini' })).body
        .generation.id,
    );
    expect(bad).toMatchObject({ status: 'failed', attempts: 1 });
    expect(bad.error).toContain('unsafe path');
    const files = (await api.get(`/api/v1/projects/${p.id}/files`)).body.files.map((f: any) => f.path);
    expect(files).toEqual(['css/site.css', 'index.html']);
  });

  it('records each streamed file, the check and the repair as progress; a site that fails twice is refused, not retried, files untouched', async () => {
    const c = await createClient(api);
    const p = await createProject(api, { client_email: c.email, name: 'Moon' });
    const events = async (id: string) => {
      const text = (await api.get(`/api/v1/projects/${p.id}/generations/${id}/events`)).text;
      return text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as { kind: string; message: string; path: string | null });
    };
    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const ok = await finished(
      p.id,
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'Moon Cafe', model: 'gpt-4o-mini' }))
        .body.generation.id,
    );
    expect(ok.status).toBe('succeeded');
    const steps = (await events(ok.id)).filter((e) => e.kind === 'step');
    expect(steps.map((e) => [e.message, e.path])).toEqual([
      ['Asking gpt-4o-mini', null],
      ['Writing index.html', 'index.html'],
      ['Writing css/site.css', 'css/site.css'],
      ['Checking the site', null],
    ]);

    const noH1 = JSON.stringify({
      changes: [
        { path: 'index.html', edits: [{ search: '<h1>Moon Cafe</h1>', replace: '<p>Moon Cafe</p>' }] },
      ],
    });
    // The repair applies to the site the first answer made (its <p>), and still has no <h1>.
    const stillNoH1 = JSON.stringify({
      changes: [
        { path: 'index.html', edits: [{ search: '<p>Moon Cafe</p>', replace: '<h2>Moon Cafe</h2>' }] },
      ],
    });
    fake.reply({ kind: 'answer', content: noH1 }, { kind: 'answer', content: stillNoH1 });
    const bad = await finished(
      p.id,
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'No heading', model: 'gpt-4o-mini' }))
        .body.generation.id,
    );
    expect(bad).toMatchObject({ status: 'failed', attempts: 1 });
    expect(bad.error).toBe(
      'The generated site still fails the quality check after a repair (1 problem): index.html: the page has 0 <h1> elements; it needs exactly one (h1)',
    );
    expect((await events(bad.id)).map((e) => e.message)).toContain('Asking gpt-4o-mini to repair: 1 problem');
    expect((await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content).toContain(
      '<h1>Moon Cafe</h1>',
    );

    fake.reply(
      { kind: 'answer', content: noH1.replace('<h1>', '<h3>') },
      { kind: 'answer', content: noH1.replace('<h1>', '<h4>') },
    );
    const unapplied = await finished(
      p.id,
      (await api.post(`/api/v1/projects/${p.id}/generate`, { prompt: 'No heading', model: 'gpt-4o-mini' }))
        .body.generation.id,
    );
    expect(unapplied.error).toBe(
      'The model’s answer still cannot be applied after a repair (1 problem): index.html: the search text was not found: "<h4>Moon Cafe</h1>"',
    );
  });

  it('aims a prompt at a selected element: the model receives its page, selector and HTML', async () => {
    const c = await createClient(api);
    const p = await createProject(api, { client_email: c.email, name: 'Moon' });
    const element = { file: 'index.html', selector: 'body > main > h1', html: '<h1>Moon Cafe</h1>' };
    const tooLong = await api.post(`/api/v1/projects/${p.id}/generate`, {
      prompt: 'x',
      element: { ...element, selector: 's'.repeat(2_001) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('selector');
    const extra = await api.post(`/api/v1/projects/${p.id}/generate`, {
      prompt: 'x',
      element: { ...element, color: 'red' },
    });
    expect(extra.status).toBe(400);

    fake.reply({ kind: 'answer', content: GOOD_SITE });
    const created = await api.post(`/api/v1/projects/${p.id}/generate`, {
      prompt: 'Say "Moon Café"',
      model: 'gpt-4o-mini',
      element,
    });
    expect(created.status).toBe(202);
    const done = await finished(p.id, created.body.generation.id);
    expect(done.status).toBe('succeeded');
    const sent = fake.requests.at(-1)!.body.messages as { content: string }[];
    expect(sent.at(-1)!.content).toBe('Say "Moon Café"');
    expect(sent.at(-2)!.content).toContain('index.html (CSS selector: body > main > h1)');
    expect(sent.at(-2)!.content).toContain('<h1>Moon Cafe</h1>');
  });
});
