// The organization's settings: its name (owners and admins rename it), and where sites live: the
// sites domain and the DNS records a custom domain needs, built by the domains module itself
// (requiredRecords) so the page says what the domain check will look for.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { canManage } from '../../modules/accounts/roles.ts';
import { ConflictError, InvalidInputError } from '../../modules/common/errors.ts';
import { requiredRecords, TXT_PREFIX } from '../../modules/domains/dns-check.ts';
import type { RouteDeps } from '../deps.ts';
import { text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat, type SignedInMember } from '../session.ts';

export function organizationRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { orgs } = deps.services;
  const { sites } = deps.config;
  const sitesHost = sites.domain.replace(/:\d+$/, '');
  // Examples of the records, for a subdomain and for an apex; the TXT value is per domain.
  const example = {
    sub: requiredRecords(sites, 'www.example.com', 'www', 'TOKEN')[0]!,
    apex: requiredRecords(sites, 'example.com', null, 'TOKEN')[0]!,
    txt: `${TXT_PREFIX}.www.example.com`,
  };

  const page = (
    request: FastifyRequest,
    reply: FastifyReply,
    seat: SignedInMember,
    extra: Record<string, unknown> = {},
    status = 200,
  ) =>
    render(
      request,
      reply,
      'organization',
      {
        title: 'Settings',
        orgName: seat.orgName,
        name: seat.orgName,
        manage: canManage(seat.role),
        sitesHost,
        ipv4: sites.ipv4 ?? null,
        example,
        error: null,
        ...extra,
      },
      status,
    );

  return async (app) => {
    app.get('/settings/organization', async (request, reply) => page(request, reply, requireSeat(request)));
    app.post<{ Body: Form }>('/settings/organization', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const name = text(request.body ?? {}, 'name');
      try {
        const org = await orgs.rename(seat.orgId, name);
        return redirectWith(reply, '/settings/organization', `The organization is now called ${org.name}.`);
      } catch (error) {
        if (error instanceof InvalidInputError || error instanceof ConflictError) {
          return page(
            request,
            reply,
            seat,
            { name, error: error.message.charAt(0).toUpperCase() + error.message.slice(1) },
            400,
          );
        }
        throw error;
      }
    });
  };
}
