// The MCP server over Streamable HTTP at /api/mcp, its manifest at /.well-known/mcp and the
// protected-resource metadata (RFC 9728) of /api/mcp. Stateless: the SDK's handler serves every
// request, tool calls included, with a fresh server (server.ts), for clients of the 2025
// revisions and the current one.
// Before the SDK sees a request this gate checks its Host and Origin (DNS-rebinding protection),
// counts it against the caller's rate limit (the API's own: a key's tool calls and REST calls
// share one quota), and lets a tool call through only with a valid token allowed to make it:
// without one the answer is HTTP 401 with the WWW-Authenticate challenge clients discover
// authorization from; with a read-only key on a writing tool, 403 insufficient_scope.
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { hostHeaderValidation } from '@modelcontextprotocol/fastify';
import { createMcpHandler, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { Config } from '../config.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Services } from '../modules/index.ts';
import { createMcpServer, SERVER_INFO } from './server.ts';
import { TOOL_BY_NAME, TOOLS, type McpCaller } from './tools.ts';
import { jsonAnswerHeaders } from '../web/security-headers.ts';
import { bearerToken, limitKey } from '../web/credentials.ts';

export const MCP_PATH = '/api/mcp';
const METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;
/** The body of one MCP request: tool arguments are small; files go through the REST API. */
const MAX_BODY = 1_048_576;

export interface McpDeps {
  config: Config;
  services: Services;
  rateLimiter: RateLimiter;
  /** Origins (besides PUBLIC_URL's) whose pages may call the endpoint from a browser. */
  allowedOrigins: string[];
}

/** Bodies Fastify refuses before the handler, as the SDK's transport words them. */
const BODY_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [-32700, 'Parse error: Invalid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [-32700, 'Parse error: Invalid JSON'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [-32000, 'Unsupported Media Type: Content-Type must be application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [-32000, `Payload Too Large: Request body must not exceed ${MAX_BODY} bytes`],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [-32000, 'Bad Request: Content-Length does not match the body'],
};

type JsonRpc = { jsonrpc?: string; id?: string | number | null; method?: string; params?: { name?: string } };

export function mcpPlugin(deps: McpDeps): FastifyPluginAsync {
  const { config, services, rateLimiter } = deps;
  const publicUrl = new URL(config.publicUrl);
  const resource = `${publicUrl.origin}${MCP_PATH}`;
  const metadataUrl = `${publicUrl.origin}${METADATA_PATH}`;
  const origins = new Set([publicUrl.origin, ...deps.allowedOrigins]);
  const handler = createMcpHandler(
    ({ authInfo }) => createMcpServer(services, authInfo?.extra?.tools as string[] | undefined),
    { legacy: 'stateless', maxRequestBodySize: MAX_BODY },
  );

  const challenge = (extra = '') => `Bearer resource_metadata="${metadataUrl}", scope="mcp"${extra}`;
  const refuse = (reply: FastifyReply, status: number, id: JsonRpc['id'], message: string, code = -32001) =>
    reply
      .status(status)
      .type('application/json')
      .send({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });

  /**
   * The caller a Bearer token names: an organization's API key, or an OAuth access token issued
   * for this resource (it acts as its user in the organization of the grant; a client's own
   * account sees that client's projects only).
   */
  const authenticate = async (
    request: FastifyRequest,
  ): Promise<(McpCaller & { limitKey: string }) | undefined> => {
    const token = bearerToken(request.headers.authorization);
    if (!token) return undefined;
    if (token.startsWith('wk_')) {
      const caller = await services.orgs.authenticate(token);
      // An embed key opens embed sessions and nothing else: here it is no credential at all.
      if (!caller || caller.permissions.includes('embed')) return undefined;
      return (
        caller && {
          orgId: caller.orgId,
          permissions: caller.permissions,
          keyId: caller.keyId,
          limitKey: caller.keyId,
        }
      );
    }
    const owner = await services.oauth.verifyAccess(token, resource);
    if (!owner) return undefined;
    return {
      orgId: owner.orgId,
      permissions: ['read', 'write'],
      userId: owner.userId,
      ...(owner.orgClientId ? { clientId: owner.orgClientId } : {}),
      limitKey: `user:${owner.userId}`,
    };
  };

  const security = jsonAnswerHeaders(config.publicUrl);

  return async (app) => {
    // Every answer of this way in is data (JSON-RPC, SSE, metadata), a refusal of the Host too.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(security);
      done();
    });
    app.addHook('onRequest', hostHeaderValidation([publicUrl.hostname, 'localhost', '127.0.0.1', '[::1]']));
    // A body Fastify could not read never reaches the handler: answered as JSON-RPC errors, with
    // the SDK's own codes and words, as an MCP client expects (not the API's {"error"}).
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status =
        error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
          ? error.statusCode
          : 500;
      if (status === 500) request.log.error({ err: error }, 'MCP request failed');
      if (status === 413) reply.header('connection', 'close'); // the rest of the body is not read
      const known =
        BODY_ERRORS[error.code] ??
        (error instanceof SyntaxError && status === 400
          ? BODY_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY
          : undefined);
      const [code, message] =
        known ?? (status === 500 ? [-32603, 'Internal server error'] : [-32000, error.message]);
      return refuse(reply, status, null, message, code);
    });

    app.get('/.well-known/mcp', async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send({
        name: SERVER_INFO.name,
        title: SERVER_INFO.title,
        version: SERVER_INFO.version,
        description:
          'Build, publish and manage agency clients’ websites: projects, AI generation, previews, publishing, custom domains, analytics, form messages, build links.',
        endpoint: resource,
        transport: 'streamable-http',
        protocol_versions: SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= '2025-03-26'),
        authentication: {
          tool_calls: 'required',
          methods: [
            {
              type: 'oauth2',
              description:
                'OAuth 2.1 with PKCE (scope mcp): the signed-in person consents for one organization',
              authorization_server: services.oauth.issuer,
            },
            {
              type: 'bearer',
              token: 'api_key',
              description: 'An organization API key (wk_...); its read/write permissions apply',
            },
          ],
          protected_resource_metadata: metadataUrl,
          scope: 'mcp',
        },
        tools: TOOLS.map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          permission: t.needs,
          annotations: t.annotations,
        })),
      }),
    );

    app.get(METADATA_PATH, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send({
        resource,
        resource_name: 'Sitewright MCP server',
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp'],
        authorization_servers: [services.oauth.issuer],
        resource_documentation: `${publicUrl.origin}/docs/api`,
      }),
    );

    app.route({
      method: ['GET', 'POST', 'DELETE'],
      url: MCP_PATH,
      bodyLimit: MAX_BODY,
      handler: async (request, reply) => {
        const origin = request.headers.origin;
        if (origin !== undefined && !origins.has(origin) && !sameOrigin(origin, request.headers.host))
          return refuse(
            reply,
            403,
            null,
            `Origin ${origin.slice(0, 200)} may not call this endpoint`,
            -32000,
          );
        const messages = ([] as JsonRpc[]).concat((request.body as JsonRpc | JsonRpc[] | undefined) ?? []);
        const calls = messages.filter((m) => m && m.method === 'tools/call');
        const caller = await authenticate(request);
        const rate = await rateLimiter.consume(limitKey(caller?.limitKey, request.ip));
        if (!rate.allowed) {
          reply.header('retry-after', String(rate.resetSeconds));
          return refuse(reply, 429, calls[0]?.id, `Rate limit exceeded: retry in ${rate.resetSeconds} s`);
        }
        if (calls.length > 0) {
          if (!caller) {
            reply.header('www-authenticate', challenge());
            return refuse(
              reply,
              401,
              calls[0]!.id,
              'Authentication required: a tool call needs a Bearer token (an OAuth access token, or an organization API key wk_...)',
            );
          }
          for (const call of calls) {
            const tool = TOOL_BY_NAME.get(call.params?.name ?? '');
            if (tool && !caller.permissions.includes(tool.needs)) {
              reply.header(
                'www-authenticate',
                challenge(
                  `, error="insufficient_scope", error_description="${tool.name} needs the ${tool.needs} permission"`,
                ),
              );
              return refuse(
                reply,
                403,
                call.id,
                `insufficient_scope: ${tool.name} needs a key with the ${tool.needs} permission`,
              );
            }
          }
        }
        // A request made of tool calls only is served by a server with just those tools.
        const tools =
          calls.length > 0 && calls.length === messages.length
            ? calls.map((call) => String(call.params?.name ?? ''))
            : undefined;
        const response = await handler.fetch(toWebRequest(request, resource), {
          ...(caller
            ? {
                authInfo: {
                  token: 'bearer',
                  clientId: caller.keyId ?? caller.userId ?? 'caller',
                  scopes: ['mcp'],
                  extra: { caller, tools, log: request.log },
                },
              }
            : {}),
          ...(request.body !== undefined ? { parsedBody: request.body } : {}),
        });
        reply.status(response.status);
        response.headers.forEach((value, name) => void reply.header(name, value));
        // Stateless, an answer ends with its request's result and no tool of ours sends progress
        // on the way: it is sent whole, which costs far less than bridging the web stream.
        return reply.send(response.body ? await response.text() : null);
      },
    });
  };
}

/**
 * A page of the origin the request was sent to (its Host, already checked to be the service's or
 * a loopback name): the service's own page, e.g. on http://localhost:3000 when run locally. A
 * page elsewhere, another port of localhost included, is another origin.
 */
function sameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/**
 * The request as the SDK's web-standard handler reads it. The body goes to the handler already
 * parsed (parsedBody), so the Request carries none: serialising it again only to be ignored cost
 * a sixth of a tool call.
 */
function toWebRequest(request: FastifyRequest, resource: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return new Request(resource, { method: request.method, headers });
}
