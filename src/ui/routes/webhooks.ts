// Webhook endpoints of the organization (owners and admins): create (the signing secret is shown
// once, on the answer to the form, never stored or redirected with), edit URL and events, switch
// on or off, rotate the secret, send a test, delete; the delivery log with every attempt and a
// retry button. Every change goes through WebhooksService / DeliveriesService, as the API does.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_LIMIT } from '../../modules/common/paging.ts';
import { invalid, InvalidInputError } from '../../modules/common/errors.ts';
import { DELIVERY_STATUSES } from '../../events/types.ts';
import {
  CreateWebhookBody,
  EVENT_TYPES,
  UpdateWebhookBody,
  type Webhook,
} from '../../modules/webhooks/schema.ts';
import type { RouteDeps } from '../deps.ts';
import { validForm, list, text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { pager, paging } from '../paging.ts';
import { requireSeat, seatPrincipal } from '../session.ts';
import { idFromUrl } from '../ids.ts';
import type { Principal } from '../../modules/access/principal.ts';

type Params = { id: string };
type Query = { page?: string; status?: string };

/** The ticked events; none is refused in words a person understands (the schema says minItems). */
const ticked = (form: Form) => {
  const events = list(form, 'events');
  if (events.length === 0) throw invalid('Choose at least one event to send to this endpoint.');
  return events;
};

export function webhookRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { webhooks, deliveries } = deps.services;
  const listPage = async (asking: Principal) => ({
    title: 'Webhooks',
    webhooks: (await webhooks.list(asking, MAX_LIMIT, 0)).records,
    events: EVENT_TYPES,
  });

  /** The endpoint's page; `extra` carries a new secret or a form error. */
  const endpointPage = async (
    request: FastifyRequest<{ Params: Params; Querystring: Query }>,
    reply: FastifyReply,
    extra: Record<string, unknown> = {},
    status = 200,
  ) => {
    const seat = requireSeat(request, { manage: true });
    const id = idFromUrl(request.params.id, 'Webhook');
    const webhook = (extra.webhook as Webhook | undefined) ?? (await webhooks.get(seatPrincipal(seat), id));
    const filter = (DELIVERY_STATUSES as readonly string[]).includes(request.query.status ?? '')
      ? (request.query.status as (typeof DELIVERY_STATUSES)[number])
      : undefined;
    const p = paging(request.query);
    const log = await deliveries.list(seatPrincipal(seat), id, {
      limit: p.limit,
      offset: p.offset,
      status: filter,
    });
    return render(
      request,
      reply,
      'webhook',
      {
        title: webhook.url,
        heading: 'Webhook endpoint',
        events: EVENT_TYPES,
        statuses: DELIVERY_STATUSES,
        filter,
        secret: null,
        error: null,
        ...extra,
        webhook,
        deliveries: log.deliveries,
        pager: pager(p, log.total, { status: filter }),
      },
      status,
    );
  };

  return async (app) => {
    app.get('/settings/webhooks', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      return render(request, reply, 'webhooks', {
        ...(await listPage(seatPrincipal(seat))),
        created: null,
        form: {},
      });
    });
    app.post<{ Body: Form }>('/settings/webhooks', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const form = request.body ?? {};
      try {
        const body = validForm(CreateWebhookBody, { url: text(form, 'url').trim(), events: ticked(form) });
        const created = await webhooks.create(seatPrincipal(seat), body);
        return render(request, reply, 'webhooks', {
          ...(await listPage(seatPrincipal(seat))),
          created,
          form: {},
        });
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return render(
          request,
          reply,
          'webhooks',
          { ...(await listPage(seatPrincipal(seat))), created: null, form, error: error.message },
          400,
        );
      }
    });

    app.get<{ Params: Params; Querystring: Query }>('/settings/webhooks/:id', (request, reply) =>
      endpointPage(request, reply),
    );
    app.post<{ Params: Params; Querystring: Query; Body: Form }>(
      '/settings/webhooks/:id',
      async (request, reply) => {
        const seat = requireSeat(request, { manage: true });
        const id = idFromUrl(request.params.id, 'Webhook');
        const form = request.body ?? {};
        try {
          await webhooks.update(
            seatPrincipal(seat),
            id,
            validForm(UpdateWebhookBody, { url: text(form, 'url').trim(), events: ticked(form) }),
          );
          return redirectWith(reply, `/settings/webhooks/${id}`, 'Endpoint saved.');
        } catch (error) {
          if (!(error instanceof InvalidInputError)) throw error;
          return endpointPage(request, reply, { error: error.message }, 400);
        }
      },
    );
    app.post<{ Params: Params; Body: Form }>('/settings/webhooks/:id/active', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const id = idFromUrl(request.params.id, 'Webhook');
      const on = text(request.body ?? {}, 'is_active') === 'true';
      await webhooks.update(seatPrincipal(seat), id, { is_active: on });
      return redirectWith(
        reply,
        `/settings/webhooks/${id}`,
        on
          ? 'Endpoint switched on: held deliveries are on their way.'
          : 'Endpoint switched off: deliveries are held until it is switched on again.',
      );
    });
    app.post<{ Params: Params; Querystring: Query }>(
      '/settings/webhooks/:id/rotate-secret',
      async (request, reply) => {
        const seat = requireSeat(request, { manage: true });
        const { webhook, secret } = await webhooks.rotateSecret(
          seatPrincipal(seat),
          idFromUrl(request.params.id, 'Webhook'),
        );
        const overlapHours = Math.round(deps.config.webhooks.rotationOverlapMs / 3_600_000);
        return endpointPage(request, reply, { webhook, secret, overlapHours });
      },
    );
    app.post<{ Params: Params }>('/settings/webhooks/:id/test', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const id = idFromUrl(request.params.id, 'Webhook');
      const { attempt } = await deliveries.test(seatPrincipal(seat), id);
      const outcome =
        attempt.status_code !== null
          ? `the endpoint answered ${attempt.status_code}`
          : `no answer (${attempt.error ?? 'failed'})`;
      return redirectWith(
        reply,
        `/settings/webhooks/${id}`,
        `Test event sent: ${outcome} in ${attempt.duration_ms} ms.`,
      );
    });
    app.post<{ Params: Params & { deliveryId: string } }>(
      '/settings/webhooks/:id/deliveries/:deliveryId/retry',
      async (request, reply) => {
        const seat = requireSeat(request, { manage: true });
        const id = idFromUrl(request.params.id, 'Webhook');
        await deliveries.retry(seatPrincipal(seat), id, idFromUrl(request.params.deliveryId, 'Delivery'));
        return redirectWith(
          reply,
          `/settings/webhooks/${id}`,
          'Delivery queued: it is sent again in a moment.',
        );
      },
    );
    app.post<{ Params: Params }>('/settings/webhooks/:id/delete', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const webhook = await webhooks.get(seatPrincipal(seat), idFromUrl(request.params.id, 'Webhook'));
      await webhooks.delete(seatPrincipal(seat), webhook.id);
      return redirectWith(
        reply,
        '/settings/webhooks',
        `Endpoint ${webhook.url} deleted; its pending deliveries are dropped.`,
      );
    });
  };
}
