// Who may read /metrics (METRICS=on): a caller presenting METRICS_TOKEN as a bearer, or one whose
// own address (the socket's) is in METRICS_ALLOW (loopback by default) and that came through no
// proxy. A front proxy on the same machine connects from loopback for every visitor on the
// internet; its forwarding headers are what tell such a request apart, so a forwarded request
// needs the token.
import { timingSafeEqual, createHash } from 'node:crypto';
import { addressInList, type CidrList } from './cidr.ts';

export interface MetricsAccess {
  token: string | undefined;
  allow: CidrList;
}

export interface MetricsCaller {
  authorization: string | undefined;
  remoteAddress: string | undefined;
  /** Whether the request carries X-Forwarded-For, Forwarded or X-Real-IP. */
  forwarded: boolean;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export function metricsAllowed(caller: MetricsCaller, access: MetricsAccess): boolean {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(caller.authorization ?? '')?.[1];
  if (access.token && bearer) return timingSafeEqual(digest(bearer), digest(access.token));
  return !caller.forwarded && addressInList(caller.remoteAddress, access.allow);
}
