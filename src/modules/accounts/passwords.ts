// Passwords: argon2id through @node-rs/argon2 with its defaults (OWASP's minimum: 19 MiB, t=2).
import { hash, verify } from '@node-rs/argon2';
import { invalid } from '../common/errors.ts';

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 256;

/** A PHC string of a hash of nothing anyone knows: verifying against it costs what a real check costs. */
let decoy: Promise<string> | undefined;

export function checkPasswordRules(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw invalid(`The password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw invalid(`The password must have at most ${MAX_PASSWORD_LENGTH} characters`);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** Constant-ish time whether or not the account exists: an unknown email still runs one verify. */
export async function passwordMatches(phc: string | undefined, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (!phc) {
    decoy ??= hash('decoy password that no account has');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(phc, password).catch(() => false);
}
