// A project's subdomain: a DNS label derived from its name, unique across the whole service
// (published sites of every organization share one parent domain).
import { randomInt } from 'node:crypto';

export const MAX_SUBDOMAIN_LENGTH = 40;
const SUFFIX_LENGTH = 6;
const FALLBACK = 'site';
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Labels the service itself may serve (or that would mislead visitors), never given to a site. */
const RESERVED = new Set([
  'www',
  'api',
  'app',
  'admin',
  'dashboard',
  'auth',
  'login',
  'oauth',
  'mcp',
  'build',
  'embed',
  'docs',
  'status',
  'preview',
  'help',
  'support',
  'mail',
  'smtp',
  'ftp',
  'cdn',
  'static',
  'assets',
  'blog',
  'billing',
]);

function cut(slug: string, max: number): string {
  return slug.slice(0, max).replace(/-+$/, '') || FALLBACK;
}

/** Lower-case ASCII letters, digits and single hyphens; accents dropped, at most 40 characters. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cut(slug, MAX_SUBDOMAIN_LENGTH);
}

export function isReserved(slug: string): boolean {
  return RESERVED.has(slug);
}

/** The slug with a random suffix, still within the length limit: "acme-k3x9q2". */
export function withSuffix(slug: string): string {
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `${cut(slug, MAX_SUBDOMAIN_LENGTH - SUFFIX_LENGTH - 1)}-${suffix}`;
}
