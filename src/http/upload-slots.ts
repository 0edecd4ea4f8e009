// At most LARGE_UPLOADS_AT_ONCE API requests with a large body are served at once: the memory
// uploads take is bounded by how many run together, not by hoping each one is freed in time. One
// more is refused before its body is read, with a 503 and Retry-After, and may simply retry.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './error-handler.ts';

/** A body above this (or of unknown length: chunked) is a large one. */
export const LARGE_BODY_BYTES = 1024 * 1024;
const RETRY_AFTER_SECONDS = 5;

export class UploadSlots {
  private taken = 0;

  constructor(private readonly max: number) {}

  /** Takes a slot for `request` when its body is large, until its answer is done; 503 when none is free. */
  admit(request: FastifyRequest, reply: FastifyReply): void {
    if (!isLarge(request)) return;
    if (this.taken >= this.max) {
      throw new HttpError(
        503,
        `Too many large uploads at once (LARGE_UPLOADS_AT_ONCE = ${this.max}); retry in ${RETRY_AFTER_SECONDS} s`,
        // Closed: the client stops sending a body nobody will read.
        { 'retry-after': String(RETRY_AFTER_SECONDS), connection: 'close' },
      );
    }
    this.taken += 1;
    // 'close' comes once per response, answered or broken off.
    reply.raw.once('close', () => {
      this.taken -= 1;
    });
  }
}

function isLarge(request: FastifyRequest): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  return Number(request.headers['content-length']) > LARGE_BODY_BYTES;
}
