// Accounts and sessions: the first user of a fresh install, sign-up (REGISTRATION=open), sign-in
// with throttling, server-side sessions (only the hash of the id is stored, so any instance can
// check one), password changes and resets by a single-use mailed link.
import type { Database } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Executor } from '../../db/executor.ts';
import { nowIso, toIso } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Throttle } from '../../lib/throttle.ts';
import { addressKey } from '../../lib/client-address.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { invalid, notAllowed, RateLimitedError } from '../common/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { OrgService } from '../orgs/service.ts';
import { checkPasswordRules, hashPassword, passwordMatches } from './passwords.ts';
import * as repo from './repo.ts';
import { SignUps, type PendingSignUp } from './signups.ts';
import { normalizeEmail } from './emails.ts';

export { normalizeEmail } from './emails.ts';
import { isRole, type Role } from './roles.ts';

const RESET_TTL_MS = 60 * 60_000;
/** Attempts before delays begin (failed sign-ins count; a success resets the account). */
const SIGN_IN_FREE_PER_ACCOUNT = 5;
const SIGN_IN_FREE_PER_ADDRESS = 30;
const RESETS_FREE_PER_ADDRESS = 10;
const RESET_MAILS_FREE_PER_EMAIL = 3;

/** A new account's details: the password as typed, or already hashed (a confirmed sign-up). */
type NewUser = { email: string; name: string | null } & ({ password: string } | { passwordHash: string });
/** A portal client in one of these states cannot sign in; its sites stay as they are. */
const CLIENT_LOCKED_OUT = new Set(['suspended', 'churned']);

export interface AccountSettings {
  publicUrl: string;
  registration: 'invite' | 'open';
  sessionTtlMs: number;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
}

/** Who a session belongs to and where they work, resolved on every request. */
export interface SignedIn {
  user: User;
  sessionHash: string;
  /** Organizations the user is a member of, by name. */
  orgs: { id: string; name: string; role: Role }[];
  /** The organization this session works in (null: none, e.g. a portal client or a removed member). */
  org: { id: string; name: string; role: Role } | null;
  /** Set when the user is an agency client's portal account. */
  client: {
    id: string;
    orgId: string;
    orgName: string;
    status: string;
    planId: string | null;
    /** Suspended by billing until it pays: its portal shows the payment page and nothing else. */
    paymentRequired: boolean;
  } | null;
}

/** A client that may not sign in: suspended or churned, unless billing suspended it (it may pay). */
function lockedOut(client: { status: string; payment_hold: unknown }): boolean {
  return CLIENT_LOCKED_OUT.has(client.status) && !paymentRequired(client);
}

function paymentRequired(client: { status: string; payment_hold: unknown }): boolean {
  return client.status === 'suspended' && (client.payment_hold === true || Number(client.payment_hold) === 1);
}

export class AccountsService {
  /** Sign-ups waiting for their email to be confirmed (open ones here, build-link ones too). */
  readonly signups: SignUps;

  constructor(
    private readonly database: Database,
    private readonly orgs: OrgService,
    private readonly mailer: Mailer,
    private readonly throttle: Throttle,
    private readonly settings: AccountSettings,
  ) {
    this.signups = new SignUps({
      database,
      mailer,
      publicUrl: settings.publicUrl,
      slowDown: (keys, what) => this.slowDown(keys, what),
    });
  }

  private get db() {
    return this.database.db;
  }

  /** True until the first user exists: the one-time set-up page is open. */
  async needsSetup(): Promise<boolean> {
    return (await repo.countUsers(this.db)) === 0;
  }

  /**
   * The first user and organization of a fresh install. An organization of that name created
   * earlier with the CLI, and without members, is taken over rather than duplicated.
   */
  async setUp(input: {
    email: string;
    password: string;
    name?: string | null;
    orgName: string;
  }): Promise<{ user: User; orgId: string }> {
    if (!(await this.needsSetup())) throw notAllowed('This installation is already set up: sign in instead');
    return this.createAccountWithOrg({ ...input, name: input.name ?? null });
  }

