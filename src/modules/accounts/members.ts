// An organization's members and invitations: invite by email (a link that creates the account
// or adds an existing one), change a role, remove. An organization always keeps an owner.
import type { Database } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { nowIso, toIso } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { invalid, notAllowed, notFound } from '../common/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AccountsService, User } from './service.ts';
import { normalizeEmail } from './service.ts';
import type { Executor } from '../../db/executor.ts';
import * as orgRepo from '../orgs/repo.ts';
import * as repo from './repo.ts';
import { isRole, type Role } from './roles.ts';
import { agencyOrg, managerOrg, roleOf } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export interface Member {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  created_at: string;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  expires_at: string;
}

/** What an invitation link offers, for the page that accepts it. */
export interface InvitationView {
  kind: 'member' | 'client';
  orgId: string;
  orgName: string;
  email: string;
  role: Role | null;
  clientId: string | null;
  /** An account with the invited email exists: accepting needs signing in to it. */
  accountExists: boolean;
  usable: boolean;
}

export class MembersService {
  constructor(
    private readonly database: Database,
    private readonly accounts: AccountsService,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** The members and pending invitations: any member sees them; changing them is for managers. */
  async list(principal: Principal): Promise<{ members: Member[]; invitations: PendingInvitation[] }> {
    const orgId = agencyOrg(principal, 'read', "The organization's members are its own");
    const [members, invitations] = await Promise.all([
      repo.listMembers(this.db, orgId),
      repo.pendingMemberInvitations(this.db, orgId, nowIso()),
    ]);
    return {
      members: members.map((m) => ({
        id: m.id,
        email: m.email,
        name: m.name,
        role: m.role as Role,
        created_at: toIso(m.created_at),
      })),
      invitations: invitations.map((i) => ({
        id: i.id,
        email: i.email,
        role: (i.role ?? 'member') as Role,
        created_at: toIso(i.created_at),
        expires_at: toIso(i.expires_at),
      })),
    };
  }

  /** Mails `emailInput` an invitation to join as `role`, in the name of `inviter` (the principal's person). */
  async invite(
    principal: Principal,
    orgName: string,
    inviter: User,
    emailInput: string,
    role: Role,
  ): Promise<PendingInvitation> {
    const orgId = managerOrg(principal);
    const actor = { user: inviter, role: roleOf(principal)! };
    const email = normalizeEmail(emailInput);
    if (!isRole(role)) throw invalid('Choose a role: owner, admin or member');
    if (role === 'owner' && actor.role !== 'owner')
      throw notAllowed('Only an owner can invite another owner');
    const existing = await repo.findUserByEmail(this.db, email);
    if (existing && (await repo.findMembership(this.db, orgId, existing.id)))
      throw invalid(`${email} is already a member`);
    const token = newToken();
    const now = Date.now();
    const row = {
      id: newId(),
      org_id: orgId,
      kind: 'member',
      email,
      role,
      client_id: null,
      token_hash: hashToken(token),
      invited_by: actor.user.id,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + INVITATION_TTL_MS).toISOString(),
      accepted_at: null,
    };
    await repo.insertInvitation(this.db, row);
    const from = actor.user.name ? `${actor.user.name} (${actor.user.email})` : actor.user.email;
    await this.mailer.send({
      to: email,
      subject: `Join ${orgName}`,
      text: `${from} invited you to join ${orgName} as ${role === 'admin' ? 'an admin' : `a ${role}`}.\n\nAccept the invitation here (the link works for 7 days):\n${this.publicUrl}/invitations/${token}\n`,
    });
    return { id: row.id, email, role, created_at: row.created_at, expires_at: row.expires_at };
  }

  /** Sends a pending invitation again: a new link for 7 days; the earlier one stops working. */
  async resendInvitation(
    principal: Principal,
    orgName: string,
    inviter: User,
    invitationId: string,
  ): Promise<PendingInvitation> {
    const orgId = managerOrg(principal);
    const actor = { user: inviter, role: roleOf(principal)! };
    const row = await repo.findUnacceptedMemberInvitation(this.db, orgId, invitationId);
    if (!row) throw notFound('Invitation');
    const role = (row.role ?? 'member') as Role;
    if (role === 'owner' && actor.role !== 'owner')
      throw notAllowed('Only an owner can invite another owner');
    // The new one first: if it cannot be made (the person joined meanwhile), the old one stays.
    const sent = await this.invite(principal, orgName, inviter, row.email, role);
    await repo.deleteInvitation(this.db, orgId, invitationId);
    return sent;
  }

