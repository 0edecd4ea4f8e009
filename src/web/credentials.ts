// How every HTTP way in reads a credential and counts a request against the rate limit.

/** The token of `Authorization: Bearer <token>` (the scheme in any case); undefined otherwise. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

/**
 * The rate-limit key of a request: its credential's (an API key's id, or `user:<id>` for an OAuth
 * grant's person, the same key whichever way in it comes through), else its client address.
 */
export function limitKey(credential: string | undefined, ip: string): string {
  return credential === undefined ? `ip:${ip}` : `key:${credential}`;
}
