// Routes outside /api/v1: liveness (/healthz: the process answers), readiness (/readyz: the
// database, its migrations and Redis answer), and the front proxy's question before it gets an
// on-demand TLS certificate (Caddy's `ask`: 200 means "yes"). The proxy sits on the private
// network and needs no credential, so the question is answered only to callers whose own address
// (the socket's, never a forwarded header) is in TLS_ASK_ALLOW (default: loopback) and whose
// request was not forwarded by a proxy; anyone else gets the 404 of a route that does not exist. Neither route is in the API document.
import type { FastifyInstance } from 'fastify';
import { addressInList, parseCidrList } from '../../lib/cidr.ts';
import { isForwarded } from '../../lib/client-address.ts';
import type { SitesService } from '../../modules/publishing/sites.ts';
import { readinessBody, type Readiness } from '../../lib/readiness.ts';

export function registerInternalRoutes(
  app: FastifyInstance,
  sites: SitesService,
  tlsAskAllow: string[],
  readiness: () => Promise<Readiness>,
): void {
  const askers = parseCidrList(tlsAskAllow.join(','));
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Readiness: 503 naming what is not ready, so a load balancer sends nothing here meanwhile.
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const state = await readiness();
    if (!state.ready) request.log.warn({ checks: state.checks }, 'not ready');
    return reply.code(state.ready ? 200 : 503).send(readinessBody(state));
  });
  app.get<{ Querystring: { domain?: string } }>(
    '/internal/tls/ask',
    { schema: { hide: true } },
    async (request, reply) => {
      // A front proxy on loopback forwards visitors from loopback too; its own ask is not forwarded.
      if (!addressInList(request.socket.remoteAddress, askers) || isForwarded(request.headers))
        return reply.callNotFound();
      const allowed = await sites.allowsCertificate(String(request.query.domain ?? ''));
      return reply
        .code(allowed ? 200 : 404)
        .type('text/plain; charset=utf-8')
        .send(allowed ? 'ok\n' : 'unknown domain\n');
    },
  );
}