  async cancelInvitation(principal: Principal, invitationId: string): Promise<void> {
    const orgId = managerOrg(principal);
    if (!(await repo.deleteInvitation(this.db, orgId, invitationId))) throw notFound('Invitation');
  }

  async describeInvitation(token: string): Promise<InvitationView | undefined> {
    const row = await repo.findInvitation(this.db, hashToken(token));
    if (!row) return undefined;
    const orgName = await orgRepo.findOrgName(this.db, row.org_id);
    const account = await repo.findUserByEmail(this.db, row.email);
    return {
      kind: row.kind as 'member' | 'client',
      orgId: row.org_id,
      orgName: orgName ?? '',
      email: row.email,
      role: row.role && isRole(row.role) ? row.role : null,
      clientId: row.client_id,
      accountExists: Boolean(account),
      usable: row.accepted_at === null && new Date(toIso(row.expires_at)).getTime() > Date.now(),
    };
  }

  /**
   * Accepts a member invitation: `signedIn` (the account of the invited email, already proven) joins
   * the organization; without one, a new account is created with `password`. Works once.
   */
  async acceptInvitation(
    token: string,
    who: { signedIn?: User; password?: string; name?: string | null },
  ): Promise<User> {
    const row = await repo.findInvitation(this.db, hashToken(token));
    if (
      !row ||
      row.kind !== 'member' ||
      row.accepted_at !== null ||
      new Date(toIso(row.expires_at)).getTime() <= Date.now()
    ) {
      throw invalid('This invitation has expired or was already used. Ask for a new one.');
    }
    const role = row.role && isRole(row.role) ? row.role : 'member';
    const join = async (trx: Parameters<typeof repo.insertMembership>[0], userId: string) => {
      if (!(await repo.markInvitationAccepted(trx, row.id, nowIso())))
        throw invalid('This invitation was already used');
      try {
        await repo.insertMembership(trx, { org_id: row.org_id, user_id: userId, role, created_at: nowIso() });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Already a member: the invitation is simply used up.
      }
    };
    if (who.signedIn) {
      if (who.signedIn.email.toLowerCase() !== row.email.toLowerCase()) {
        throw notAllowed(`This invitation is for ${row.email}; you are signed in as ${who.signedIn.email}`);
      }
      const user = who.signedIn;
      await this.database.transaction((trx) => join(trx, user.id));
      return user;
    }
    if (await repo.findUserByEmail(this.db, row.email))
      throw invalid(`An account with email ${row.email} exists: sign in to accept`);
    return this.accounts.createUser(
      { email: row.email, password: who.password ?? '', name: who.name ?? null },
      join,
    );
  }

  async changeRole(principal: Principal, userId: string, role: Role): Promise<void> {
    const orgId = managerOrg(principal);
    const actorRole = roleOf(principal)!;
    if (!isRole(role)) throw invalid('Choose a role: owner, admin or member');
    await this.database.transaction(async (trx) => {
      const target = await repo.findMembership(trx, orgId, userId);
      if (!target) throw notFound('Member');
      if ((target.role === 'owner' || role === 'owner') && actorRole !== 'owner')
        throw notAllowed('Only an owner can make or change an owner');
      if (target.role === 'owner' && role !== 'owner') await keepAnOwner(trx, orgId, userId);
      await repo.setRole(trx, orgId, userId, role);
    });
  }

  /** Removes a member: their sessions lose the organization on their next request. */
  async remove(principal: Principal, userId: string): Promise<void> {
    const orgId = managerOrg(principal);
    const actorRole = roleOf(principal)!;
    await this.database.transaction(async (trx) => {
      const target = await repo.findMembership(trx, orgId, userId);
      if (!target) throw notFound('Member');
      if (target.role === 'owner' && actorRole !== 'owner')
        throw notAllowed('Only an owner can remove an owner');
      if (target.role === 'owner') await keepAnOwner(trx, orgId, userId);
      await repo.deleteMembership(trx, orgId, userId);
    });
  }
}

async function keepAnOwner(trx: Executor, orgId: string, leaving: string): Promise<void> {
  const owners = await repo.lockOwners(trx, orgId);
  if (!owners.some((o) => o.user_id !== leaving))
    throw invalid('An organization must keep at least one owner');
}
