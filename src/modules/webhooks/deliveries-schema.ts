import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../common/schema.ts';
import { pagingParams } from '../common/paging.ts';
import { DELIVERY_STATUSES } from '../../events/types.ts';

export const WebhookAttempt = Type.Object(
  {
    attempted_at: DateTime(),
    duration_ms: Type.Integer({ minimum: 0 }),
    status_code: Nullable(
      Type.Integer({ description: "The endpoint's HTTP status; null when no response came" }),
    ),
    error: Nullable(
      Type.String({
        description:
          'Why the attempt failed without a usable response (timeout, refused, SSRF guard, redirect)',
      }),
    ),
    response_body: Nullable(Type.String({ description: 'The first 2 KB of the response body' })),
  },
  { title: 'WebhookAttempt', additionalProperties: false },
);
export type WebhookAttempt = Static<typeof WebhookAttempt>;

export const WebhookDelivery = Type.Object(
  {
    id: Uuid(),
    webhook_id: Uuid(),
    event_id: Uuid({ description: 'Also the webhook-id header of every attempt' }),
    event_type: Type.String({ description: 'An event kind, or webhook.test for a test ping' }),
    status: StringEnum(DELIVERY_STATUSES, {
      description:
        'pending: due or waiting for a retry (held while the endpoint is inactive); succeeded: a 2xx came back; failed: the retry schedule ran out; dropped: the endpoint was deleted',
    }),
    attempt_count: Type.Integer({ minimum: 0 }),
    next_attempt_at: Nullable(DateTime({ description: 'When the next attempt is due; null once finished' })),
    created_at: DateTime(),
    updated_at: DateTime(),
    attempts: Type.Array(WebhookAttempt, { description: 'Oldest first' }),
  },
  { title: 'WebhookDelivery', additionalProperties: false },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const DeliveryParams = Type.Object({ webhookId: Uuid(), deliveryId: Uuid() });

export const DeliveriesQuery = Type.Object(
  {
    ...pagingParams(50),
    status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
  },
  { additionalProperties: false },
);
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;
