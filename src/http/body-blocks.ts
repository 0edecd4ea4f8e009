// Large request bodies are gathered into blocks of our own before Fastify keeps them. Node copies
// every piece of a body its HTTP parser sees into a malloc'd buffer of that piece's size, and the
// pieces are as small as the socket reads that carried them. Fastify holds every piece until the
// body is complete (or over its limit), so a large body used to leave thousands of small buffers
// alive at once; glibc serves those from its heap (below the mmap threshold that `npm start`
// sets) and gives heap memory back only from its top, so one of them freed late pinned tens of
// MB for good. Copied into 1 MiB blocks (each mapped and unmapped on its own), a piece lives
// only until the next collection, and the heap never grows with the body. Once a large body is
// done with, a collection is asked for, so that its blocks go back to the system at once.
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, preParsingHookHandler } from 'fastify';
import { collectSoon } from './collect-soon.ts';

const BLOCK_BYTES = 1024 * 1024;
/** Bodies whose declared length is at most this pass as they come: a copy would buy nothing. */
const SMALL_BODY_BYTES = 64 * 1024;
/** A body of more than this is followed by a collection. */
const LARGE_BODY_BYTES = 8 * 1024 * 1024;
/** The methods whose bodies Fastify never parses (its own list). */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

/** Copies the pieces it is given into blocks of BLOCK_BYTES (or of the whole body, when smaller and known) and passes on whole blocks. */
class BlockGatherer extends Transform {
  private block: Buffer | undefined;
  private used = 0;
  /** Bytes copied so far. */
  gathered = 0;

  /**
   * @param declared the body's declared length, Infinity when it comes chunked
   * @param source what the gatherer reads, whose encoded length (a decompressing hook's) it passes on
   */
  constructor(
    private readonly declared: number,
    private readonly source: NodeJS.ReadableStream & { receivedEncodedLength?: number },
  ) {
    super();
  }

  /** Fastify checks the body's length against Content-Length (and its limit) with this when the stream it reads sets it. */
  get receivedEncodedLength(): number | undefined {
    return this.source.receivedEncodedLength;
  }

  override _transform(piece: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let offset = 0;
    while (offset < piece.length) {
      if (!this.block) {
        // A body shorter than a block gets a block of its length (never more than a block ahead
        // of what has arrived: a declared length may be a lie).
        this.block = Buffer.allocUnsafeSlow(
          Math.min(BLOCK_BYTES, Math.max(this.declared - this.gathered, piece.length - offset)),
        );
        this.used = 0;
      }
      const copied = piece.copy(this.block, this.used, offset);
      this.used += copied;
      offset += copied;
      this.gathered += copied;
      if (this.used === this.block.length) {
        this.push(this.block);
        this.block = undefined;
      }
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.block && this.used > 0) this.push(this.block.subarray(0, this.used));
    this.block = undefined;
    callback();
  }
}

/** Reads a large body (over 64 KiB by Content-Length, or chunked) through a BlockGatherer. */
const gatherLargeBodies: preParsingHookHandler = (request, reply, payload, done) => {
  const declared = Number(request.headers['content-length']);
  const chunked = request.headers['transfer-encoding'] !== undefined;
  if (BODYLESS.has(request.method) || (!chunked && !(declared > SMALL_BODY_BYTES)))
    return done(null, payload);
  // pipeline, not pipe: a request that breaks off errors the gatherer too, and the parser answers.
  const gatherer = new BlockGatherer(chunked || !Number.isFinite(declared) ? Infinity : declared, payload);
  reply.raw.once('close', () => {
    // A body nobody read (a 415, an answer given before parsing) is drained, as Node drains an
    // unread body: once read from, the request is ours to finish, and a paused one would hold
    // its keep-alive connection until the request timeout.
    gatherer.resume();
    // Once the response has gone the body is garbage.
    if (gatherer.gathered > LARGE_BODY_BYTES) collectSoon();
  });
  done(
    null,
    pipeline(payload, gatherer, () => {}),
  );
};

/** Every route registered from now on that takes a body (a method other than GET, HEAD and TRACE, whose bodies Fastify never parses) gathers large ones into blocks. */
export function registerBodyBlocks(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => BODYLESS.has(method))) return;
    const own = route.preParsing;
    route.preParsing = [gatherLargeBodies, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])];
  });
}
