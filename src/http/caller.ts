import type { FastifyRequest } from 'fastify';
import { tokenPrincipal, type Principal } from '../modules/access/principal.ts';
import type { Caller } from '../modules/orgs/service.ts';

/** The authenticated caller of an /api/v1 route (the API guard has already refused anyone else). */
export function caller(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route reached without an authenticated caller');
  return request.caller;
}

/** The caller as the core's principal (http/app.ts names a connector token's person `user:<id>`). */
export function principal(request: FastifyRequest): Principal {
  if (request.embedSession) return request.embedSession.principal;
  const { keyId, ...rest } = caller(request);
  const userId = keyId.startsWith('user:') ? keyId.slice('user:'.length) : undefined;
  return tokenPrincipal({ ...rest, ...(userId === undefined ? { keyId } : { userId }) });
}
