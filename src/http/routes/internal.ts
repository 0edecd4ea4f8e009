// Routes outside /api/v1: the health check, and the front proxy's question before it gets an
// on-demand TLS certificate (Caddy's `ask`: 200 means "yes"). The proxy sits on the private
// network: it needs no credential, and neither route is part of the public API document.
import type { FastifyInstance } from 'fastify';
import type { SitesService } from '../../modules/publishing/sites.ts';

export function registerInternalRoutes(app: FastifyInstance, sites: SitesService): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get<{ Querystring: { domain?: string } }>('/internal/tls/ask', { schema: { hide: true } }, async (request, reply) => {
    const allowed = await sites.allowsCertificate(String(request.query.domain ?? ''));
    return reply.code(allowed ? 200 : 404).type('text/plain; charset=utf-8').send(allowed ? 'ok\n' : 'unknown domain\n');
  });
}
