// What a page view records about its visitor, and nothing more: the device class, the referring
// host, and a hash that is the same for one visitor on one site for one UTC day only. The hash
// is SHA-256 of a random salt of the day + site + IP + User-Agent; salts of past days are
// deleted, so a hash can be neither reversed nor linked across days. No cookies.
import { createHash, randomBytes } from 'node:crypto';
import Bowser from 'bowser';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
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

/** A computed value remembered for hot keys, least recently used out first. */
function memo<V extends object | string>(compute: (key: string) => V, max: number): (key: string) => V {
  const known = new LRUCache<string, V>({ max });
  return (key) => {
    let value = known.get(key);
    if (value === undefined) known.set(key, (value = compute(key)));
    return value;
  };
}

/** Classifications by User-Agent: visitors send few distinct ones, and parsing one costs far more than a look-up. */
export const userAgents = () => memo((ua) => ({ bot: isBot(ua), device: deviceOf(ua) }), 10_000);

/** referrerHost() remembered by site host and Referer: the same few referrers come again and again. */
export class Referrers {
  // '\n' cannot occur in a Host or Referer header, so it separates the two.
  private readonly known = memo((key) => {
    const cut = key.indexOf('\n');
    return { host: referrerHost(key.slice(cut + 1), key.slice(0, cut)) };
  }, 20_000);

  get(referer: string, host: string): string | null {
    return this.known(`${host}\n${referer}`).host;
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
 */
export class VisitorHashes {
  private day = '';
  private readonly known: LRUCache<string, string>;

  constructor(max = 50_000) {
    this.known = new LRUCache({ max });
  }

  hash(day: string, salt: string, projectId: string, ip: string, userAgent: string): string {
    if (day !== this.day) {
      this.known.clear();
      this.day = day;
    }
    const key = `${projectId}\n${ip}\n${userAgent}`;
    let hash = this.known.get(key);
    if (hash === undefined) this.known.set(key, (hash = visitorHash(salt, projectId, ip, userAgent)));
    return hash;
  }
}
