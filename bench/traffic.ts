// A year of made-up but plausible traffic for the analytics benchmark: a few busy sites and a long
// tail (Zipf), growth over the year and quieter weekends, 40 page paths, 20 referring hosts plus
// direct traffic, 55/40/5 desktop/mobile/tablet. Views are drawn one by one (a seeded PRNG, so
// runs are comparable) and rolled up exactly as capture would; the raw rows of the last `rawDays`
// days are produced too. Yields one site at a time so that memory stays small.
import { randomBytes } from 'node:crypto';
import type { RawView, Rollup } from '../src/modules/analytics/views-repo.ts';

const PATHS = [
  '/',
  '/about/',
  '/services/',
  '/contact/',
  '/pricing/',
  '/blog/',
  '/team/',
  '/faq/',
  '/gallery/',
  '/book/',
  ...Array.from({ length: 30 }, (_, i) => `/blog/post-${i + 1}/`),
];
const REFERRERS = [
  null,
  'www.google.com',
  'www.bing.com',
  'duckduckgo.com',
  'www.facebook.com',
  'l.instagram.com',
  'www.linkedin.com',
  't.co',
  'news.ycombinator.com',
  'www.reddit.com',
  'www.yelp.com',
  'www.tripadvisor.com',
  'search.yahoo.com',
  'www.ecosia.org',
  'www.pinterest.com',
  'mail.google.com',
  'outlook.live.com',
  'www.youtube.com',
  'medium.com',
  'github.com',
  'chatgpt.com',
];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const DIRECT = '(direct)';

function zipf(n: number, s: number): number[] {
  const w = Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
  const sum = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / sum);
}

/** Cumulative weights, for drawing an index with one random number. */
const cumulative = (weights: number[]) =>
  weights.map(
    (
      (sum) => (w: number) =>
        (sum += w)
    )(0),
  );

function draw(cum: number[], r: number): number {
  let i = 0;
  while (i < cum.length - 1 && r > cum[i]!) i++;
  return i;
}

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TrafficOptions {
  views: number;
  sites: string[];
  orgId: string;
  orgScope: string;
  days: number;
  rawDays: number;
  today: Date;
}

export interface SiteTraffic {
  projectId: string;
  views: number;
  rollups: Rollup[];
  raw: RawView[];
}

/** Yields each site's rows, then (as the last item, projectId = orgScope) the organization's. */
export function* generateTraffic(o: TrafficOptions): Generator<SiteTraffic> {
  const random = mulberry32(42);
  const siteShare = zipf(o.sites.length, 0.9);
  const todayStart = Date.UTC(o.today.getUTCFullYear(), o.today.getUTCMonth(), o.today.getUTCDate());
  const dayStart = (j: number) => todayStart - (o.days - 1 - j) * 86_400_000;
  const dayWeights = Array.from({ length: o.days }, (_, j) => {
    const weekday = new Date(dayStart(j)).getUTCDay();
    return (1 + (0.6 * j) / o.days) * (weekday === 0 || weekday === 6 ? 0.8 : 1.05);
  });
  const daySum = dayWeights.reduce((a, b) => a + b, 0);
  const pathCum = cumulative(zipf(PATHS.length, 1.1));
  const refCum = cumulative([0.4, ...zipf(REFERRERS.length - 1, 1).map((w) => w * 0.6)]);
  const deviceCum = cumulative([0.55, 0.4, 0.05]);
  const orgRows = new Map<string, Rollup>();
  const addOrg = (
    dimension: Rollup['dimension'],
    day: string,
    key: string,
    views: number,
    visitors: number,
  ) => {
    const id = `${dimension}\u0000${day}\u0000${key}`;
    const row = orgRows.get(id);
    if (row) {
      row.views += views;
      row.visitors += visitors;
    } else orgRows.set(id, { org_id: o.orgId, scope: o.orgScope, dimension, day, key, views, visitors });
  };

  for (let s = 0; s < o.sites.length; s++) {
    const projectId = o.sites[s]!;
    const site: SiteTraffic = { projectId, views: 0, rollups: [], raw: [] };
    for (let j = 0; j < o.days; j++) {
      const expected = (o.views * siteShare[s]! * dayWeights[j]!) / daySum;
      const n = Math.floor(expected) + (random() < expected % 1 ? 1 : 0);
      if (n === 0) continue;
      const day = new Date(dayStart(j)).toISOString().slice(0, 10);
      const paths = new Array<number>(PATHS.length).fill(0);
      const refs = new Array<number>(REFERRERS.length).fill(0);
      const devices = [0, 0, 0];
      const visitors = Math.max(1, Math.round(n * (0.55 + 0.1 * random())));
      const raw = j >= o.days - o.rawDays;
      const hashes = raw ? Array.from({ length: visitors }, () => randomBytes(32).toString('hex')) : [];
      const spanMs = Math.max(1, Math.min(86_400_000, o.today.getTime() - dayStart(j)));
      for (let v = 0; v < n; v++) {
        const p = draw(pathCum, random());
        const r = draw(refCum, random());
        const d = draw(deviceCum, random());
        paths[p]!++;
        refs[r]!++;
        devices[d]!++;
        if (raw) {
          site.raw.push({
            org_id: o.orgId,
            project_id: projectId,
            path: PATHS[p]!,
            referrer: REFERRERS[r]!,
            device: DEVICES[d]!,
            visitor_hash: hashes[Math.floor(random() * visitors)]!,
            viewed_at: new Date(dayStart(j) + Math.floor(random() * spanMs)).toISOString(),
          });
        }
      }
      site.views += n;
      const add = (dimension: Rollup['dimension'], key: string, views: number, dayVisitors = 0) => {
        site.rollups.push({
          org_id: o.orgId,
          scope: projectId,
          dimension,
          day,
          key,
          views,
          visitors: dayVisitors,
        });
        addOrg(dimension, day, key, views, dayVisitors);
      };
      add('all', '', n, visitors);
      paths.forEach((c, i) => c > 0 && add('path', PATHS[i]!, c));
      refs.forEach((c, i) => c > 0 && add('referrer', REFERRERS[i] ?? DIRECT, c));
      devices.forEach((c, i) => c > 0 && add('device', DEVICES[i]!, c));
    }
    yield site;
  }
  yield { projectId: o.orgScope, views: 0, rollups: [...orgRows.values()], raw: [] };
}
