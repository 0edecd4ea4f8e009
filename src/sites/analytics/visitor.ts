// What a page view records about its visitor, and nothing more: the device class, the referring
// host, and a hash that is the same for one visitor on one site for one UTC day only. The hash
// is SHA-256 of a random salt of the day + site + IP + User-Agent; salts of past days are
// deleted, so a hash can be neither reversed nor linked across days. No cookies.
import { createHash, randomBytes } from 'node:crypto';
import Bowser from 'bowser';
import { isbot } from 'isbot';
import type { Database } from '../../db/index.ts';

export type Device = 'desktop' | 'mobile' | 'tablet';

export function deviceOf(userAgent: string): Device {
  const type = Bowser.parse(userAgent).platform.type;
  return type === 'mobile' ? 'mobile' : type === 'tablet' ? 'tablet' : 'desktop';
}

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || isbot(userAgent);
}

/** Remembered classifications: a site's visitors send few distinct User-Agents, and parsing one costs far more than a look-up. */
export class UserAgents {
  private readonly known = new Map<string, { bot: boolean; device: Device }>();

  constructor(private readonly max = 10_000) {}

  classify(userAgent: string): { bot: boolean; device: Device } {
    let found = this.known.get(userAgent);
    if (!found) {
      found = { bot: isBot(userAgent), device: deviceOf(userAgent) };
      if (this.known.size >= this.max) this.known.clear();
      this.known.set(userAgent, found);
    }
    return found;
  }
}

/** The referring host, or null for direct traffic (no referrer, an unparsable one, or the site itself). */
export function referrerHost(referer: string | undefined, ownHost: string): string | null {
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
    const { db } = this.database;
    await db.insertInto('analytics_salts').values({ day, salt: randomBytes(32).toString('base64') }).onConflict((oc) => oc.column('day').doNothing()).execute();
    // Yesterday's salt is kept for views still being written around midnight; older ones go.
    const yesterday = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await db.deleteFrom('analytics_salts').where('day', '<', yesterday).execute();
    return (await db.selectFrom('analytics_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow()).salt;
  }
}

export function visitorHash(salt: string, projectId: string, ip: string, userAgent: string): string {
  return createHash('sha256').update(`${salt}\n${projectId}\n${ip}\n${userAgent}`).digest('hex');
}
