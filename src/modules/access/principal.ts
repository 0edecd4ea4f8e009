// Who is asking, as every way in tells the core: the organization, the client the caller is limited
// to (a client's own account), what the caller may do, and who acts. The ways in authenticate
// (a key, a session, an OAuth grant) and build one; access.ts decides what it may do.
import type { Permission } from '../orgs/service.ts';
import type { Role } from '../accounts/roles.ts';
import type { SignedIn } from '../accounts/service.ts';

export type Actor =
  /** A member of the agency, signed in to the dashboard or acting through an OAuth grant. */
  | { kind: 'member'; userId: string; role?: Role }
  /** A client's own account (the portal, or an OAuth grant of that account). */
  | { kind: 'client'; userId: string }
  | { kind: 'api_key'; keyId: string }
  /** A host product's user in the embeddable builder, through session `sessionId` of key `keyId`. */
  | { kind: 'embed'; sessionId: string; keyId: string }
  /** The operator's CLI and the background workers. */
  | { kind: 'system' };

/** What an embed session may do besides reading its client's projects. */
export const EMBED_ABILITIES = ['generate', 'edit', 'publish', 'domains'] as const;
export type EmbedAbility = (typeof EMBED_ABILITIES)[number];

export interface Principal {
  orgId: string;
  /** Set when the caller may only see and change this client's records. */
  clientId?: string;
  permissions: readonly Permission[];
  actor: Actor;
  /** An embed session's abilities (access.ts `requireAbility`); absent: no such limit. */
  abilities?: readonly EmbedAbility[];
  /** Set when the caller may only see and change this one project (an embed session opened for it). */
  projectId?: string;
}

/** The operator acting on an organization (CLI, workers): every permission, no client scope. */
export function systemPrincipal(orgId: string): Principal {
  return { orgId, permissions: ['read', 'write'], actor: { kind: 'system' } };
}

/**
 * A token's caller (an API key, or an OAuth grant acting as its person, limited to its client when
 * the person is a client's own account), as the REST API and MCP authenticate it.
 */
export function tokenPrincipal(token: {
  orgId: string;
  permissions: readonly Permission[];
  clientId?: string | undefined;
  userId?: string | undefined;
  keyId?: string | undefined;
}): Principal {
  const { orgId, permissions, clientId, userId, keyId } = token;
  const actor: Actor =
    userId === undefined
      ? { kind: 'api_key', keyId: keyId ?? '' }
      : clientId === undefined
        ? { kind: 'member', userId }
        : { kind: 'client', userId };
  return { orgId, permissions, ...(clientId === undefined ? {} : { clientId }), actor };
}

/** A signed-in person as a member of the organization the session works in (none: undefined). */
export function memberPrincipal(signedIn: SignedIn): Principal | undefined {
  if (!signedIn.org) return undefined;
  const actor: Actor = { kind: 'member', userId: signedIn.user.id, role: signedIn.org.role };
  return { orgId: signedIn.org.id, permissions: ['read', 'write'], actor };
}

/** A signed-in person as an agency client's own account (none: undefined): its client's records only. */
export function clientPrincipal(signedIn: SignedIn): Principal | undefined {
  // A client suspended by billing reaches its payment page only (ui/routes/portal-billing.ts).
  if (!signedIn.client || signedIn.client.paymentRequired) return undefined;
  return clientAccountPrincipal(signedIn.client.orgId, signedIn.client.id, signedIn.user.id);
}

/** Client `clientId`'s own account, person `userId` (the portal, a build link's visitor). */
export function clientAccountPrincipal(orgId: string, clientId: string, userId: string): Principal {
  return { orgId, clientId, permissions: ['read', 'write'], actor: { kind: 'client', userId } };
}

/** An embed session: its client's projects only, and what its abilities allow. */
export function embedPrincipal(session: {
  id: string;
  orgId: string;
  clientId: string;
  keyId: string;
  abilities: readonly EmbedAbility[];
  projectId: string | null;
}): Principal {
  return {
    orgId: session.orgId,
    clientId: session.clientId,
    permissions: ['read', 'write'],
    actor: { kind: 'embed', sessionId: session.id, keyId: session.keyId },
    abilities: session.abilities,
    ...(session.projectId === null ? {} : { projectId: session.projectId }),
  };
}

/** Who a change is recorded as (a version's author): the person, or the API key; nobody for the system. */
export function authorOf(principal: Principal): { userId?: string; keyId?: string } {
  const { actor } = principal;
  if (actor.kind === 'member' || actor.kind === 'client') return { userId: actor.userId };
  return actor.kind === 'api_key' || actor.kind === 'embed' ? { keyId: actor.keyId } : {};
}
