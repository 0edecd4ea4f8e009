// The digest of a file set's manifest: two sets with the same paths and contents have the same
// digest, whatever order they were listed in. Versions keep it to tell an unchanged write.
import { createHash } from 'node:crypto';

export function manifestSha256(files: Iterable<{ path: string; sha256: string }>): string {
  const lines = [...files].map((f) => `${f.path}\0${f.sha256}\n`).sort();
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line);
  return hash.digest('hex');
}
