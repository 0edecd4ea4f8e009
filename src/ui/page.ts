// Rendering a page: the view, inside the layout, with what every page needs (who is signed in,
// the organization, the CSRF token for its forms, a one-time notice). Eta escapes every `<%= %>`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotAllowedError, RateLimitedError, type DomainError } from '../modules/common/errors.ts';
import { assetUrl } from './routes/assets.ts';
import { frameAncestors } from '../web/embed-cookie.ts';

/**
 * The one-time notice travels in a cookie between a form's redirect and the next page. On https
 * it is `__Host-` prefixed, so no other host (a site under the same registrable domain) can plant
 * text in the dashboard's notice banner; plain http (local use) cannot have the prefix.
 */
export function noticeCookie(secure: boolean): { name: string; secure: boolean } {
  return { name: secure ? '__Host-sitewright_notice' : 'sitewright_notice', secure };
}

declare module 'fastify' {
  interface FastifyInstance {
    notices: { name: string; secure: boolean };
  }
}

export interface PageData {
  title: string;
  [key: string]: unknown;
}

export async function render(
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  data: PageData,
  status = 200,
): Promise<FastifyReply> {
  const cookie = request.server.notices;
  const notice = request.cookies[cookie.name];
  if (notice) reply.clearCookie(cookie.name, { path: '/', secure: cookie.secure });
  const html = await reply.viewAsync(`${view}.eta`, {
    ...data,
    signedIn: request.signedIn,
    csrfToken: request.embedForms ?? reply.generateCsrf(),
    path: request.url.split('?')[0],
    notice: notice ? notice.slice(0, 300) : null,
    asset: assetUrl,
  });
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** Redirects after a form post (303, so a reload does not post again), with a notice for the next page. */
export function redirectWith(reply: FastifyReply, location: string, notice?: string): FastifyReply {
  const cookie = reply.server.notices;
  if (notice)
    reply.setCookie(cookie.name, notice, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: cookie.secure,
      maxAge: 60,
    });
  return reply.redirect(location, 303);
}

/**
 * Lets this page's forms post to an answer that redirects to `target`'s origin. Chromium checks
 * `form-action` along the whole redirect chain of a form post, so a form whose answer is a 303
 * to another origin (an OAuth client's redirect URI) is blocked under `form-action 'self'`.
 * Only http(s) origins (all an OAuth client may register) are added, and only this response
 * changes.
 */
export function allowFormTarget(reply: FastifyReply, target: string): void {
  const origin = new URL(target).origin;
  if (!/^https?:\/\/[a-z0-9.\-[\]:]+$/i.test(origin)) return;
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string') return;
  reply.header(
    'content-security-policy',
    policy.replace("form-action 'self'", `form-action 'self' ${origin}`),
  );
}

/**
 * Lets this answer be framed by `origins` (an embed session's) instead of no one: its policy's
 * `frame-ancestors` becomes exactly that list, and the older X-Frame-Options header goes.
 */
export function allowFraming(reply: FastifyReply, origins: readonly string[]): void {
  const policy = reply.getHeader('content-security-policy');
  reply.removeHeader('x-frame-options');
  if (typeof policy !== 'string' || origins.length === 0) return;
  reply.header(
    'content-security-policy',
    policy.replace("frame-ancestors 'none'", `frame-ancestors ${frameAncestors(origins)}`),
  );
}

/**
 * An error in the words of the person on the page: its plain words when the core gave some
 * (forPeople), else its message without the API's `field 'name': ` prefix. A portal client refused
 * by a plan limit is told to ask its agency.
 */
export function peopleWords(request: FastifyRequest, error: DomainError): string {
  const field = /^field '[^']+': (.*)$/s.exec(error.message)?.[1];
  const sentence = error.plain ?? (field ? field.charAt(0).toUpperCase() + field.slice(1) : error.message);
  const who = request.signedIn;
  const limit = error instanceof NotAllowedError || error instanceof RateLimitedError;
  if (who?.client && !who.org && limit && !sentence.includes(who.client.orgName))
    return `${sentence} Ask ${who.client.orgName} if you need more.`;
  return sentence;
}