  /**
   * Open registration: the sign-up is kept and a confirmation link mailed; the account and its
   * organization exist once the link is followed (confirmSignUp).
   */
  async signUp(
    input: { email: string; password: string; name?: string | null; orgName: string },
    address: string,
  ): Promise<{ email: string }> {
    if (this.settings.registration !== 'open')
      throw notAllowed('Sign-up is by invitation only on this installation');
    const orgName = input.orgName.trim();
    if (!orgName) throw invalid('Enter the name of your agency');
    if (orgName.length > 200) throw invalid('The name of your agency must have at most 200 characters');
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orgName))
      throw invalid('Give your agency a name, not an id');
    if (await this.orgs.findOrg(orgName))
      throw invalid('An agency of that name already exists here: choose another name');
    return this.signups.request(
      { kind: 'open', email: input.email, password: input.password, name: input.name ?? null, orgName },
      address,
    );
  }

  /**
   * The password chosen at sign-up, asked again when the mailed link is followed: whoever signed
   * up with someone else's address cannot hand them an account whose password they know (the
   * owner of the address would not know it). Wrong tries slow down.
   */
  async checkSignUpPassword(token: string, pending: PendingSignUp, password: string): Promise<void> {
    await this.slowDown([[`confirm:${hashToken(token)}`, SIGN_IN_FREE_PER_ACCOUNT]], 'wrong passwords');
    if (!(await passwordMatches(pending.passwordHash, password)))
      throw invalid(
        'That is not the password chosen when signing up. Sign up again if you did not choose one.',
      );
  }

  /** Follows an open sign-up's confirmation link: the account and its organization, at once. */
  async confirmSignUp(token: string): Promise<{ user: User; orgId: string }> {
    if (this.settings.registration !== 'open')
      throw notAllowed('Sign-up is by invitation only on this installation');
    const pending = await this.signups.find(token);
    if (!pending || pending.kind !== 'open' || !pending.orgName)
      throw invalid('This confirmation link has expired or was already used. Sign up again.');
    // Always a new organization: an existing one (even without members) is never handed over.
    const org = await this.orgs.createOrg(pending.orgName);
    const user = await this.createUser(
      { email: pending.email, passwordHash: pending.passwordHash, name: pending.name },
      async (trx, userId) => {
        await this.spendSignUp(trx, token);
        await repo.insertMembership(trx, {
          org_id: org.id,
          user_id: userId,
          role: 'owner',
          created_at: nowIso(),
        });
      },
    );
    return { user, orgId: org.id };
  }

  /** Spends a sign-up's link in the account's transaction (a link followed twice makes one account). */
  async spendSignUp(trx: Executor, token: string): Promise<void> {
    if (!(await this.signups.spend(trx, token)))
      throw invalid('This confirmation link was already used. Sign in instead.');
  }

  /** The set-up page's account and organization (one made earlier with the CLI, without members, is taken over). */
  private async createAccountWithOrg(input: NewUser & { orgName: string }) {
    const existing = await this.orgs.findOrg(input.orgName.trim());
    const orgId =
      existing && existing.name === input.orgName.trim() && (await this.orgs.memberCount(existing.id)) === 0
        ? existing.id
        : (await this.orgs.createOrg(input.orgName)).id;
    const user = await this.createUser({ ...input, name: input.name ?? null }, async (trx, userId) => {
      await repo.insertMembership(trx, {
        org_id: orgId,
        user_id: userId,
        role: 'owner',
        created_at: nowIso(),
      });
    });
    return { user, orgId };
  }

  /**
   * Creates an account; `then` runs in the same transaction (a membership, a client's activation).
   * `id`: a reserved id (a client's user_id) instead of a new one. The password comes as typed, or
   * already hashed (a confirmed sign-up). An email with an account is refused before hashing.
   */
  async createUser(
    input: NewUser & { id?: string },
    then?: (trx: Executor, userId: string) => Promise<void>,
  ): Promise<User> {
    const email = normalizeEmail(input.email);
    if ('password' in input) checkPasswordRules(input.password);
    if (await repo.findUserByEmail(this.db, email)) throw accountExists(email);
    const passwordHash = 'password' in input ? await hashPassword(input.password) : input.passwordHash;
    const now = nowIso();
    const user = { id: input.id ?? newId(), email, name: cleanName(input.name) };
    try {
      await this.database.transaction(async (trx) => {
        if (await repo.findUserByEmail(trx, email)) throw accountExists(email);
        await repo.insertUser(trx, {
          ...user,
          email_lower: email.toLowerCase(),
          password_hash: passwordHash,
          created_at: now,
          updated_at: now,
        });
        await then?.(trx, user.id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw accountExists(email);
      throw error;
    }
    return user;
  }

  async findUserByEmail(email: string): Promise<User | undefined> {
    const row = await repo.findUserByEmail(this.db, email.trim());
    return row && { id: row.id, email: row.email, name: row.name };
  }

  /**
   * Checks a password and opens a new session (a new id every time: a session id planted before
   * sign-in is worth nothing after it). Failed attempts slow further ones down, per account and
   * per address (growing delays, never a long lock); a success resets the account's count and
   * does not count for the address.
   */
  async signIn(email: string, password: string, address: string): Promise<{ token: string; user: User }> {
    const key = email.trim().toLowerCase();
    const account = `signin:email:${key}`;
    const from = `signin:ip:${addressKey(address)}`;
    await this.slowDown(
      [
        [account, SIGN_IN_FREE_PER_ACCOUNT],
        [from, SIGN_IN_FREE_PER_ADDRESS],
      ],
      'failed sign-ins',
    );
    const row = await repo.findUserByEmail(this.db, key);
    if (!(await passwordMatches(row?.password_hash, password)) || !row)
      throw invalid('Wrong email or password');
    await Promise.all([this.throttle.reset(account), this.throttle.forgive(from)]);
    const client = await repo.clientOfUser(this.db, row.id);
    const memberships = await repo.membershipsOfUser(this.db, row.id);
    if (memberships.length === 0 && client && lockedOut(client)) {
      throw notAllowed(
        `Your access to ${client.org_name} is ${client.status === 'suspended' ? 'suspended' : 'closed'}. Please contact ${client.org_name}.`,
      );
    }
    const token = await this.openSession(row.id, memberships[0]?.org_id ?? null);
    return { token, user: { id: row.id, email: row.email, name: row.name } };
  }

  /**
   * Counts an attempt under each key (with the attempts each may make at once); throws a
   * RateLimitedError saying how long to wait when any key must wait.
   */
  async slowDown(keys: [string, number][], what: string): Promise<void> {
    const waits = await Promise.all(keys.map(([key, free]) => this.throttle.attempt(key, free)));
    const wait = Math.max(...waits);
    if (wait > 0) throw new RateLimitedError(`Too many ${what}. Try again in ${wait} seconds.`, wait);
  }

  /** A new session for a user who has just proven who they are (sign-in, set-up, an accepted invitation). */
  async openSession(userId: string, orgId: string | null): Promise<string> {
    const token = newToken();
    const now = Date.now();
    await repo.insertSession(this.db, {
      id_hash: hashToken(token),
      user_id: userId,
      org_id: orgId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.settings.sessionTtlMs).toISOString(),
    });
    return token;
  }

  /**
   * The session behind a cookie, checked against the database on every request: a removed member
   * has lost the organization, a reset password has ended the session, a suspended client is out.
   */
  async resolveSession(token: string): Promise<SignedIn | undefined> {
    if (!token || token.length > 100) return undefined;
    const sessionHash = hashToken(token);
    const session = await repo.findSession(this.db, sessionHash);
    if (!session || new Date(toIso(session.expires_at)).getTime() <= Date.now()) return undefined;
    const [memberships, client] = await Promise.all([
      repo.membershipsOfUser(this.db, session.user_id),
      repo.clientOfUser(this.db, session.user_id),
    ]);
    if (memberships.length === 0 && client && lockedOut(client)) return undefined;
    const orgs = memberships
      .filter((m) => isRole(m.role))
      .map((m) => ({ id: m.org_id, name: m.org_name, role: m.role as Role }));
    const org = orgs.find((o) => o.id === session.org_id) ?? orgs[0] ?? null;
    if ((org?.id ?? null) !== session.org_id) await repo.setSessionOrg(this.db, sessionHash, org?.id ?? null);
    return {
      user: { id: session.user_id, email: session.email, name: session.name },
      sessionHash,
      orgs,
      org,
      client: client
        ? {
            id: client.id,
            orgId: client.org_id,
            orgName: client.org_name,
            status: client.status,
            planId: client.plan_id,
            paymentRequired: paymentRequired(client),
          }
        : null,
    };
  }

  async switchOrg(who: SignedIn, orgId: string): Promise<void> {
    if (!who.orgs.some((o) => o.id === orgId)) throw invalid('You are not a member of that organization');
    await repo.setSessionOrg(this.db, who.sessionHash, orgId);
  }

  async signOut(sessionHash: string): Promise<void> {
    await repo.deleteSession(this.db, sessionHash);
  }

  /** Ends every session of the user and disconnects every application acting for them (OAuth grants). */
  async signOutEverywhere(userId: string): Promise<void> {
    await this.database.transaction(async (trx) => {
      await repo.deleteSessionsOfUser(trx, userId);
      await repo.revokeGrantsOfUser(trx, userId, nowIso());
    });
  }

  /**
   * Changes the password and ends every session; the caller opens a fresh one for this browser.
   * Wrong current passwords slow further tries down, as failed sign-ins do.
   */
  async changePassword(userId: string, current: string, next: string): Promise<void> {
    const key = `password:user:${userId}`;
    await this.slowDown([[key, SIGN_IN_FREE_PER_ACCOUNT]], 'wrong passwords');
    const row = await repo.findUserById(this.db, userId);
    if (!row || !(await passwordMatches(row.password_hash, current)))
      throw invalid('The current password is wrong');
    await this.throttle.reset(key);
    await this.setPassword(userId, next);
  }

  /**
   * Sets a password (a change, a reset link, the CLI) and ends every session and OAuth grant of
   * the user: whoever knew the old password may have connected an application with it. Reset
   * links still unused stop working too.
   */
  async setPassword(userId: string, password: string): Promise<void> {
    checkPasswordRules(password);
    const passwordHash = await hashPassword(password);
    const now = nowIso();
    await this.database.transaction(async (trx) => {
      await repo.setPassword(trx, userId, passwordHash, now);
      await repo.deleteSessionsOfUser(trx, userId);
      await repo.revokeGrantsOfUser(trx, userId, now);
      await repo.usePasswordResetsOfUser(trx, userId, now);
    });
  }

  /**
   * Mails a single-use reset link when the account exists; says nothing either way. Requests
   * slow down per address (a 429 page); past a few mails an hour to one email, more are quietly
   * not sent (saying so would tell whether the account exists).
   */
  async requestPasswordReset(email: string, address: string): Promise<void> {
    await this.slowDown(
      [[`reset:ip:${addressKey(address)}`, RESETS_FREE_PER_ADDRESS]],
      'password reset requests',
    );
    const row = await repo.findUserByEmail(this.db, email.trim());
    if (!row) return;
    const mails = await this.throttle.attempt(`reset:email:${row.email_lower}`, RESET_MAILS_FREE_PER_EMAIL);
    if (mails > 0) return;
    const token = newToken();
    const now = Date.now();
    await repo.insertPasswordReset(this.db, {
      token_hash: hashToken(token),
      user_id: row.id,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + RESET_TTL_MS).toISOString(),
    });
    await this.mailer.send({
      to: row.email,
      subject: 'Reset your password',
      text: `Someone asked to reset the password of ${row.email}.\n\nSet a new password here (the link works once, for one hour):\n${this.settings.publicUrl}/reset-password/${token}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
    });
  }

  /** Uses a reset link: sets the password and ends every session. Works once, before it expires. */
  async resetPassword(token: string, password: string): Promise<User> {
    checkPasswordRules(password);
    const userId = await repo.usePasswordReset(this.db, hashToken(token), nowIso());
    if (!userId) throw invalid('This reset link has expired or was already used. Ask for a new one.');
    await this.setPassword(userId, password);
    const row = await repo.findUserById(this.db, userId);
    return { id: userId, email: row?.email ?? '', name: row?.name ?? null };
  }

  /** Whether a reset link can still be used (for the page that asks for the new password). */
  async resetLinkUsable(token: string): Promise<boolean> {
    const row = await repo.findPasswordReset(this.db, hashToken(token));
    return Boolean(row && row.used_at === null && new Date(toIso(row.expires_at)).getTime() > Date.now());
  }

  /** For `sitewright user create`: an account that is a member of `orgId` with `role`. */
  async createMember(input: {
    email: string;
    password: string;
    name: string | null;
    orgId: string;
    role: Role;
  }): Promise<User> {
    const existing = await this.findUserByEmail(input.email);
    if (existing) {
      try {
        await repo.insertMembership(this.db, {
          org_id: input.orgId,
          user_id: existing.id,
          role: input.role,
          created_at: nowIso(),
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw invalid(`${existing.email} is already a member of that organization`);
        throw error;
      }
      return existing;
    }
    return this.createUser(input, (trx, userId) =>
      repo.insertMembership(trx, {
        org_id: input.orgId,
        user_id: userId,
        role: input.role,
        created_at: nowIso(),
      }),
    );
  }
}

function cleanName(name: string | null): string | null {
  const trimmed = name?.trim() ?? '';
  if (trimmed.length > 200) throw invalid('The name must have at most 200 characters');
  return trimmed || null;
}

function accountExists(email: string) {
  return invalid(`An account with email ${email} already exists: sign in instead`);
}
