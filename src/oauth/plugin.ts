// The OAuth 2.1 authorization server's endpoints for AI clients (the consent page is one of the
// pages: ui/routes/oauth-consent.ts): metadata (RFC 8414), dynamic client registration (RFC 7591),
// the token endpoint (authorization_code with PKCE, refresh_token with rotation) and revocation
// (RFC 7009). Errors are RFC 6749's `{"error", "error_description"}`.
import fastifyFormbody from '@fastify/formbody';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { OAuthService } from '../modules/oauth/service.ts';
import { OAuthRequestError, SCOPE, type OAuthErrorKind } from '../modules/oauth/service.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import { jsonAnswerHeaders } from '../web/security-headers.ts';

type Fields = Record<string, string | undefined>;

/** The HTTP status each kind of OAuth error is answered with (RFC 6749 5.2, RFC 7591 3.2.2: 400). */
const STATUS: Record<OAuthErrorKind, number> = {
  invalid_request: 400,
  invalid_client: 400,
  invalid_grant: 400,
  invalid_scope: 400,
  invalid_target: 400,
  unsupported_response_type: 400,
  unsupported_grant_type: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
};

export function oauthPlugin(deps: { oauth: OAuthService; rateLimiter: RateLimiter }): FastifyPluginAsync {
  const { oauth, rateLimiter } = deps;
  const issuer = oauth.issuer;
  const fail = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof OAuthRequestError)) throw error;
    return reply
      .status(STATUS[error.code])
      .header('cache-control', 'no-store')
      .send({ error: error.code, error_description: error.message });
  };
  const fields = (body: unknown): Fields => {
    const out: Fields = {};
    for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>))
      out[k] = Array.isArray(v) ? String(v[0]) : typeof v === 'string' ? v : undefined;
    return out;
  };

  const security = jsonAnswerHeaders(issuer);

  return async (app) => {
    // The token endpoint and the metadata answer data; the consent page is one of the pages.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(security);
      done();
    });
    await app.register(fastifyFormbody, { parser: (body) => parseQuery(body), bodyLimit: 65_536 });
    app.addHook('preHandler', async (request, reply) => {
      // Registration and revocation: the same quota per address as anyone without a key, so they
      // cannot be flooded. The token endpoint has a quota of its own per address: a flood of
      // registrations, handshakes or key-less calls never starves token refreshes. (Not per
      // client_id: the caller chooses it, so fresh ids would escape any limit, and anyone could
      // spend a real application's quota.)
      if (request.method !== 'POST') return;
      const bucket = request.url.startsWith('/oauth/token') ? 'oauth-token' : 'ip';
      const rate = await rateLimiter.consume(`${bucket}:${request.ip}`);
      if (!rate.allowed)
        return reply
          .status(429)
          .header('retry-after', String(rate.resetSeconds))
          .send({
            error: 'slow_down',
            error_description: `Too many requests; retry in ${rate.resetSeconds} s`,
          });
    });

    app.get('/.well-known/oauth-authorization-server', async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send({
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        registration_endpoint: `${issuer}/oauth/register`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        revocation_endpoint_auth_methods_supported: ['none'],
        scopes_supported: [SCOPE],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
      }),
    );

    // Metadata is a few KB at most (modules/oauth/clients.ts bounds what is kept): a larger body
    // is refused before it is parsed.
    app.post('/oauth/register', { bodyLimit: 65_536 }, async (request, reply) => {
      try {
        const client = await oauth.clients.register((request.body ?? {}) as Record<string, unknown>);
        return reply
          .status(201)
          .header('cache-control', 'no-store')
          .send({
            client_id: client.clientId,
            client_id_issued_at: Math.floor(Date.now() / 1000),
            ...client.raw,
          });
      } catch (error) {
        return fail(reply, error);
      }
    });

    app.post('/oauth/token', async (request, reply) => {
      const f = fields(request.body);
      try {
        const tokens =
          f.grant_type === 'authorization_code'
            ? await oauth.exchangeCode(f)
            : f.grant_type === 'refresh_token'
              ? await oauth.refresh(f)
              : undefined;
        if (!tokens)
          throw new OAuthRequestError(
            'unsupported_grant_type',
            'grant_type must be authorization_code or refresh_token',
          );
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
      } catch (error) {
        return fail(reply, error);
      }
    });

    app.post('/oauth/revoke', async (request, reply) => {
      const f = fields(request.body);
      try {
        await oauth.revokeToken(f.token, f.client_id);
        return reply.status(200).header('cache-control', 'no-store').send({});
      } catch (error) {
        return fail(reply, error);
      }
    });
  };
}
