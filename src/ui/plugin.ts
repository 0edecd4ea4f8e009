// The pages: set-up, sign-in and accounts, the agency dashboard and the client portal, rendered on
// the server from the same services as the REST API. Registered by main.ts into the one Fastify
// app beside the API, in a context of their own: cookies, form bodies, CSRF, security headers and
// HTML error pages apply here and never to /api/v1.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import { UI_DIR } from './dir.ts';
import { parse as parseQuery } from 'node:querystring';
import type { PagesDeps, RouteDeps } from './deps.ts';
import { DomainError, NotFoundError, RateLimitedError, NotAllowedError } from '../modules/common/errors.ts';
import { allowFraming, noticeCookie, peopleWords, render } from './page.ts';
import { previewOrigin } from '../modules/publishing/preview-links.ts';
import { ManagersOnly, NoOrganization, SignInRequired, sessionCookieName } from './session.ts';
import { assetRoutes, assetUrl } from './routes/assets.ts';
import { authRoutes } from './routes/auth.ts';
import { dashboardRoutes } from './routes/index.ts';
import { timingSafeEqual } from 'node:crypto';
import { EMBED_PATH, embedCookieOf } from '../web/embed-cookie.ts';
import { embedFormToken } from '../modules/embed/service.ts';
import { EmbedSessionOver } from './builder/embed-scope.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function servesHost(host: string | undefined, ownHost: string): boolean {
  const name = (host ?? '').toLowerCase();
  return name === ownHost || LOOPBACK.has(name.replace(/:\d+$/, ''));
}

const eta = new Eta({ views: `${UI_DIR}views`, cache: true, autoEscape: true, autoTrim: [false, 'nl'] });

/**
 * A page for any path nothing else answers (outside /api): rendered without a session. The API's
 * not-found handler calls it outside the pages' context, where helmet does not run, so it sends
 * the pages' policy itself: the directives below, less frame-src (it frames nothing; frames fall
 * back to default-src). nosniff and HSTS come from the app's own hook (http/app.ts).
 */
export function pageNotFound(_request: FastifyRequest, reply: FastifyReply): void {
  const html = eta.render('not-found', {
    title: 'Page not found',
    signedIn: null,
    csrfToken: '',
    path: '',
    notice: null,
    asset: assetUrl,
  });
  void reply
    .status(404)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', STANDALONE_POLICY)
    .send(html);
}

/** The pages' policy for pages sent outside their context (no frames: frame-src falls back to default-src). */
export const STANDALONE_POLICY =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self';" +
  "font-src 'self';object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'";

/**
 * The page for a build link whose address is longer than the server reads (the HTTP server's
 * header limit; `head` is the start of what arrived): what to do instead, rather than a JSON 431.
 * Undefined for any other request.
 */
export function pageForLongRequest(head: string): { html: string; policy: string } | undefined {
  if (!/^GET \/build(?:\?|\/|\s)/.test(head)) return undefined;
  const org = /[?&]org=([0-9a-f-]{36})(?:[&\s]|$)/i.exec(head)?.[1];
  const data = {
    title: 'This link is too long',
    buildPage: org ? `/build?org=${org}` : '/build',
    signedIn: null,
    csrfToken: '',
    path: '',
    notice: null,
    asset: assetUrl,
  };
  return { html: eta.render('link-too-long', data), policy: STANDALONE_POLICY };
}

