// Content types and encodings of site files. Text travels through the API as UTF-8 strings,
// everything else as base64.
import { createHash } from 'node:crypto';
import mime from 'mime-types';

const TEXT_TYPES = new Set([
  'application/json',
  'application/javascript',
  'text/javascript',
  'application/xml',
  'image/svg+xml',
  'application/manifest+json',
  'application/ld+json',
]);

/** The Content-Type a file is served with, from its extension; text types carry a charset. */
export function contentTypeFor(path: string): string {
  const type = mime.lookup(path) || 'application/octet-stream';
  return isTextType(type) ? `${type}; charset=utf-8` : type;
}

export function isTextType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type.startsWith('text/') || TEXT_TYPES.has(type);
}

/** `utf8` when the file is of a text type and its bytes are valid UTF-8; else `base64`. */
export function encodingFor(contentType: string, content: Buffer): 'utf8' | 'base64' {
  if (!isTextType(contentType)) return 'base64';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return 'utf8';
  } catch {
    return 'base64';
  }
}

// One character class and a fixed tail: linear on any length (a repeated group, as before,
// overflowed the regular expression engine's stack on content of a few MiB).
const BASE64_CHARS = /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]==|[A-Za-z0-9+/]{2}=)?$/;

/** The bytes of an API `content` field; undefined when base64 is malformed. */
export function decodeContent(content: string, encoding: 'utf8' | 'base64'): Buffer | undefined {
  if (encoding === 'utf8') return Buffer.from(content, 'utf8');
  const compact = content.replace(/\s+/g, '');
  return compact.length % 4 === 0 && BASE64_CHARS.test(compact) ? Buffer.from(compact, 'base64') : undefined;
}

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
