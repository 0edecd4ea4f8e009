import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { Analytics, AnalyticsQuery, DIRECT_REFERRER, TOP_LIMIT } from '../../modules/analytics/schema.ts';

const DESCRIPTION = `Page views of the organization's published sites, as captured when their pages are served
(HTML pages answered 200 to a GET; not bots, HEAD requests, assets, 304 revalidations or previews).

- Window: the last \`days\` whole UTC calendar days, today included.
- \`dailyViews\` has exactly \`days\` entries, one per UTC day, oldest first; days without views are 0.
- \`uniqueVisitors\` counts distinct visitors per site and UTC day, added up over the window: a
  visitor's hash rotates daily by design (no cookies, nothing that links one day to the next), so
  someone who comes back on three days counts three times.
- \`topPages\`, \`topReferrers\` and \`deviceBreakdown\` are sorted by views descending, then by
  path, referrer or device ascending (byte order), and hold at most ${TOP_LIMIT} entries. Paths
  are those of all the organization's sites together when no \`project_id\` is given.
- Traffic without a referrer (or from the site itself) is reported as the referrer \`"${DIRECT_REFERRER}"\`.
- Without \`project_id\` every project of the organization counts; a \`project_id\` that is not a
  project of the organization is a 404. A deleted project's views leave the organization's numbers.`;

export function analyticsRoutes({ services: { analytics } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/analytics',
      {
        schema: {
          tags: ['analytics'],
          summary: 'Aggregated traffic analytics',
          description: DESCRIPTION,
          querystring: AnalyticsQuery,
          response: {
            200: Type.Object(
              { analytics: Analytics },
              { additionalProperties: false, description: 'The traffic report' },
            ),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => ({ analytics: await analytics.report(principal(request), request.query) }),
    );
  };
}
