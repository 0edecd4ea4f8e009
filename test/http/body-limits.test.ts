// A body larger than its route accepts is refused while it streams in: a declared Content-Length
// over the limit is answered 413 before any of the body is sent, a chunked body once the limit is
// passed, and the connection is closed so the client stops sending.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';

const api = useTestApi({ PROJECT_MAX_BYTES: '100000' });
let port = 0;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

/** Sends the head, then `chunks` of body until the server answers; resolves with the answer and what was sent. */
function upload(
  head: string,
  chunk: Buffer | null,
  maxChunks: number,
): Promise<{ answer: string; sentChunks: number }> {
  return new Promise((resolve, reject) => {
    let answer = '';
    let sent = 0;
    let answered = false;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      const pump = () => {
        while (chunk && !answered && sent < maxChunks) {
          sent++;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`))
            return void socket.once('drain', pump);
        }
      };
      pump();
    });
    socket.on('data', (data) => {
      answered = true;
      answer += data;
    });
    socket.on('close', () => resolve({ answer, sentChunks: sent }));
    socket.on('error', () => resolve({ answer, sentChunks: sent }));
    socket.setTimeout(10_000, () => reject(new Error('no answer')));
  });
}

describe('body limits', () => {
  it('refuses a declared oversized publish before reading it, and closes', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Big' });
    const started = Date.now();
    const { answer } = await upload(
      `POST /api/v1/projects/${p.id}/publish HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${api.key}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n`,
      null,
      0,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe('{"error":"Request body too large"}');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a chunked body once it passes the limit, long before the client is done', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Chunked' });
    const { answer, sentChunks } = await upload(
      `POST /api/v1/projects/${p.id}/publish HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${api.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      Buffer.alloc(64 * 1024, 'a'),
      1_600, // 100 MB if nobody stopped it
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sentChunks).toBeLessThan(1_600);
  });
});
