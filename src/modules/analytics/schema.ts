import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../common/schema.ts';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 365;
/** Every top list (pages, referrers, devices) holds at most this many entries. */
export const TOP_LIMIT = 10;
/** How direct traffic (no referrer) is named in topReferrers. */
export const DIRECT_REFERRER = '(direct)';

export const AnalyticsQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_DAYS,
        default: DEFAULT_DAYS,
        description: `Number of UTC calendar days to report, today included (1..${MAX_DAYS}, default ${DEFAULT_DAYS})`,
      }),
    ),
    project_id: Type.Optional(
      Uuid({
        description:
          "Limits the report to this project of the organization; without it every project's traffic counts",
      }),
    ),
  },
  // Unknown parameters are refused like unknown body fields, so a typo never silently widens the report.
  { additionalProperties: false },
);
export type AnalyticsQuery = Static<typeof AnalyticsQuery>;

const Views = Type.Integer({ minimum: 0, description: 'Page views' });
const top = (key: string) => ({
  maxItems: TOP_LIMIT,
  description: `Views descending, then ${key} ascending (byte order); at most ${TOP_LIMIT} entries`,
});

const PageViews = Type.Object(
  { path: Type.String({ description: 'Page path, without query string' }), views: Views },
  { additionalProperties: false },
);
const ReferrerViews = Type.Object(
  {
    referrer: Type.String({
      description: `Referring host, or "${DIRECT_REFERRER}" for traffic without a referrer`,
    }),
    views: Views,
  },
  { additionalProperties: false },
);
const DeviceViews = Type.Object(
  { device: Type.String({ description: 'desktop, mobile or tablet' }), views: Views },
  { additionalProperties: false },
);
const DayViews = Type.Object(
  { date: Type.String({ format: 'date', description: 'UTC day, YYYY-MM-DD' }), views: Views },
  { additionalProperties: false },
);

export const Analytics = Type.Object(
  {
    totalViews: Type.Integer({ minimum: 0, description: 'Page views in the window' }),
    uniqueVisitors: Type.Integer({
      minimum: 0,
      description:
        'Distinct visitors per site and UTC day, added up over the window (visitor hashes rotate daily)',
    }),
    topPages: Type.Array(PageViews, top('path')),
    topReferrers: Type.Array(ReferrerViews, top('referrer')),
    dailyViews: Type.Array(DayViews, {
      description: 'One entry per UTC day of the window, oldest first; days without views are 0',
    }),
    deviceBreakdown: Type.Array(DeviceViews, top('device')),
  },
  { title: 'Analytics', additionalProperties: false },
);
export type Analytics = Static<typeof Analytics>;
