// The session cookie: HttpOnly, SameSite=Lax, host-only (no Domain attribute, so it is never sent
// to the sites domain), Secure and `__Host-` prefixed when PUBLIC_URL is https. It holds a random
// id; the database holds its hash (modules/accounts).
import { memberPrincipal, type Principal } from '../modules/access/principal.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignedIn } from '../modules/accounts/service.ts';
import type { Role } from '../modules/accounts/roles.ts';
import { canManage } from '../modules/accounts/roles.ts';

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-sitewright_session' : 'sitewright_session';
}

export interface CookieSettings {
  secure: boolean;
  ttlMs: number;
}

export function setSessionCookie(reply: FastifyReply, token: string, settings: CookieSettings): void {
  reply.setCookie(sessionCookieName(settings.secure), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    maxAge: Math.floor(settings.ttlMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(sessionCookieName(settings.secure), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
  });
}

/** Thrown by the guards below; the pages' error handler turns it into a redirect to sign-in. */
export class SignInRequired extends Error {}

/** The agency member's organization and role, for pages of the dashboard. */
export interface SignedInMember {
  who: SignedIn;
  orgId: string;
  orgName: string;
  role: Role;
}

/** The member as the core's principal (modules/access): every record of the organization. */
export function seatPrincipal(seat: SignedInMember): Principal {
  // A seat exists only for a session that works in an organization.
  return memberPrincipal(seat.who)!;
}

export function requireSignedIn(request: FastifyRequest): SignedIn {
  if (!request.signedIn) throw new SignInRequired();
  return request.signedIn;
}

/** A member of an organization (any role); `manage`: owners and admins only (else a 403 page). */
export function requireSeat(request: FastifyRequest, opts: { manage?: boolean } = {}): SignedInMember {
  const who = requireSignedIn(request);
  if (!who.org) throw new NoOrganization();
  if (opts.manage && !canManage(who.org.role)) throw new ManagersOnly();
  return { who, orgId: who.org.id, orgName: who.org.name, role: who.org.role };
}

/** Signed in, but member of no organization (a removed member, or a portal client on a dashboard page). */
export class NoOrganization extends Error {}
export class ManagersOnly extends Error {}

declare module 'fastify' {
  interface FastifyRequest {
    signedIn: SignedIn | null;
    /** An embed frame's form token (its cookie's), null elsewhere: ui/plugin.ts checks it. */
    embedForms: string | null;
  }
}
