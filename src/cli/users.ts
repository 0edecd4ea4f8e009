// `sitewright user create|reset-password`: accounts for an install whose mail is not set up yet, or
// for someone locked out. The password comes from stdin when it is piped (so it never appears in
// the process list or shell history); otherwise one is generated and printed once.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { openMigratedDatabase } from '../container.ts';
import type { Database } from '../db/index.ts';
import { Throttle } from '../lib/throttle.ts';
import { AccountsService, normalizeEmail } from '../modules/accounts/service.ts';
import { isRole, ROLES } from '../modules/accounts/roles.ts';
import { DomainError } from '../modules/common/errors.ts';
import { createMailer } from '../providers/mail.ts';
import { OrgService } from '../modules/orgs/service.ts';
import { CliError, printJson } from './output.ts';

interface UserFlags {
  email?: string | undefined;
  org?: string | undefined;
  role?: string | undefined;
  name?: string | undefined;
  json?: boolean | undefined;
}

const USAGE =
  'usage: sitewright user create --email E --org ORG --role owner|admin|member [--name N] [--json] | sitewright user reset-password --email E [--json]';

export async function userCommand(
  config: Config,
  sub: string | undefined,
  args: string[],
  flags: UserFlags,
): Promise<void> {
  if (sub !== 'create' && sub !== 'reset-password') throw new CliError(USAGE);
  if (args.length > 0) throw new CliError(`user ${sub}: unexpected argument '${args[0]}'`);
  if (!flags.email) throw new CliError(`user ${sub} needs --email EMAIL`);
  const email = flags.email;
  if (sub === 'create') {
    if (!flags.role) throw new CliError('user create needs --role owner, admin or member');
    if (!isRole(flags.role)) throw new CliError(`unknown role '${flags.role}': use ${ROLES.join(', ')}`);
    if (!flags.org) throw new CliError('user create needs --org ORG_ID_OR_NAME');
  }
  const database = await openMigratedDatabase(config);
  try {
    const orgs = new OrgService(database);
    const accounts = accountsFor(database, orgs, config);
    if (sub === 'create')
      return await create(accounts, orgs, { ...flags, email, role: flags.role!, org: flags.org! });
    return await resetPassword(accounts, email, flags.json === true);
  } catch (error) {
    if (error instanceof DomainError) throw new CliError(error.message);
    throw error;
  } finally {
    await database.close();
  }
}

async function create(
  accounts: AccountsService,
  orgs: OrgService,
  flags: { email: string; org: string; role: string; name?: string | undefined; json?: boolean | undefined },
) {
  const email = normalizeEmail(flags.email);
  const org = await orgs.findOrg(flags.org);
  if (!org) throw new CliError(`no organization with id or name '${flags.org}'`);
  const role = flags.role as 'owner' | 'admin' | 'member';
  const existing = await accounts.findUserByEmail(email);
  // An existing account joins the organization; its password stays its own.
  const given = existing ? undefined : await passwordFromStdin();
  const password = existing ? '' : (given ?? generatePassword());
  const user = await accounts.createMember({
    email,
    password,
    name: flags.name?.trim() || null,
    orgId: org.id,
    role,
  });
  const shown = !existing && given === undefined ? password : undefined;
  if (flags.json) {
    printJson({
      id: user.id,
      email: user.email,
      name: user.name,
      org_id: org.id,
      role,
      created: !existing,
      ...(shown ? { password: shown } : {}),
    });
    return;
  }
  process.stdout.write(
    existing
      ? `added existing account ${user.email} to ${org.name} as ${role} (its password is unchanged)\n  id: ${user.id}\n`
      : `created user ${user.email}, ${role} of ${org.name}\n  id: ${user.id}\n`,
  );
  if (shown) printPassword(shown);
}

async function resetPassword(accounts: AccountsService, email: string, json: boolean) {
  const user = await accounts.findUserByEmail(email.trim());
  if (!user) throw new CliError(`no account with email '${email}'`);
  const given = await passwordFromStdin();
  const password = given ?? generatePassword();
  await accounts.setPassword(user.id, password);
  if (json) {
    printJson({ id: user.id, email: user.email, ...(given === undefined ? { password } : {}) });
    return;
  }
  process.stdout.write(`password of ${user.email} set; every session of the account is ended\n`);
  if (given === undefined) printPassword(password);
}

function printPassword(password: string): void {
  process.stdout.write(`\n  password: ${password}\n\nStore it now: it is shown only once.\n`);
}

/** 144 random bits in base64url: 24 characters, well above the 10-character minimum. */
function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * The password piped on stdin, without its final line break; undefined when stdin is a terminal
 * or gives nothing (e.g. /dev/null), in which case a password is generated.
 */
async function passwordFromStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (text === '') return undefined;
  if (/[\r\n]/.test(text)) throw new CliError('the password on stdin must be a single line');
  return text;
}

/** The accounts service with what these commands never use (mail, sign-in throttling) kept local. */
function accountsFor(database: Database, orgs: OrgService, config: Config): AccountsService {
  const mailer = createMailer({ smtpUrl: undefined, from: config.accounts.mailFrom });
  const throttle = new Throttle({ windowSeconds: 3_600, maxDelaySeconds: 900, keyPrefix: 'cli' });
  return new AccountsService(database, orgs, mailer, throttle, {
    publicUrl: config.publicUrl,
    registration: config.accounts.registration,
    sessionTtlMs: config.accounts.sessionTtlMs,
  });
}
