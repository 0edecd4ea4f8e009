// Checks every /api/v1 request in the order docs/api/decisions.md fixes: 401 -> 429 -> 403 -> 415 (400 comes
// from schema validation, 404 from the handler). A request without a valid credential is counted
// against its client IP: past the quota it gets 429 rather than 401, so keys cannot be guessed
// at speed. The key is looked up on every request, so a revocation is immediate everywhere.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Caller, OrgService, Permission } from '../modules/orgs/service.ts';
import type { EmbedService, LiveSession } from '../modules/embed/service.ts';
import { EMBED_TOKEN_PREFIX } from '../lib/keys.ts';
import { HttpError } from './error-handler.ts';
import { bearerToken, limitKey } from '../web/credentials.ts';
import { UploadSlots } from './upload-slots.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on every /api/v1 route that is not public. */
    caller: Caller | null;
    /** The headless embed session whose token is the credential (http/caller.ts `principal`). */
    embedSession: LiveSession | null;
  }
  interface FastifyContextConfig {
    /** Served without a credential (still rate limited per IP), e.g. the OpenAPI document. */
    public?: boolean;
    /** A write that may come without any body (and then without Content-Type). */
    allowEmptyBody?: boolean;
    /** Media types the route takes besides JSON (its own content-type parsers read them). */
    bodyTypes?: readonly string[];
    /** The permission the route needs instead of the method's (the embed session API: `embed`). */
    permission?: Permission;
  }
}

export const API_PREFIX = '/api/v1';
/** The embed session API (POST and DELETE /api/embed/session), guarded as /api/v1 is. */
export const EMBED_API_PREFIX = '/api/embed';
/** The routes a headless embed session's token may call. */
const EMBED_TOKEN_ROUTES = /^\/api\/v1\/projects(\/|\?|$)/;

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The first checks of every /api/v1 request: the credential is looked up, the request counted
 * against its limit (or its address's), the headers set; 429 when over the limit. Also run for
 * requests the router refuses before any hook (a malformed URL), so they are counted too.
 */
export type Identify = (request: FastifyRequest, reply: FastifyReply) => Promise<Caller | undefined>;

/**
 * The one route that also takes an OAuth connector token (the spec: "Projects listing also accepts
 * an OAuth connector token, which sees the signed-in user's own projects"); every other route
 * keeps requiring an API key.
 */
const CONNECTOR_ROUTE = /^\/api\/v1\/projects(\?|$)/;

/** Turns an OAuth access token into a read-only caller (its user's own projects), or undefined. */
export type ConnectorCheck = (token: string) => Promise<Caller | undefined>;

export function registerApiGuard(
  app: FastifyInstance,
  services: { orgs: OrgService; embed: EmbedService },
  rateLimiter: RateLimiter,
  config: Config,
  connector?: ConnectorCheck,
): Identify {
  const { orgs, embed } = services;
  const { quota, windowSeconds } = rateLimiter;
  const retirement = retirementHeaders(config);
  const uploads = new UploadSlots(config.largeUploadsAtOnce);

  const identify: Identify = async (request, reply) => {
    reply.headers(retirement);
    const token = apiKeyOf(request.headers.authorization);
    let caller = token ? await orgs.authenticate(token) : undefined;
    if (token?.startsWith(EMBED_TOKEN_PREFIX)) {
      const session = await embed.authenticate(token);
      if (session?.mode === 'headless') {
        request.embedSession = session;
        caller = {
          orgId: session.orgId,
          keyId: `embed:${session.id}`,
          permissions: ['read', 'write'],
          clientId: session.clientId,
        };
      }
    }
    if (!caller && token && connector && request.method === 'GET' && CONNECTOR_ROUTE.test(request.url))
      caller = await connector(token);
    const rate = await rateLimiter.consume(limitKey(caller?.keyId, request.ip));
    reply.headers(rateLimiter.headers(rate));
    if (!rate.allowed) {
      throw new HttpError(
        429,
        `Rate limit exceeded: ${quota} requests per ${windowSeconds} s; retry in ${rate.resetSeconds} s`,
        {
          'retry-after': String(rate.resetSeconds),
        },
      );
    }
    return caller;
  };

  app.decorateRequest('caller', null);
  app.decorateRequest('embedSession', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url)) return;
    const caller = await identify(request, reply);
    const token = apiKeyOf(request.headers.authorization);

    // routeOptions is a getter that builds a new object: read it once.
    const routeConfig = request.routeOptions.config;
    if (routeConfig.public) return;
    if (!caller) {
      throw new HttpError(
        401,
        token?.startsWith(EMBED_TOKEN_PREFIX)
          ? 'Invalid, expired or revoked embed session token (only a headless session is a bearer)'
          : token
            ? 'Invalid or revoked API key'
            : 'Missing API key: send "Authorization: Bearer wk_..."',
      );
    }
    request.caller = caller;

    if (request.embedSession && !EMBED_TOKEN_ROUTES.test(request.url))
      throw new HttpError(403, 'An embed session token may call the /api/v1/projects routes only');
    const needed: Permission =
      routeConfig.permission ?? (READ_METHODS.has(request.method) ? 'read' : 'write');
    if (!caller.permissions.includes(needed)) {
      throw new HttpError(
        403,
        caller.permissions.includes('embed')
          ? 'An embed key can only create and revoke embed sessions (/api/embed/session)'
          : `This API key lacks the '${needed}' permission`,
      );
    }
    checkContentType(request, routeConfig.allowEmptyBody === true, routeConfig.bodyTypes);
    uploads.admit(request, reply);
  });
  return identify;
}

/** A write without a body schema takes no fields (route-rules.ts `noBody`). */
export async function refuseUnexpectedBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, 'This operation takes no request body');
  const [field] = Object.keys(body);
  if (field !== undefined) throw new HttpError(400, `unknown field '${field}'`);
}

export function isApiPath(url: string): boolean {
  return under(url, API_PREFIX) || under(url, EMBED_API_PREFIX);
}

function under(url: string, prefix: string): boolean {
  return url === prefix || url.startsWith(prefix + '/') || url.startsWith(prefix + '?');
}

/** The key sent as `Authorization: Bearer wk_...`, or as the whole header (the API takes both). */
export function apiKeyOf(header: string | undefined): string | undefined {
  return bearerToken(header) ?? (header || undefined);
}

/** Deprecation and Sunset, sent on every /api/v1 response while this version is being retired. */
export function retirementHeaders(config: Config): Record<string, string> {
  const { deprecation, sunset } = config.deprecation;
  return { ...(deprecation ? { deprecation } : {}), ...(sunset ? { sunset } : {}) };
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

function checkContentType(
  request: FastifyRequest,
  allowEmptyBody: boolean,
  others: readonly string[] = [],
): void {
  if (READ_METHODS.has(request.method)) return;
  const body = hasBody(request);
  // DELETE carries a body only by exception; a bodyless write may be allowed by the route.
  if (!body && (request.method === 'DELETE' || allowEmptyBody)) return;
  const type = request.headers['content-type'] ?? '';
  if (JSON_CONTENT_TYPE.test(type)) return;
  const essence = type.split(';')[0]!.trim().toLowerCase();
  if (others.includes(essence)) return;
  throw new HttpError(415, `Content-Type must be ${['application/json', ...others].join(' or ')}`);
}
