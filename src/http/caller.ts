import type { FastifyRequest } from 'fastify';
import type { Caller } from '../modules/orgs/service.ts';

/** The authenticated caller of an /api/v1 route (the API guard has already refused anyone else). */
export function caller(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route reached without an authenticated caller');
  return request.caller;
}
