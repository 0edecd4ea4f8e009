// Checks every /api/v1 request in the order DESIGN.md fixes: 401 -> 429 -> 403 -> 415 (400 comes
// from schema validation, 404 from the handler). A request without a valid credential is counted
// against its client IP: past the quota it gets 429 rather than 401, so keys cannot be guessed
// at speed. A read of a route marked cacheable may then be answered from the read cache (a repeat
// of it usually is, before it gets here: cached-reads.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.ts';
import type { Caller, Permission } from '../modules/orgs/service.ts';
import type { AppContext } from './context.ts';
import { ReadCache } from './read-cache.ts';
import { takeDecidedRate } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on every /api/v1 route that is not public. */
    caller: Caller | null;
    /** Where this request's answer goes in the read cache, when its route is cacheable. */
    readCacheSlot: { key: string; version: number } | null;
  }
  interface FastifyContextConfig {
    /** Served without a credential (still rate limited per IP), e.g. the OpenAPI document. */
    public?: boolean;
    /** A write that may come without any body (and then without Content-Type). */
    allowEmptyBody?: boolean;
    /** A GET whose 200 answer depends only on the database, the organization and the URL (see read-cache.ts). */
    cacheable?: boolean;
  }
}

export const API_PREFIX = '/api/v1';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;
const JSON_REPLY = 'application/json; charset=utf-8';

export function registerApiGuard(app: FastifyInstance, ctx: AppContext, readCache: ReadCache): void {
  const { quota, windowSeconds } = ctx.rateLimiter;
  const retirement = retirementHeaders(ctx);

  app.decorateRequest('caller', null);
  app.decorateRequest('readCacheSlot', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url)) return;
    reply.headers(retirement);

    // The database's change counter, read once per request before anything is looked up; both
    // the key cache and the read cache trust what was read at this version (SQLite only).
    const version = ctx.database.dataVersion?.();
    const token = bearerToken(request.headers.authorization);
    const caller = token ? (ctx.orgs.rememberedCaller(token, version) ?? (await ctx.orgs.authenticate(token, version))) : undefined;

    // Counted already when the cached-read path took this request and handed its refusal on.
    const rate = takeDecidedRate(request.raw) ?? (await ctx.rateLimiter.consume(caller ? `key:${caller.keyId}` : `ip:${request.ip}`));
    reply.headers(ctx.rateLimiter.headers(rate));
    if (!rate.allowed) {
      throw new ApiError(429, `Rate limit exceeded: ${quota} requests per ${windowSeconds} s; retry in ${rate.resetSeconds} s`, {
        'retry-after': String(rate.resetSeconds),
      });
    }

    // routeOptions is a getter that builds a new object: read it once.
    const routeConfig = request.routeOptions.config;
    if (routeConfig.public) return;
    if (!caller) {
      throw new ApiError(401, token ? 'Invalid or revoked API key' : 'Missing API key: send "Authorization: Bearer wk_..."');
    }
    request.caller = caller;

    const needed: Permission = READ_METHODS.has(request.method) ? 'read' : 'write';
    if (!caller.permissions.includes(needed)) {
      throw new ApiError(403, `This API key lacks the '${needed}' permission`);
    }
    checkContentType(request, routeConfig.allowEmptyBody === true);

    if (routeConfig.cacheable && version !== undefined) {
      const key = ReadCache.key(caller.orgId, request.url);
      const body = readCache.get(key, version);
      if (body !== undefined) return reply.type(JSON_REPLY).send(body);
      request.readCacheSlot = { key, version };
    }
  });
  // A cacheable route's 200 answer goes into the read cache on its way out.
  const remember = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    const slot = request.readCacheSlot;
    if (slot && reply.statusCode === 200 && typeof payload === 'string') readCache.set(slot.key, payload, slot.version);
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.cacheable) route.onSend = [...(route.onSend ? [route.onSend].flat() : []), remember];
  });
  // A write without a body schema (a DELETE, or a write allowed without a body) takes no fields:
  // one that comes is refused by name, like an unknown field anywhere else, instead of being
  // ignored. Attached only to those routes, so that no other request pays for the hook.
  app.addHook('onRoute', (route) => {
    const takesNoBody = route.config?.allowEmptyBody || [route.method].flat().includes('DELETE');
    if (!takesNoBody || route.schema?.body) return;
    const existing = route.preValidation;
    route.preValidation = [...(existing ? [existing].flat() : []), refuseUnexpectedBody];
  });
}

async function refuseUnexpectedBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'This operation takes no request body');
  const [field] = Object.keys(body);
  if (field !== undefined) throw new ApiError(400, `unknown field '${field}'`);
}

export function isApiPath(url: string): boolean {
  return url === API_PREFIX || url.startsWith(API_PREFIX + '/') || url.startsWith(API_PREFIX + '?');
}

/** The key sent as `Authorization: Bearer wk_...` (or as the whole header). */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? header;
}

/** Deprecation and Sunset, sent on every /api/v1 response while this version is being retired. */
export function retirementHeaders(ctx: AppContext): Record<string, string> {
  const { deprecation, sunset } = ctx.config.deprecation;
  return { ...(deprecation ? { deprecation } : {}), ...(sunset ? { sunset } : {}) };
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

function checkContentType(request: FastifyRequest, allowEmptyBody: boolean): void {
  if (READ_METHODS.has(request.method)) return;
  const body = hasBody(request);
  // DELETE carries a body only by exception; a bodyless write may be allowed by the route.
  if (!body && (request.method === 'DELETE' || allowEmptyBody)) return;
  if (!JSON_CONTENT_TYPE.test(request.headers['content-type'] ?? '')) {
    throw new ApiError(415, 'Content-Type must be application/json');
  }
}
