// `limit` and `offset` are checked as they were written, before validation coerces them: Ajv's
// coercion turns '0x10' into 16, '-0' into 0 and '1e3' into 1000, and lets 1e23 or Infinity
// through as integers. Every list route states this check (route-rules.ts `pagedList`), so all
// of them take decimal digits in range and refuse everything else with the one message of
// modules/common/paging.ts.
import type { FastifyRequest } from 'fastify';
import { HttpError } from './error-handler.ts';
import { PAGING_RANGES, pagingMessage, type PagingParam } from '../modules/common/paging.ts';

const NAMES = Object.keys(PAGING_RANGES) as PagingParam[];
// Ten digits hold MAX_OFFSET; more can only be out of range (and would lose precision as a number).
const DIGITS = /^[0-9]{1,10}$/;

/** A list route's preValidation (route-rules.ts `pagedList`). */
export async function checkPaging(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  for (const name of NAMES) {
    const raw = query[name];
    if (raw === undefined) continue;
    // A repeated parameter arrives as an array: refused like any other malformed value.
    if (typeof raw !== 'string' || !DIGITS.test(raw)) throw new HttpError(400, pagingMessage(name));
    const value = Number(raw);
    const { minimum, maximum } = PAGING_RANGES[name];
    if (value < minimum || value > maximum) throw new HttpError(400, pagingMessage(name));
  }
}
