// Links that carry a secret (a password reset, an invitation, a sign-up confirmation, a build
// link's tokens and its prompt) are written to the info log with the request's URL: the secret
// part is redacted there, whatever answers the request, and nothing else of the URL changes.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createContainer, type Container } from '../../src/container.ts';
import { buildServer } from '../../src/main.ts';
import { redactUrl } from '../../src/lib/url-redaction.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { logCollector } from '../helpers/log-lines.ts';

const SECRET = 'S3cr3tT0k3nXYZ';

describe('URLs in the request log', () => {
  let db: TestDatabase;
  let runtime: Container;
  let app: FastifyInstance;
  const { lines, stream } = logCollector();

  beforeAll(async () => {
    db = await createTestDatabase();
    runtime = await createContainer(testConfig(db));
    app = await buildServer(runtime, pino({ level: 'info' }, stream));
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await db?.drop();
  });

  it('hide the secret of every link that carries one', async () => {
    const cases: [string, string][] = [
      [`/reset-password/${SECRET}`, '/reset-password/[redacted]'],
      [`/invitations/${SECRET}`, '/invitations/[redacted]'],
      [`/sign-up/confirm/${SECRET}`, '/sign-up/confirm/[redacted]'],
      [`/build?prompt=A%20bakery%20${SECRET}&org=o1`, '/build?prompt=[redacted]&org=o1'],
      [`/build?link=${SECRET}`, '/build?link=[redacted]'],
      [`/build?pending=${SECRET}`, '/build?pending=[redacted]'],
      [`/build?%70rompt=${SECRET}`, '/build?%70rompt=[redacted]'],
      [`/sign-in?next=${encodeURIComponent(`/build?pending=${SECRET}`)}`, '/sign-in?next=[redacted]'],
      [`/sign-in?next=${encodeURIComponent(`/invitations/${SECRET}`)}`, '/sign-in?next=[redacted]'],
      ['/sign-in?next=%2Fprojects%3Fq%3Dbread', '/sign-in?next=%2Fprojects%3Fq%3Dbread'],
      ['/projects?q=bread&page=2', '/projects?q=bread&page=2'],
      ['/api/v1/clients', '/api/v1/clients'],
    ];
    for (const [url, logged] of cases) {
      const reqId = `redact-${Math.random()}`;
      await app.inject({ method: 'GET', url, headers: { 'x-request-id': reqId } });
      const mine = lines.filter((line) => line.reqId === reqId);
      expect(mine.length, url).toBeGreaterThan(0);
      expect(JSON.stringify(mine), url).not.toContain(SECRET);
      const incoming = mine.find((line) => line.msg === 'incoming request') as {
        req: { url: string; method: string };
      };
      expect(incoming.req, url).toMatchObject({ method: 'GET', url: logged });
    }
  });
});

describe('redactUrl', () => {
  it('leaves a URL without a secret as it is, and survives a malformed escape', () => {
    expect(redactUrl('/')).toBe('/');
    expect(redactUrl('/reset-password')).toBe('/reset-password');
    expect(redactUrl('/projects?q=%E0%A4%A&prompt')).toBe('/projects?q=%E0%A4%A&prompt');
    expect(redactUrl('/build?org=x&prompt=')).toBe('/build?org=x&prompt=[redacted]');
    expect(redactUrl(`/invitations/${SECRET}?x=1`)).toBe('/invitations/[redacted]?x=1');
  });
});
