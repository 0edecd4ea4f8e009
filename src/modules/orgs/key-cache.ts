// Authenticated API keys remembered by this process, so that the hot path of every request skips
// hashing the key and looking it up. On SQLite an entry is trusted only while the database is
// unchanged since the entry was read (`Database.dataVersion`, which moves whenever any other
// connection, in this process or another one such as the CLI revoking a key, commits). A
// revocation therefore still takes effect on the next request. On PostgreSQL, where other
// instances write and no such counter exists, nothing is cached.
import type { Caller } from './service.ts';

/** Bounds memory: the cache starts over when this many keys are remembered. */
const MAX_ENTRIES = 10_000;

export interface KeyEntry {
  caller: Caller;
  /** When last_used_at was last written (ms), so the once-a-minute write still happens. */
  lastUsedMs: number;
}

export class KeyCache {
  private readonly entries = new Map<string, KeyEntry & { version: number }>();

  /** The entry for a key, if it was read while the database was at `version` (this request's). */
  get(key: string, version: number | undefined): KeyEntry | undefined {
    if (version === undefined) return undefined;
    const entry = this.entries.get(key);
    if (entry && entry.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Remembers a lookup made after the database's counter read `version`. */
  set(key: string, entry: KeyEntry, version: number | undefined): void {
    if (version === undefined) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { ...entry, version });
  }
}
