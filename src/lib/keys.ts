// API keys: "wk_" + 32 random bytes in base62 + a 6-character base62 CRC32 checksum. The checksum
// lets secret scanners (and our own auth) tell a real key from noise without a database look-up.
// Only the SHA-256 of a key is stored. Embed session tokens ("embt_") take the same format.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = 'wk_';
export const EMBED_TOKEN_PREFIX = 'embt_';
const BODY_LENGTH = 43; // 32 bytes = 256 bits; 62^43 > 2^256
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32

function toBase62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

/** Base62 of the CRC32, in plain number arithmetic: it runs on every authenticated request. */
function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateApiKey(prefix = PREFIX): string {
  const body = toBase62(BigInt('0x' + randomBytes(32).toString('hex')), BODY_LENGTH);
  return prefix + body + checksum(body);
}

/** True when the text has the shape and checksum of a key (or, with its prefix, a token) we issued. */
export function isWellFormedApiKey(key: string, prefix = PREFIX): boolean {
  if (!key.startsWith(prefix) || key.length !== prefix.length + BODY_LENGTH + CHECKSUM_LENGTH) return false;
  const body = key.slice(prefix.length, prefix.length + BODY_LENGTH);
  if (!/^[0-9A-Za-z]+$/.test(body)) return false;
  return key.slice(prefix.length + BODY_LENGTH) === checksum(body);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What lists show in place of the key: enough to recognise it, useless to an attacker. */
export function displayPrefix(key: string): string {
  return key.slice(0, PREFIX.length + 8);
}
