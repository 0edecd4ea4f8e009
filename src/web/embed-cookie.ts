// The cookie of an embedded builder's frame: set by the frame's exchange (embed/), read by the
// embed pages (ui/). Partitioned (CHIPS), so it works in a third-party iframe where the browser
// blocks third-party cookies, and lives only under the host page's top-level site: the same
// Sitewright opened top-level never sees it. `Secure` always (a partitioned cookie must be;
// browsers accept it from http://localhost and loopback for development). One per host page's
// site: a newer session's exchange replaces it, which is how a refreshed token takes over.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const EMBED_COOKIE = 'sitewright_embed';
/** The embed pages' paths: the cookie is sent to them and nowhere else. */
export const EMBED_PATH = '/embed';

export function setEmbedCookie(reply: FastifyReply, secret: string, expiresAt: string): void {
  const seconds = Math.max(1, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  reply.setCookie(EMBED_COOKIE, secret, {
    path: EMBED_PATH,
    httpOnly: true,
    secure: true,
    sameSite: 'none',
    partitioned: true,
    maxAge: seconds,
  });
}

export function embedCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[EMBED_COOKIE] || undefined;
}

/** The `frame-ancestors` source list of an embed answer: exactly these origins ('none' without any). */
export function frameAncestors(origins: readonly string[]): string {
  return origins.length ? origins.join(' ') : "'none'";
}
