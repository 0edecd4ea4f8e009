// What a page view records about its visitor, and nothing more: the device class, the referring
// host, and a hash that is the same for one visitor on one site for one UTC day only. The hash
// is SHA-256 of a random salt of the day + site + IP + User-Agent; salts of past days are
// deleted, so a hash can be neither reversed nor linked across days. No cookies.
import { createHash, randomBytes } from 'node:crypto';
import Bowser from 'bowser';
import { isbot } from 'isbot';
import type { Database } from '../../db/index.ts';
import { saltOfDay } from './retention-repo.ts';

export type Device = 'desktop' | 'mobile' | 'tablet';

function deviceOf(userAgent: string): Device {
  // Bowser throws on an empty string; such a request is a bot anyway (isBot), never recorded.
  if (!userAgent) return 'desktop';
  const type = Bowser.parse(userAgent).platform.type;
  return type === 'mobile' ? 'mobile' : type === 'tablet' ? 'tablet' : 'desktop';
}

function isBot(userAgent: string | undefined): boolean {
  return !userAgent || isbot(userAgent);
}

/** A bounded cache: forgets everything when full, which is cheap and enough for hot keys. */
export class Remembered<V> {
  private readonly known = new Map<string, V>();

  constructor(
    private readonly compute: (key: string) => V,
    private readonly max = 10_000,
  ) {}

  get(key: string): V {
    let value = this.known.get(key);
    if (value === undefined) {
      value = this.compute(key);
      if (this.known.size >= this.max) this.known.clear();
      this.known.set(key, value);
    }
    return value;
  }
}

/** Classifications by User-Agent: visitors send few distinct ones, and parsing one costs far more than a look-up. */
export const userAgents = () => new Remembered((ua) => ({ bot: isBot(ua), device: deviceOf(ua) }));

/** referrerHost() remembered by site host and Referer: the same few referrers come again and again. */
export class Referrers {
  private readonly byHost = new Map<string, Remembered<string | null>>();

  get(referer: string, host: string): string | null {
    let known = this.byHost.get(host);
    if (!known) {
      if (this.byHost.size >= 10_000) this.byHost.clear();
      this.byHost.set(host, (known = new Remembered((r) => referrerHost(r, host), 1_000)));
    }
    return known.get(referer);
  }
}

/** The referring host, or null for direct traffic (no referrer, an unparsable one, or the site itself). */
function referrerHost(referer: string | undefined, ownHost: string): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host && host !== ownHost.replace(/:\d+$/, '') ? host : null;
  } catch {
    return null;
  }
}

/** The salt of each UTC day, created once (by whichever instance asks first) and read by all. */
export class DailySalts {
  private current: { day: string; salt: Promise<string> } | undefined;

  constructor(private readonly database: Database) {}

  salt(day: string): Promise<string> {
    if (this.current?.day !== day) this.current = { day, salt: this.load(day) };
    return this.current.salt;
  }

  private async load(day: string): Promise<string> {
    // Yesterday's salt is kept for views still being written around midnight; older ones go.
    const yesterday = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    return saltOfDay(this.database.db, day, randomBytes(32).toString('base64'), yesterday);
  }
}

export function visitorHash(salt: string, projectId: string, ip: string, userAgent: string): string {
  return createHash('sha256').update(`${salt}\n${projectId}\n${ip}\n${userAgent}`).digest('hex');
}

/**
 * The hashes of the day's visitors, remembered for the day: a visit is several pages, and a
 * look-up costs a fraction of a hash. Only in memory, and dropped when the day (and salt) changes.
 * Nested maps by site, User-Agent and address, so no key string is built per view.
 */
export class VisitorHashes {
  private day = '';
  private size = 0;
  private known = new Map<string, Map<string, Map<string, string>>>();

  constructor(private readonly max = 50_000) {}

  hash(day: string, salt: string, projectId: string, ip: string, userAgent: string): string {
    if (day !== this.day || this.size >= this.max) {
      this.known = new Map();
      this.size = 0;
      this.day = day;
    }
    let bySite = this.known.get(projectId);
    if (!bySite) this.known.set(projectId, (bySite = new Map()));
    let byAgent = bySite.get(userAgent);
    if (!byAgent) bySite.set(userAgent, (byAgent = new Map()));
    let hash = byAgent.get(ip);
    if (hash === undefined) {
      hash = visitorHash(salt, projectId, ip, userAgent);
      byAgent.set(ip, hash);
      this.size++;
    }
    return hash;
  }
}
