// The embeddable builder's way in for browsers: the host SDK (/embed/sdk.js, /embed/sdk.mjs), the
// first page of a frame (GET /embed/s/{session}: the handshake) and the token's one exchange for
// the frame's partitioned cookie (POST /embed/exchange). The builder and the preview pane it goes
// on to are pages (ui/, under /embed/s/{frame}/projects); the session API is the REST API's (/api/embed).
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { Type } from '@sinclair/typebox';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Services } from '../modules/index.ts';
import { DomainError, InvalidInputError } from '../modules/common/errors.ts';
import { escapeHtml } from '../lib/html.ts';
import { isUuid } from '../lib/ids.ts';
import { frameAncestors, framePath, setEmbedCookie } from '../web/embed-cookie.ts';
import { embedFormToken } from '../modules/embed/service.ts';
import { checkedAgainst } from '../web/validation-message.ts';

const asset = (name: string) =>
  readFileSync(new URL(`../../src/embed/assets/${name}`, import.meta.url), 'utf8');

/** The SDK as a classic script (defines window.Sitewright) and as an ES module, from one source. */
function sdkFiles(): Record<'sdk.js' | 'sdk.mjs' | 'frame.js', { body: string; etag: string }> {
  const core = asset('sdk-core.js');
  const files = {
    'sdk.js': `(function () {\n${core}\nwindow.Sitewright = createSitewright();\n})();\n`,
    'sdk.mjs': `${core}\nconst Sitewright = createSitewright();\nexport default Sitewright;\nexport const mount = Sitewright.mount;\n`,
    'frame.js': asset('frame.js'),
  };
  const out = {} as Record<keyof typeof files, { body: string; etag: string }>;
  for (const [name, body] of Object.entries(files) as [keyof typeof files, string][])
    out[name] = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
  return out;
}

const ExchangeBody = Type.Object(
  {
    token: Type.String({ maxLength: 100 }),
    origin: Type.String({ maxLength: 300 }),
    session: Type.String({ maxLength: 36 }),
    pane: Type.Optional(Type.String({ maxLength: 20 })),
    project: Type.Optional(Type.String({ maxLength: 36 })),
  },
  { additionalProperties: false },
);

/** The handshake page's policy: its own script, its own fetch, framed by the session's origins only. */
function pagePolicy(origins: readonly string[]): string {
  return (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    `base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestors(origins)}`
  );
}

export interface EmbedDeps {
  services: Services;
  rateLimiter: RateLimiter;
  publicUrl: string;
  /** The pages' stylesheet, for the handshake page's few words. */
  stylesheet: string;
}

export function embedPlugin(deps: EmbedDeps): FastifyPluginAsync {
  const { services, rateLimiter } = deps;
  const files = sdkFiles();
  const ownOrigin = new URL(deps.publicUrl).origin;
  return async (app: FastifyInstance) => {
    await app.register(fastifyCookie);

    for (const name of ['sdk.js', 'sdk.mjs', 'frame.js'] as const) {
      app.get(`/embed/${name}`, async (request, reply) => {
        const file = files[name];
        reply
          .type('text/javascript; charset=utf-8')
          .header('etag', file.etag)
          // Host pages load the SDK from here on every visit: a day fresh, a week while revalidating.
          .header('cache-control', 'public, max-age=86400, stale-while-revalidate=604800')
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('access-control-allow-origin', '*');
        if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
        return reply.send(file.body);
      });
    }

    app.get<{ Params: { sid: string }; Querystring: { pane?: string; project?: string } }>(
      '/embed/s/:sid',
      async (request, reply) => {
        const origins = isUuid(request.params.sid)
          ? await services.embed.frameOrigins(request.params.sid.toLowerCase())
          : undefined;
        if (!origins) return refusal(reply, 404, 'This builder session has ended or does not exist.');
        const pane = request.query.pane === 'preview' ? 'preview' : '';
        const project = isUuid(request.query.project ?? '') ? request.query.project!.toLowerCase() : '';
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('content-security-policy', pagePolicy(origins))
          .header('referrer-policy', 'no-referrer')
          .send(handshakePage(request.params.sid.toLowerCase(), origins, { pane, project }, deps.stylesheet));
      },
    );

    app.post('/embed/exchange', async (request, reply) => {
      reply.header('cache-control', 'no-store').header('content-security-policy', pagePolicy([]));
      // Anonymous until it succeeds: limited per address like any credential-less request.
      const rate = await rateLimiter.consume(`ip:${request.ip}`);
      if (!rate.allowed)
        return reply
          .status(429)
          .header('retry-after', String(rate.resetSeconds))
          .send({ error: `Too many requests; retry in ${rate.resetSeconds} s` });
      // Only the frame's own page may exchange (a form on another site cannot).
      if (request.headers.origin !== ownOrigin && request.headers.origin !== origin(request))
        return reply.status(403).send({ error: 'The exchange is made by the frame itself' });
      try {
        const body = checkedAgainst(ExchangeBody, request.body, 'field', { whole: 'body' });
        const { secret, session } = await services.embed.exchange(body.session, body.token, body.origin);
        const frame = framePath(body.session.toLowerCase());
        setEmbedCookie(reply, body.session.toLowerCase(), secret, session.expiresAt);
        const project = session.projectId ?? (body.project && isUuid(body.project) ? body.project : null);
        const pane = body.pane === 'preview' || session.mode === 'hybrid';
        const next = project
          ? `${frame}/projects/${project.toLowerCase()}${pane ? '/preview' : ''}`
          : `${frame}/projects`;
        // A refreshed frame keeps its page: it takes the new form token and end from here.
        return reply.send({ next, expires_at: session.expiresAt, csrf: embedFormToken(secret) });
      } catch (error) {
        if (error instanceof InvalidInputError) return reply.status(400).send({ error: error.message });
        if (error instanceof DomainError) return reply.status(403).send({ error: error.message });
        throw error;
      }
    });
  };
}

/** The request's own origin as the browser sees it (behind a proxy: its scheme and Host). */
function origin(request: { protocol: string; host: string }): string {
  return `${request.protocol}://${request.host}`;
}

function refusal(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', pagePolicy([]))
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not available</title></head>` +
        `<body><main><h1>Not available</h1><p>${escapeHtml(message)}</p></main></body></html>`,
    );
}

function handshakePage(
  sid: string,
  origins: readonly string[],
  open: { pane: string; project: string },
  stylesheet: string,
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Opening the builder</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
<script type="module" src="/embed/frame.js"></script>
</head>
<body class="embed-handshake">
<main id="handshake" data-session="${escapeHtml(sid)}" data-pane="${escapeHtml(open.pane)}" data-project="${escapeHtml(open.project)}" data-origins="${escapeHtml(JSON.stringify(origins))}">
<h1 class="visually-hidden">Website builder</h1>
<p id="status" role="status" aria-live="polite">Opening the builder…</p>
<noscript><p>The website builder needs JavaScript in this page and in the page around it.</p></noscript>
</main>
</body>
</html>
`;
}
