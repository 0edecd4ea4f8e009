// Large request bodies reach the parsers whole and unchanged after being gathered into blocks:
// declared or chunked, in pieces of any size, with multi-byte characters cut across pieces and
// blocks; a body that breaks off midway is answered (or dropped) without holding the server up.
import { createHash } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBodyBlocks } from '../../src/http/body-blocks.ts';

let app: FastifyInstance;
let port = 0;
const seen: { bodies: number } = { bodies: 0 };

beforeAll(async () => {
  app = Fastify({ bodyLimit: 8 * 1024 * 1024 });
  registerBodyBlocks(app);
  app.post('/echo', async (request) => {
    seen.bodies++;
    const text = (request.body as { text: string }).text;
    return { length: text.length, sha256: createHash('sha256').update(text).digest('hex') };
  });
  app.put('/raw', async (request) => {
    seen.bodies++;
    return {
      bytes: (request.body as Buffer).length,
      sha256: createHash('sha256')
        .update(request.body as Buffer)
        .digest('hex'),
    };
  });
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  app.route({
    method: ['GET', 'POST'],
    url: '/both',
    handler: async (request) => ({ method: request.method }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

/** Text of `chars` characters mixing 1-, 2-, 3- and 4-byte UTF-8, so that cuts land inside characters. */
function mixedText(chars: number): string {
  const alphabet = ['a', 'é', '€', '😀', '"', '\\', 'z'];
  let text = '';
  for (let i = 0; text.length < chars; i++) text += alphabet[(i * 7 + (i >> 3)) % alphabet.length];
  return text;
}

/** Sends a request by hand: the head, then the body in pieces of the given sizes (chunked when asked), pausing now and then. */
function send(head: string, body: Buffer, pieceSizes: number[], chunked: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', async () => {
      socket.write(head);
      let offset = 0;
      for (let i = 0; offset < body.length; i++) {
        const piece = body.subarray(offset, offset + pieceSizes[i % pieceSizes.length]!);
        offset += piece.length;
        const frame = chunked
          ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
          : piece;
        if (!socket.write(frame)) await new Promise((r) => socket.once('drain', r));
        if (i % 97 === 0) await new Promise((r) => setImmediate(r));
      }
      if (chunked) socket.write('0\r\n\r\n');
    });
    socket.on('data', (data) => {
      answer += data;
      if (/\r\n\r\n[\s\S]*\}$/.test(answer)) socket.end();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function bodyOf(answer: string): unknown {
  return JSON.parse(
    answer.slice(answer.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ''),
  );
}

/** Writes `bytes` (`answers` requests one after the other) on one keep-alive connection; resolves with each answer's status line once all came, or what came in 5 s. */
function onOneConnection(bytes: Buffer[], answers: number): Promise<string[]> {
  return new Promise((resolve) => {
    let received = '';
    const statuses = () => received.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];
    const socket = connect(port, '127.0.0.1', () => {
      for (const b of bytes) socket.write(b);
    });
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (statuses().length === answers) socket.destroy();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(statuses());
    });
    socket.on('error', () => {});
  });
}

describe('large bodies gathered into blocks', () => {
  const text = mixedText(1_500_000); // about 3.4 MB of JSON: several blocks
  const json = Buffer.from(JSON.stringify({ text }));
  const expected = { length: text.length, sha256: createHash('sha256').update(text).digest('hex') };

  it('passes a declared JSON body of several blocks whole, whatever the pieces it arrives in', async () => {
    for (const pieces of [[65_536], [1, 7, 4_093, 300_001], [1_048_575, 3]]) {
      const head = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n`;
      const answer = await send(head, json, pieces, false);
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(bodyOf(answer)).toEqual(expected);
    }
  });

  it('passes a chunked JSON body whole', async () => {
    const head = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const answer = await send(head, json, [3, 65_537, 12_289], true);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(bodyOf(answer)).toEqual(expected);
  });

  it('passes binary bodies byte for byte, a block long exactly and one byte either side', async () => {
    for (const bytes of [1_048_575, 1_048_576, 1_048_577, 70_000]) {
      const data = createHash('sha512').update(String(bytes)).digest();
      const body = Buffer.alloc(bytes);
      for (let i = 0; i < bytes; i += data.length) data.copy(body, i);
      const head = `PUT /raw HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${bytes}\r\nConnection: close\r\n\r\n`;
      const answer = await send(head, body, [8_191, 100_003], false);
      expect(bodyOf(answer)).toEqual({ bytes, sha256: createHash('sha256').update(body).digest('hex') });
    }
  });

  it('drains a large body nobody reads (no parser for its type, a GET), so its keep-alive connection goes on', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'x');
    const head = (line: string, type: string) =>
      Buffer.from(
        `${line} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${big.length}\r\n\r\n`,
      );
    const next = Buffer.from('GET /both HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await onOneConnection([head('POST /echo', 'application/xml'), big, next], 2)).toEqual([
      'HTTP/1.1 415 Unsupported Media Type',
      'HTTP/1.1 200 OK',
    ]);
    expect(await onOneConnection([head('GET /both', 'application/json'), big, next], 2)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
    ]);
  });

  it('drops a body that breaks off midway and goes on serving', async () => {
    const before = seen.bodies;
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`,
        );
        socket.write(json.subarray(0, 2_000_000), () => socket.destroy());
      });
      socket.on('close', () => resolve());
    });
    const small = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"ok"}',
    });
    expect(await small.json()).toEqual({
      length: 2,
      sha256: createHash('sha256').update('ok').digest('hex'),
    });
    expect(seen.bodies).toBe(before + 1); // the broken body never reached its handler
  });
});
