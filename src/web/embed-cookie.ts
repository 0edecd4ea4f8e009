// The cookie of an embedded builder's frame: set by the frame's exchange (embed/), read by the
// embed pages (ui/). Partitioned (CHIPS), so it works in a third-party iframe where the browser
// blocks third-party cookies, and lives only under the host page's top-level site: the same
// Sitewright opened top-level never sees it. `Secure` always (a partitioned cookie must be;
// browsers accept it from http://localhost and loopback for development). One per frame: its path
// is the frame's (/embed/s/{frame}), so two frames, or another organization's frame on the same
// host page, never share or replace it; a refreshed token's exchange replaces the frame's own.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const EMBED_COOKIE = 'sitewright_embed';
/** The embed pages' paths. */
export const EMBED_PATH = '/embed';

/** The pages of frame `frameId`: its cookie is sent to them and nowhere else. */
export function framePath(frameId: string): string {
  return `${EMBED_PATH}/s/${frameId}`;
}

export function setEmbedCookie(
  reply: FastifyReply,
  frameId: string,
  secret: string,
  expiresAt: string,
): void {
  const seconds = Math.max(1, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  reply.setCookie(EMBED_COOKIE, secret, {
    path: framePath(frameId),
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
