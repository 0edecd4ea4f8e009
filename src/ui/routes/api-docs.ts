// `/docs/api`: the API reference as a page of the dashboard, rendered on the server from the
// served OpenAPI document (no Swagger UI, nothing from a CDN). `/api/v1/docs` keeps serving the JSON.
import type { FastifyPluginAsync } from 'fastify';
import { apiReference } from '../api-reference.ts';
import type { RouteDeps } from '../deps.ts';
import { render } from '../page.ts';
import { requireSeat } from '../session.ts';

export function apiDocsRoutes(deps: RouteDeps): FastifyPluginAsync {
  // The document is fixed once the app is ready; build the page's model once, on first use.
  let reference: ReturnType<typeof apiReference> | undefined;
  return async (app) => {
    app.get('/docs/api', async (request, reply) => {
      requireSeat(request);
      reference ??= apiReference(deps.openApiDocument());
      return render(request, reply, 'api-reference', {
        title: 'API reference',
        reference,
        base: `${deps.config.publicUrl}/api/v1`,
      });
    });
  };
}
