// How a builder action answers: the builder's script asks for JSON (Accept: application/json) and
// gets the result or `{"error"}` with the status the REST API would give; a plain form post (no
// script) is sent back to the builder with a notice, and a refusal becomes the error page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, RateLimitedError } from '../../modules/common/errors.ts';
import { domainErrorStatus } from '../../web/errors.ts';
import { peopleWords, redirectWith } from '../page.ts';

export function wantsJson(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('application/json');
}

/** How a notice is shown: done, or done but something still needs the person (a warning). */
export type Tone = 'ok' | 'warning';

/**
 * Runs a builder action and answers it either way; `back` is the builder tab to return to. A
 * warning's tone travels with the JSON, or in the address a plain form post returns to.
 */
export async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  back: string,
  run: () => Promise<{ notice: string; tone?: Tone; data?: unknown }>,
): Promise<FastifyReply> {
  try {
    const { notice, tone = 'ok', data } = await run();
    if (wantsJson(request))
      return reply.header('cache-control', 'no-store').send({ notice, tone, ...(data as object) });
    return redirectWith(
      reply,
      tone === 'ok' ? back : `${back}${back.includes('?') ? '&' : '?'}tone=${tone}`,
      notice,
    );
  } catch (error) {
    if (!(error instanceof DomainError) || !wantsJson(request)) throw error;
    if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
    // The builder shows it to a person: plain words, and a client is told to ask its agency.
    return reply.status(domainErrorStatus(error).status).send({ error: peopleWords(request, error) });
  }
}
