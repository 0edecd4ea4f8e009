// Caddy's on-demand TLS asks before it gets a certificate for a host name: 200 means "yes". Only
// active custom domains and the subdomains of published sites qualify, so nobody can make the
// proxy request certificates for names that are not ours. For the proxy on the private network:
// it needs no credential and is not part of the public API document.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/context.ts';

export function registerTlsAsk(app: FastifyInstance, ctx: AppContext): void {
  const suffix = `.${ctx.config.sites.domain.replace(/:\d+$/, '')}`;
  app.get<{ Querystring: { domain?: string } }>('/internal/tls/ask', { schema: { hide: true } }, async (request, reply) => {
    const domain = String(request.query.domain ?? '').toLowerCase().replace(/\.$/, '');
    const { db } = ctx.database;
    let allowed = false;
    if (domain.endsWith(suffix)) {
      const label = domain.slice(0, -suffix.length);
      allowed = Boolean(await db.selectFrom('projects').select('id').where('subdomain', '=', label).where('current_deployment_id', 'is not', null).executeTakeFirst());
    } else if (domain) {
      allowed = Boolean(await db.selectFrom('project_domains').select('id').where('domain', '=', domain).where('status', '=', 'active').executeTakeFirst());
    }
    return reply.code(allowed ? 200 : 404).type('text/plain; charset=utf-8').send(allowed ? 'ok\n' : 'unknown domain\n');
  });
}
