// API keys of the organization (owners and admins): create with permissions (the key is shown
// once, on the answer to the form, never stored or redirected with), list, revoke.
import type { FastifyPluginAsync } from 'fastify';
import { isUuid } from '../../lib/ids.ts';
import { PERMISSIONS, type Permission } from '../../modules/orgs/service.ts';
import { notFound } from '../../modules/common/errors.ts';
import type { RouteDeps } from '../deps.ts';
import { list, optional, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat } from '../session.ts';

export function keyRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { orgs } = deps.services;
  const page = async (orgId: string) => ({
    title: 'API keys',
    keys: await orgs.listKeys(orgId),
    publicUrl: deps.config.publicUrl,
  });
  return async (app) => {
    app.get('/settings/keys', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      return render(request, reply, 'keys', { ...(await page(seat.orgId)), created: null });
    });
    app.post<{ Body: Form }>('/settings/keys', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const form = request.body ?? {};
      const permissions = list(form, 'permissions').filter((p): p is Permission =>
        (PERMISSIONS as readonly string[]).includes(p),
      );
      const name = optional(form, 'name')?.slice(0, 100) ?? null;
      if (permissions.length === 0) {
        return render(
          request,
          reply,
          'keys',
          {
            ...(await page(seat.orgId)),
            created: null,
            error: 'Choose at least one permission: read, write or both.',
          },
          400,
        );
      }
      const created = await orgs.createKey(seat.orgId, permissions, name);
      return render(request, reply, 'keys', { ...(await page(seat.orgId)), created });
    });
    app.post<{ Params: { id: string } }>('/settings/keys/:id/revoke', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const revoked = isUuid(request.params.id)
        ? await orgs.revokeOrgKey(seat.orgId, request.params.id.toLowerCase())
        : undefined;
      if (!revoked) throw notFound('API key');
      return redirectWith(
        reply,
        '/settings/keys',
        `Key ${revoked.prefix}… revoked. It stops working on its next request.`,
      );
    });
  };
}
