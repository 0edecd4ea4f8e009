// Authenticated API keys remembered by this process, so that the hot path of every request skips
// hashing the key and looking it up. On SQLite an entry is trusted only while the database is
// unchanged since the entry was read: `PRAGMA data_version` (about half the cost of the lookup)
// moves whenever any other connection, in this process or another one (the CLI revoking a key),
// commits. A revocation therefore still takes effect on the next request. On PostgreSQL, where
// other instances write and no such counter exists, nothing is cached.
import { changeCounter } from '../../db/change-counter.ts';
import type { Database } from '../../db/index.ts';
import type { Caller } from './service.ts';

/** Bounds memory: the cache starts over when this many keys are remembered. */
const MAX_ENTRIES = 10_000;

interface Entry {
  caller: Caller;
  /** When last_used_at was last written (ms), so the once-a-minute write still happens. */
  lastUsedMs: number;
  version: number;
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly readVersion: (() => number) | undefined;

  constructor(database: Database) {
    this.readVersion = changeCounter(database);
  }

  /** The database's change counter now; read it before the lookup whose result is then stored. */
  version(): number | undefined {
    return this.readVersion?.();
  }

  get(key: string): Entry | undefined {
    if (!this.readVersion) return undefined;
    const entry = this.entries.get(key);
    if (entry && entry.version !== this.readVersion()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: Omit<Entry, 'version'>, version: number | undefined): void {
    if (version === undefined) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { ...entry, version });
  }
}
