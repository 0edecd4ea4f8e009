// Bodies over their limit on a site host (forms, the page-view beacon) get a 413 the client can
// read, whether the limit is passed by a declared Content-Length or by the bytes of a chunked body,
// and the connection goes on serving.
import { request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { waitUntil } from '../helpers/wait.ts';

const FORM_MAX_BYTES = 2_000;
const api = useTestApi({ SITES_DOMAIN: 'sites.test', FORM_MAX_BYTES: String(FORM_MAX_BYTES) });
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

async function publishedSite() {
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name: `Bodies ${Date.now()}` });
  await api.post(`/api/v1/projects/${p.id}/publish`, {
    builtFiles: { 'index.html': '<form action="/_forms/contact" method="post"></form>' },
  });
  return `${p.subdomain}.sites.test`;
}

interface Answer {
  status: number;
  body: string;
}

/** Posts `chunks` one by one, a little apart, without a Content-Length: the body goes chunked. */
function postChunked(
  host: string,
  path: string,
  chunks: string[],
  headers: Record<string, string>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { host, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    const write = (i: number) => {
      if (i === chunks.length) return req.end();
      req.write(chunks[i]);
      setTimeout(() => write(i + 1), 10);
    };
    write(0);
  });
}

describe('bodies over their limit', () => {
  it('answers 413 to a chunked form body that passes the limit as it streams', async () => {
    const host = await publishedSite();
    const urlencoded = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const big = await postChunked(
      host,
      '/_forms/contact',
      ['message=', 'x'.repeat(1_500), 'y'.repeat(1_500), 'z'.repeat(1_500)],
      urlencoded,
    );
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({
      error: `The form is too large (at most ${FORM_MAX_BYTES} bytes)`,
    });
    expect((await postChunked(host, '/_forms/contact', ['name=', 'Ann'], urlencoded)).status).toBe(200);
  });

  it('reads the rest of a refused body, so the same connection carries the next request', async () => {
    const host = await publishedSite();
    const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const post = (body: string) =>
      `POST /_forms/contact HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(body)}`;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    const answers = (count: number) =>
      waitUntil(
        () => received.split('HTTP/1.1 ').length > count && received.endsWith('}'),
        5_000,
        `${count} answers`,
      );
    socket.write(post(`message=${'x'.repeat(3 * FORM_MAX_BYTES)}`));
    await answers(1);
    socket.write(post('name=Ann'));
    await answers(2);
    socket.destroy();
    expect(
      received
        .split('HTTP/1.1 ')
        .slice(1)
        .map((answer) => answer.slice(0, 3)),
    ).toEqual(['413', '200']);
  });

  it('answers 413 to a chunked beacon body over its limit', async () => {
    const host = await publishedSite();
    const res = await postChunked(
      host,
      '/_sitewright/view',
      ['{"path":"/', 'a'.repeat(800), 'b'.repeat(800), '"}'],
      { 'content-type': 'text/plain' },
    );
    expect(res.status).toBe(413);
    expect(res.body).toBe('The body is too large (at most 1024 bytes)\n');
  });

  it('refuses a declared Content-Length over the limit at once, before any of the body is sent', async () => {
    const host = await publishedSite();
    const status = await new Promise<number>((resolve, reject) => {
      const headers = {
        host,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(10 * FORM_MAX_BYTES),
      };
      const req = request(
        { host: '127.0.0.1', port, path: '/_forms/contact', method: 'POST', headers },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });
});
