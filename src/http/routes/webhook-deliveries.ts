import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { noBody, NoQuery, pagedList } from '../route-rules.ts';
import {
  DeliveriesQuery,
  DeliveryParams,
  WebhookAttempt,
  WebhookDelivery,
} from '../../modules/webhooks/deliveries-schema.ts';
import { RotatedSecret, WebhookParams } from '../../modules/webhooks/schema.ts';

const tags = ['webhooks'];
// These POSTs take no body, so they work without one and without Content-Type; a JSON body, if
// sent, must be the empty object (the API guard refuses any field in it).
const bodyless = { allowEmptyBody: true };

export function webhookDeliveriesRoutes({
  services: { deliveries, webhooks },
}: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/webhooks/:webhookId/deliveries',
      {
        ...pagedList,
        schema: {
          tags,
          summary: "List an endpoint's deliveries",
          description:
            'The delivery log, newest first, each delivery with its attempts. `total` counts the deliveries matching `status`.',
          params: WebhookParams,
          querystring: DeliveriesQuery,
          response: {
            200: Type.Object(
              { deliveries: Type.Array(WebhookDelivery), total: Type.Integer({ minimum: 0 }) },
              { additionalProperties: false },
            ),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => deliveries.list(principal(request), request.params.webhookId, request.query),
    );

    app.post(
      '/webhooks/:webhookId/deliveries/:deliveryId/retry',
      {
        ...noBody,
        config: bodyless,
        schema: {
          tags,
          summary: 'Send a delivery again',
          description:
            'Queues the delivery to be sent now, with the same event body and `webhook-id` header as before. If that attempt fails, the delivery carries on with its retry schedule; one that had used it up becomes `failed` again. An inactive endpoint holds it until switched back on.',
          params: DeliveryParams,
          querystring: NoQuery,
          response: {
            202: Type.Object({ delivery: WebhookDelivery }, { additionalProperties: false }),
            ...errorResponses(400, 403, 404, 415),
          },
        },
      },
      async (request, reply) => {
        const { webhookId, deliveryId } = request.params;
        return reply
          .status(202)
          .send({ delivery: await deliveries.retry(principal(request), webhookId, deliveryId) });
      },
    );

    app.post(
      '/webhooks/:webhookId/test',
      {
        ...noBody,
        config: bodyless,
        schema: {
          tags,
          summary: 'Send a test ping',
          description:
            'Sends a signed `webhook.test` event to this endpoint only (active or not), waits for the answer (up to the delivery timeout) and returns the attempt. One attempt, no retries; it appears in the delivery log.',
          params: WebhookParams,
          querystring: NoQuery,
          response: {
            200: Type.Object(
              { attempt: WebhookAttempt, delivery: WebhookDelivery },
              { additionalProperties: false },
            ),
            ...errorResponses(400, 403, 404, 415),
          },
        },
      },
      async (request) => deliveries.test(principal(request), request.params.webhookId),
    );

    app.post(
      '/webhooks/:webhookId/rotate-secret',
      {
        ...noBody,
        config: bodyless,
        schema: {
          tags,
          summary: 'Rotate the signing secret',
          description:
            'Returns a new secret, only this once. For the rotation overlap (24 hours by default) every delivery carries two signatures in `webhook-signature`, space-separated: one with the new secret and one with the previous, so receivers can switch without missing a delivery.',
          params: WebhookParams,
          querystring: NoQuery,
          response: { 200: RotatedSecret, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => webhooks.rotateSecret(principal(request), request.params.webhookId),
    );
  };
}
