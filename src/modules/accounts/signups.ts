// Sign-ups wait for their email to be confirmed. An open sign-up (REGISTRATION=open) or a
// build-link sign-up is kept, with its password already hashed, until the person follows the link
// mailed to the address and gives that password again; only then does it become an account. So
// nobody can sign up with another person's email (which would block that person's invitation to an
// agency's portal), and what an anonymous visitor can make the server keep or send is bounded:
// sign-ups per address slow down (growing delays), mails per email too, sign-ups of one email wait
// side by side (each confirmed with its own password), an organization holds at most
// MAX_PENDING_PER_ORG build-link sign-ups at once, and each expires after a day.
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { addressKey } from '../../lib/client-address.ts';
import { toIso } from '../../lib/clock.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { invalid, RateLimitedError } from '../common/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { checkPasswordRules, hashPassword } from './passwords.ts';
import * as repo from './repo.ts';
import * as signUpsRepo from './signups-repo.ts';
import { normalizeEmail } from './emails.ts';

const SIGNUP_TTL_MS = 24 * 3_600_000;
/** Build-link sign-ups an organization may have waiting at once. */
export const MAX_PENDING_PER_ORG = 200;
/** Sign-ups per address and confirmation mails per email before delays begin (per hour). */
const FREE_PER_ADDRESS = 5;
const FREE_PER_EMAIL = 3;

/** What the person asked for, kept until the email is confirmed. */
export type SignUpRequest =
  | { kind: 'open'; email: string; password: string; name: string | null; orgName: string }
  | {
      kind: 'build';
      email: string;
      password: string;
      name: string | null;
      orgId: string;
      orgName: string;
      prompt: string;
      model: string | null;
      templateId: string | null;
    };

/** A sign-up waiting for its confirmation, as the confirmation page shows it. */
export interface PendingSignUp {
  kind: 'open' | 'build';
  email: string;
  passwordHash: string;
  name: string | null;
  orgName: string | null;
  orgId: string | null;
  prompt: string | null;
  model: string | null;
  templateId: string | null;
}

export interface SignUpDeps {
  database: Database;
  mailer: Mailer;
  publicUrl: string;
  /** Counts an attempt under each key; throws RateLimitedError when one must wait. */
  slowDown: (keys: [string, number][], what: string) => Promise<void>;
}

export class SignUps {
  constructor(private readonly deps: SignUpDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /**
   * Keeps a sign-up and mails its confirmation link. The cheap checks (rules, an existing
   * account, the limits) come before the password is hashed.
   */
  async request(input: SignUpRequest, address: string): Promise<{ email: string }> {
    const email = normalizeEmail(input.email);
    checkPasswordRules(input.password);
    await this.deps.slowDown(
      [[`signup:ip:${addressKey(address)}`, FREE_PER_ADDRESS]],
      'sign-ups from your network',
    );
    if (await repo.findUserByEmail(this.db, email))
      throw invalid(`An account with email ${email} already exists: sign in instead`);
    const now = Date.now();
    await signUpsRepo.deleteExpiredSignUps(this.db, new Date(now).toISOString());
    if (input.kind === 'build') {
      if ((await signUpsRepo.countSignUpsOfOrg(this.db, input.orgId)) >= MAX_PENDING_PER_ORG) {
        throw new RateLimitedError(
          `${input.orgName} has many sign-ups waiting for their confirmation right now. Please try again in an hour.`,
          3_600,
        );
      }
    }
    await this.deps.slowDown(
      [[`signup:email:${email.toLowerCase()}`, FREE_PER_EMAIL]],
      'confirmation mails to this address',
    );
    const passwordHash = await hashPassword(input.password);
    const token = newToken();
    // Several sign-ups of one email may wait (each confirmed with its own password): deleting the
    // older would let anyone cancel the owner's own sign-up. Mails per email are limited above.
    await signUpsRepo.insertSignUp(this.db, {
      token_hash: hashToken(token),
      kind: input.kind,
      email,
      email_lower: email.toLowerCase(),
      password_hash: passwordHash,
      name: input.name?.trim() || null,
      org_name: input.orgName,
      org_id: input.kind === 'build' ? input.orgId : null,
      prompt: input.kind === 'build' ? input.prompt : null,
      model: input.kind === 'build' ? input.model : null,
      template_id: input.kind === 'build' ? input.templateId : null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + SIGNUP_TTL_MS).toISOString(),
    });
    const link = `${this.deps.publicUrl}/sign-up/confirm/${token}`;
    // The agency's name is the organization's own; a visitor's typed agency name stays out of the mail.
    const what =
      input.kind === 'build' ? `your account with ${input.orgName} and build your website` : 'your account';
    await this.deps.mailer.send({
      to: email,
      subject: 'Confirm your email address',
      text: `Confirm your email address to create ${what}:\n${link}\n\nThe link works once, for 24 hours. If you did not sign up, ignore this message: nothing is created.\n`,
    });
    return { email };
  }

  /** The sign-up behind a link, while it can be confirmed. */
  async find(token: string): Promise<PendingSignUp | undefined> {
    if (!/^[A-Za-z0-9_-]{16,100}$/.test(token)) return undefined;
    const row = await signUpsRepo.findSignUp(this.db, hashToken(token));
    if (!row || new Date(toIso(row.expires_at)).getTime() <= Date.now()) return undefined;
    return {
      kind: row.kind,
      email: row.email,
      passwordHash: row.password_hash,
      name: row.name,
      orgName: row.org_name,
      orgId: row.org_id,
      prompt: row.prompt,
      model: row.model,
      templateId: row.template_id,
    };
  }

  /** Spends a confirmation link inside the transaction that creates the account; false if it was already spent. */
  spend(trx: Executor, token: string): Promise<boolean> {
    return signUpsRepo.deleteSignUp(trx, hashToken(token));
  }
}
