// The one place that decides what a principal may do on which record. Every way in (the REST API,
// the pages, the builder, MCP, and next embed sessions) asks here instead of deciding again:
// - a principal limited to one client sees that client's projects only; another client's project
//   is "not found", exactly as another organization's is;
// - such a principal cannot use what acts on the agency's other clients (listing clients,
//   creating projects or build links).
import { NotAllowedError, notFound } from '../common/errors.ts';
import type { EmbedAbility, Principal } from './principal.ts';
import type { Permission } from '../orgs/service.ts';
import { canManage, type Role } from '../accounts/roles.ts';

/** Refuses a principal limited to one client what acts on the agency's other clients, saying `refusal`. */
export function requireAgency(principal: Principal, refusal: string): void {
  if (principal.clientId !== undefined) throw new NotAllowedError(refusal);
}

/** Not found unless the principal may see this project of its organization. */
export function requireVisibleProject(
  principal: Principal,
  project: { id: string; org_client_id: string | null },
): void {
  if (principal.clientId !== undefined && project.org_client_id !== principal.clientId)
    throw notFound('Project');
  if (principal.projectId !== undefined && project.id !== principal.projectId) throw notFound('Project');
}

/**
 * The client filter of a project list the principal asked for: its own client when it is limited
 * to one, whatever it asked otherwise; null when it asked for another client's (nothing to show).
 */
export function projectClientFilter(
  principal: Principal,
  asked: string | undefined,
): string | undefined | null {
  if (principal.clientId === undefined) return asked;
  return asked === undefined || asked === principal.clientId ? principal.clientId : null;
}

const ABILITY_WORDS: Record<EmbedAbility, string> = {
  generate: 'ask the AI to build or change the site',
  edit: 'change the site',
  publish: 'publish the site',
  domains: 'manage custom domains',
};

/** Refuses an embed session an ability its host did not give it (anyone else passes). */
export function requireAbility(principal: Principal, ability: EmbedAbility): void {
  if (principal.abilities && !principal.abilities.includes(ability))
    throw new NotAllowedError(
      `This embed session may not ${ABILITY_WORDS[ability]} (permission '${ability}')`,
    );
}

/** Refuses an embed session what no ability gives it (deleting a project, say). */
export function refuseEmbed(principal: Principal, refusal: string): void {
  if (principal.actor.kind === 'embed') throw new NotAllowedError(refusal);
}

/** Refuses a principal without `permission` (a read-only key asked to write). */
export function requirePermission(principal: Principal, permission: Permission): void {
  if (!principal.permissions.includes(permission))
    throw new NotAllowedError(`This caller lacks the '${permission}' permission`);
}

/**
 * What is the agency's own (its clients, plans, templates, webhooks, build links): the
 * organization's id, once the principal may `permission` it and is not limited to one client.
 * `managers`: a member must also be an owner or an admin (an API key and the operator may).
 */
export function agencyOrg(
  principal: Principal,
  permission: Permission,
  refusal: string,
  managers = false,
): string {
  requirePermission(principal, permission);
  requireAgency(principal, refusal);
  const { actor } = principal;
  if (managers && actor.kind === 'member' && !canManage(actor.role ?? 'member'))
    throw new NotAllowedError("Only the organization's owners and admins can do this");
  return principal.orgId;
}

/** The role a principal acts with in its organization: a member's own; the operator acts as an owner. */
export function roleOf(principal: Principal): Role | undefined {
  if (principal.actor.kind === 'system') return 'owner';
  return principal.actor.kind === 'member' ? principal.actor.role : undefined;
}

/**
 * The organization's own administration (its members, its AI model, the build link's sign-ups):
 * the organization's id, for its owners and admins and the operator; anyone else is refused.
 */
export function managerOrg(principal: Principal): string {
  const role = roleOf(principal);
  if (principal.clientId !== undefined || !role || !canManage(role))
    throw new NotAllowedError("Only the organization's owners and admins can do this");
  return principal.orgId;
}

/** What only an owner may do (the organization's money: its payment account): owners and the operator. */
export function ownerOrg(principal: Principal): string {
  if (principal.clientId !== undefined || roleOf(principal) !== 'owner')
    throw new NotAllowedError("Only the organization's owners can do this");
  return principal.orgId;
}
