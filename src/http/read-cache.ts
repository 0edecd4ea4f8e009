// Answers of the API's plain record reads (GET of clients, projects, templates, plans, webhooks:
// routes marked `config: { cacheable: true }`), remembered per organization and URL while the
// SQLite database is unchanged; a repeat is answered from here in front of Fastify
// (cached-reads.ts). Such an answer depends only on the database, the organization and
// the URL, so it stays true until something commits; the whole cache is dropped the first time a
// request sees the database's change counter move (`Database.dataVersion`: any commit by this
// process, the CLI, another process or the page-view writer). A repeated list or record read then
// costs no query and no serialization. On PostgreSQL, where other instances write and no such
// counter exists, nothing is cached.
//
// Only 200 answers are kept, only the body (as the bytes to send): the headers that vary per
// request (X-Request-Id, the rate limit) are set anew for every request.

/** Bounds memory: past this many bytes of bodies the cache starts over. */
const MAX_BYTES = 32 * 1024 * 1024;

export class ReadCache {
  private readonly bodies = new Map<string, Buffer>();
  private bytes = 0;
  /** The database's change counter the remembered bodies were read at. */
  private version: number | undefined;

  /** Where the answer of `url` (path and query string, as sent) read by an organization goes. */
  static key(orgId: string, url: string): string {
    return `${orgId} ${url}`;
  }

  /** The body remembered for `key`, if the database is still at `version` (this request's). */
  get(key: string, version: number): Buffer | undefined {
    if (version !== this.version) {
      this.startOver(version);
      return undefined;
    }
    return this.bodies.get(key);
  }

  /** Remembers a body read by a request that found the database at `version`. */
  set(key: string, body: string, version: number): void {
    // Read at an older version than the cache is at now: possibly stale already.
    if (version !== this.version) return;
    const bytes = Buffer.from(body);
    if (this.bytes + bytes.length > MAX_BYTES) this.startOver(version);
    this.bytes += bytes.length - (this.bodies.get(key)?.length ?? 0);
    this.bodies.set(key, bytes);
  }

  private startOver(version: number): void {
    this.bodies.clear();
    this.bytes = 0;
    this.version = version;
  }
}
