// Roles of an organization's members. Owners and admins manage the organization (members, API
// keys, webhooks, plans, settings); members work on clients, projects, templates, submissions
// and analytics. Only an owner makes or unmakes owners.
export type Role = 'owner' | 'admin' | 'member';
export const ROLES: readonly Role[] = ['owner', 'admin', 'member'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function canManage(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}