/** The CSRF token a form post or the builder's script sends. */
function formToken(request: FastifyRequest): string {
  const token =
    (request.body as { _csrf?: unknown } | undefined)?._csrf ?? request.headers['x-csrf-token'] ?? '';
  return typeof token === 'string' ? token : '';
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function pagesPlugin(deps: PagesDeps): FastifyPluginAsync {
  const { accounts } = deps.services;
  const secure = deps.config.accounts.secureCookies;
  const routeDeps: RouteDeps = { ...deps, cookies: { secure, ttlMs: deps.config.accounts.sessionTtlMs } };
  return async (app: FastifyInstance) => {
    await app.register(fastifyCookie);
    // Forms of the pages post urlencoded bodies; the qs-style parser keeps repeated fields as arrays.
    await app.register(fastifyFormbody, { parser: (body) => parseQuery(body), bodyLimit: 1_048_576 });
    await app.register(fastifyCsrf, {
      cookieKey: secure ? '__Host-sitewright_csrf' : 'sitewright_csrf',
      cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure },
      getToken: formToken,
    });
    await app.register(fastifyHelmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          // The builder frames the preview, which lives on its own origin.
          frameSrc: [previewOrigin(deps.config.sites)],
          fontSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      referrerPolicy: { policy: 'same-origin' },
      strictTransportSecurity: secure,
    });
    await app.register(fastifyView, { engine: { eta }, templates: `${UI_DIR}views` });

    app.decorateRequest('signedIn', null);
    app.decorateRequest('embedForms', null);
    app.decorate('notices', noticeCookie(secure));
    // Pages answer on the service's own host only (and on loopback names, for local use): a name
    // someone pointed at this server, such as a custom domain not yet verified, gets a 404, never
    // a sign-in page under a host we do not own.
    const ownHost = new URL(deps.config.publicUrl).host.toLowerCase();
    app.addHook('onRequest', async (request, reply) => {
      if (!servesHost(request.headers.host, ownHost)) {
        reply.callNotFound();
        return reply;
      }
      const token = request.cookies[sessionCookieName(secure)];
      request.signedIn = token ? ((await accounts.resolveSession(token)) ?? null) : null;
      // An embed frame's forms carry a token bound to its cookie (the CSRF cookie, SameSite=Lax,
      // never reaches a third-party frame).
      const frame = request.url.startsWith(`${EMBED_PATH}/`) ? embedCookieOf(request) : undefined;
      request.embedForms = frame ? embedFormToken(frame) : null;
    });
    // Every state-changing form carries the CSRF token (the pages only change state on POST).
    app.addHook('preHandler', (request, reply, done) => {
      if (request.method !== 'POST') return done();
      if (request.embedForms === null) return app.csrfProtection(request, reply, done);
      if (sameToken(formToken(request), request.embedForms)) return done();
      done(Object.assign(new Error('bad embed form token'), { code: 'FST_CSRF_INVALID_TOKEN' }));
    });

    app.setErrorHandler(async (error: Error & { statusCode?: number; code?: string }, request, reply) => {
      if (error instanceof EmbedSessionOver) {
        allowFraming(reply, error.origins);
        return render(
          request,
          reply,
          'error',
          {
            title: 'Session ended',
            message: 'This builder session has ended. Reload the page around it to start a new one.',
          },
          401,
        );
      }
      if (error instanceof SignInRequired) {
        return reply.redirect(`/sign-in?next=${encodeURIComponent(request.url)}`, 303);
      }
      if (error instanceof NoOrganization) {
        const client = request.signedIn?.client;
        return client
          ? reply.redirect(client.paymentRequired ? '/portal/billing' : '/portal', 303)
          : render(request, reply, 'no-organization', { title: 'No organization' }, 403);
      }
      if (error instanceof ManagersOnly) {
        return render(
          request,
          reply,
          'error',
          {
            title: 'Owners and admins only',
            message: 'Only owners and admins of this organization can use this page.',
          },
          403,
        );
      }
      // A domain error speaks to people in its plain words when it has them (forPeople).
      if (error instanceof NotFoundError)
        return render(
          request,
          reply,
          'error',
          { title: 'Not found', message: peopleWords(request, error) },
          404,
        );
      if (error instanceof RateLimitedError) {
        reply.header('retry-after', String(error.retryAfterSeconds));
        return render(
          request,
          reply,
          'error',
          { title: 'Too many requests', message: peopleWords(request, error) },
          429,
        );
      }
      if (error instanceof NotAllowedError)
        return render(
          request,
          reply,
          'error',
          { title: 'Not allowed', message: peopleWords(request, error) },
          403,
        );
      if (error instanceof DomainError)
        return render(
          request,
          reply,
          'error',
          { title: 'That did not work', message: peopleWords(request, error) },
          400,
        );
      if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
        return render(
          request,
          reply,
          'error',
          {
            title: 'Form expired',
            message:
              'This form has expired or was sent from another site. Go back, reload the page and try again.',
          },
          403,
        );
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500)
        return render(request, reply, 'error', { title: 'Bad request', message: error.message }, status);
      request.log.error({ err: error }, 'page failed');
      return render(
        request,
        reply,
        'error',
        {
          title: 'Something went wrong',
          message: 'An internal error occurred. It has been logged; please try again.',
        },
        500,
      );
    });

    await app.register(assetRoutes());
    await app.register(authRoutes(routeDeps));
    await app.register(dashboardRoutes(routeDeps));
  };
}
