// Fuzzing driven by the served OpenAPI document: every operation gets malformed and odd requests
// (wrong types, unknown and missing fields, huge and non-finite numbers, NUL and odd Unicode,
// malformed ids and percent-encodings, wrong content types, broken JSON). Whatever is sent, the
// API never answers 5xx, and every error is exactly {"error": "<message>"} with a request id.
// Seeded and bounded, so a failure is reproducible and the run stays short.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';

const api = useTestApi();
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

type Operation = { method: string; path: string; params: { name: string; in: string }[]; hasBody: boolean };

const oddText = fc.oneof(
  fc.string(),
  fc.fullUnicodeString(),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '%00',
    '💥',
    '\uD800',
    ' ',
    '',
    '1e23',
    'Infinity',
    '-0',
    'NaN',
    '0x10',
    '-1',
    '1.5',
    '99999999999999999999',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '../../etc/passwd',
    'a'.repeat(5000),
  ),
);
const oddNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1e23, -1, 0, 2 ** 53, -(2 ** 31), 1.5));
const oddValue = fc.oneof(
  oddText,
  oddNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(oddText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), oddText, { maxKeys: 3 }),
);
const pathSegment = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    '%zz',
    '%',
    '%00',
    '%E0%A4%A',
    'x'.repeat(300),
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    '..',
    '%2e%2e',
    'ÄÖÜ',
    '1e23',
  ),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

function operations(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      out.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        hasBody: Boolean(op.requestBody),
      });
    }
  }
  return out;
}

const request = (real: Record<string, string>) =>
  fc
    .record({
      segment: pathSegment,
      useReal: fc.boolean(),
      query: fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom('limit', 'offset', 'days', 'q', 'status', 'client_id', 'project_id', 'form'),
            fc.string({ maxLength: 6 }),
          ),
          oddText,
        ),
        { maxLength: 3 },
      ),
      body: fc.oneof(
        fc.constant(undefined),
        fc.dictionary(
          fc.constantFrom(
            'name',
            'email',
            'client_email',
            'description',
            'tags',
            'price',
            'max_sites',
            'status',
            'url',
            'events',
            'prompt',
            'content',
            'encoding',
            'builtFiles',
            'domain',
            'plan_id',
            'template_id',
            'is_active',
            'unknown_field',
          ),
          oddValue,
          { maxKeys: 4 },
        ),
        oddValue,
        fc.constantFrom('{"name":', '{', '[]', 'null', '{"a":1}{', '\u0000'),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        undefined,
      ),
    })
    .map((r) => ({ ...r, real }));

describe('OpenAPI-driven fuzzing', () => {
  it('never answers 5xx and every error is exactly {"error": "..."} with a request id', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs' })).json();
    const client = await createClient(api);
    const project = await createProject(api, { client_email: client.email, name: 'Fuzzed' });
    // Real ids let requests reach the handlers, not only the validators.
    const real: Record<string, string> = { clientId: client.id, projectId: project.id, id: project.id };
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(30);
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(request(real), async (r) => {
          const url =
            op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
              r.useReal && r.real[name] ? r.real[name] : r.segment,
            ) +
            (r.query.length
              ? '?' + r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
              : '');
          const headers: Record<string, string> = { authorization: `Bearer ${api.key}` };
          let payload: string | undefined;
          if (op.method !== 'GET' && r.body !== undefined) {
            payload = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
            if (r.contentType) headers['content-type'] = r.contentType;
          }
          const res = await api.app.inject({
            method: op.method as 'GET',
            url,
            headers,
            ...(payload !== undefined ? { payload } : {}),
          });
          const what = `${op.method} ${url} ${payload?.slice(0, 200) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          expect(res.headers['x-request-id'], what).toBeTruthy();
          if (res.statusCode >= 400) {
            const body = JSON.parse(res.body);
            expect(Object.keys(body), what).toEqual(['error']);
            expect(typeof body.error, what).toBe('string');
          }
        }),
        { numRuns: RUNS_PER_OPERATION, seed: SEED, endOnFailure: true },
      );
    }
  }, 120_000);
});
