import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { wholeListBody, wholeListHandler, WHOLE_LIST_DOC } from '../list-stream.ts';
import { WholeListQuery } from '../../modules/common/paging.ts';
import { DeletedBody, errorResponses } from '../schemas.ts';
import { noBody, NoQuery, pagedList } from '../route-rules.ts';
import {
  CreateWebhookBody,
  UpdateWebhookBody,
  Webhook,
  WebhookParams,
  WebhookWithSecret,
} from '../../modules/webhooks/schema.ts';

const tags = ['webhooks'];
const WebhookEnvelope = Type.Object({ webhook: Webhook }, { additionalProperties: false });

export function webhooksRoutes({ services: { webhooks } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/webhooks',
      {
        ...pagedList,
        schema: {
          tags,
          summary: 'List webhook endpoints',
          description: `Newest first (\`created_at DESC, id DESC\`). Secrets are never listed. ${WHOLE_LIST_DOC}`,
          querystring: WholeListQuery,
          response: { 200: wholeListBody('webhooks', Webhook), ...errorResponses(400, 403) },
        },
      },
      wholeListHandler('webhooks', Webhook, webhooks),
    );

    app.post(
      '/webhooks',
      {
        schema: {
          tags,
          summary: 'Register a webhook endpoint',
          description:
            'The URL must be https and must not point at a private, loopback or reserved address. The response carries `secret`, shown only this once.',
          body: CreateWebhookBody,
          querystring: NoQuery,
          response: {
            201: Type.Object({ webhook: WebhookWithSecret }, { additionalProperties: false }),
            ...errorResponses(400, 403, 415),
          },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ webhook: await webhooks.create(principal(request), request.body) }),
    );

    app.get(
      '/webhooks/:webhookId',
      {
        schema: {
          tags,
          summary: 'Get a webhook endpoint',
          params: WebhookParams,
          querystring: NoQuery,
          response: { 200: WebhookEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({ webhook: await webhooks.get(principal(request), request.params.webhookId) }),
    );

    app.patch(
      '/webhooks/:webhookId',
      {
        schema: {
          tags,
          summary: 'Update a webhook endpoint',
          description:
            'Only the fields present change. `is_active: false` holds deliveries (new events no longer fan out to it; pending ones wait); `is_active: true` sends the held ones still within their retry schedule and clears `disabled_reason`.',
          params: WebhookParams,
          body: UpdateWebhookBody,
          querystring: NoQuery,
          response: { 200: WebhookEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => ({
        webhook: await webhooks.update(principal(request), request.params.webhookId, request.body),
      }),
    );

    app.delete(
      '/webhooks/:webhookId',
      {
        ...noBody,
        schema: {
          tags,
          summary: 'Delete a webhook endpoint',
          description: 'Deliveries still pending to it are dropped (status `dropped`, no more attempts).',
          params: WebhookParams,
          querystring: NoQuery,
          response: { 200: DeletedBody, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        await webhooks.delete(principal(request), request.params.webhookId);
        return { deleted: true, id: request.params.webhookId };
      },
    );
  };
}
