// Settings → Embedding (owners and admins): the origins that may frame the embeddable builder,
// the organization's embed keys (created here, shown once), the sessions live now (revoke one),
// and a complete example of a host product's backend and page.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError } from '../../modules/common/errors.ts';
import type { RouteDeps } from '../deps.ts';
import { optional, text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat, seatPrincipal } from '../session.ts';
import { idFromUrl } from '../ids.ts';

export function embeddingRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { embed, orgs } = deps.services;
  const { publicUrl } = deps.config;
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { created?: { key: string }; error?: string; originsText?: string } = {},
  ) => {
    const seat = requireSeat(request, { manage: true });
    const principal = seatPrincipal(seat);
    const [origins, sessions, keys] = await Promise.all([
      embed.origins(principal),
      embed.listActive(principal),
      orgs.listKeys(seat.orgId),
    ]);
    return render(
      request,
      reply,
      'embedding',
      {
        title: 'Embedding',
        origins,
        originsText: extra.originsText ?? origins.join('\n'),
        sessions,
        keys: keys.filter((k) => k.permissions.includes('embed') && !k.revoked_at),
        created: extra.created ?? null,
        error: extra.error,
        publicUrl,
        hostOrigin: origins[0] ?? 'https://app.example.com',
      },
      extra.error ? 400 : 200,
    );
  };

  return async (app) => {
    app.get('/settings/embedding', async (request, reply) => page(request, reply));

    app.post<{ Body: Form }>('/settings/embedding/origins', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const originsText = text(request.body ?? {}, 'origins').slice(0, 10_000);
      const wanted = originsText
        .split(/[\s,]+/)
        .map((o) => o.trim())
        .filter(Boolean);
      try {
        await embed.setOrigins(seatPrincipal(seat), wanted);
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return page(request, reply, { error: error.message.replace(/^field '[^']+': /, ''), originsText });
      }
      return redirectWith(reply, '/settings/embedding', 'Saved the origins that may embed the builder.');
    });

    app.post<{ Body: Form }>('/settings/embedding/keys', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const name = optional(request.body ?? {}, 'name')?.slice(0, 100) ?? 'Embed';
      const created = await orgs.createKey(seat.orgId, ['embed'], name);
      return page(request, reply, { created });
    });

    app.post<{ Params: { id: string } }>(
      '/settings/embedding/sessions/:id/revoke',
      async (request, reply) => {
        const seat = requireSeat(request, { manage: true });
        await embed.revoke(seatPrincipal(seat), idFromUrl(request.params.id, 'Embed session'));
        return redirectWith(
          reply,
          '/settings/embedding',
          'Session revoked: its frame stops at its next request.',
        );
      },
    );
  };
}
