// Email addresses as people type them: trimmed, checked for a plausible shape, kept as written
// (compared case-insensitively elsewhere).
import { invalid } from '../common/errors.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed) || trimmed.length > 254) throw invalid('Enter a valid email address');
  return trimmed;
}
