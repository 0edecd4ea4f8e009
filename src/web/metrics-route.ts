// GET /metrics on the front door (METRICS=on): Prometheus's text format to the callers
// lib/metrics-access.ts lets in; a 404 like any unknown path to everyone else, so the public port
// does not even say metrics exist. Site hosts never get here: the edge answers them first.
import type { FastifyInstance } from 'fastify';
import { metricsAllowed, type MetricsAccess } from '../lib/metrics-access.ts';

export interface MetricsSource {
  contentType: string;
  render(): Promise<string>;
}

export function registerMetricsRoute(
  app: FastifyInstance,
  source: MetricsSource,
  access: MetricsAccess,
): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!metricsAllowed(request, access)) return reply.callNotFound();
    return reply
      .header('cache-control', 'no-store')
      .type(source.contentType)
      .send(await source.render());
  });
}
