// Who may read /metrics (METRICS=on): a caller presenting METRICS_TOKEN as a bearer, or one whose
// own address (the socket's) is in METRICS_ALLOW (loopback by default) and that came through no
// proxy. A front proxy on the same machine connects from loopback for every visitor on the
// internet; its forwarding headers are what tell such a request apart, so a forwarded request
// needs the token.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { addressInList, type CidrList } from './cidr.ts';
import { isForwarded } from './client-address.ts';

export interface MetricsAccess {
  token: string | undefined;
  allow: CidrList;
}

/** What of a request decides: its headers and its socket (Node's IncomingMessage, Fastify's request). */
export interface MetricsRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string | undefined };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export function metricsAllowed(request: MetricsRequest, access: MetricsAccess): boolean {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (access.token && bearer) return timingSafeEqual(digest(bearer), digest(access.token));
  return !isForwarded(request.headers) && addressInList(request.socket.remoteAddress, access.allow);
}
