import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, Nullable, StringEnum, Uuid } from '../common/schema.ts';
import { EVENT_TYPES, type EventType } from '../../events/types.ts';

export { EVENT_TYPES, type EventType };

const EventList = Type.Array(StringEnum(EVENT_TYPES), {
  minItems: 1,
  maxItems: 50,
  description: 'Subscribed event kinds; duplicates are collapsed',
});
const Url = Type.String({
  format: 'uri',
  maxLength: 2048,
  description: 'HTTPS endpoint that receives signed deliveries',
});

export const Webhook = Type.Object(
  {
    id: Uuid(),
    url: Type.String({ format: 'uri' }),
    events: Type.Array(StringEnum(EVENT_TYPES)),
    is_active: Type.Boolean(),
    disabled_reason: Nullable(
      Type.String({
        description:
          'Why the service switched the endpoint off (a 410 Gone, or failing for days); null otherwise',
      }),
    ),
    created_at: DateTime(),
  },
  { title: 'Webhook', additionalProperties: false },
);
export type Webhook = Static<typeof Webhook>;

export const WebhookWithSecret = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({
      description: 'Standard Webhooks signing secret (whsec_...). Returned only here, never again.',
    }),
  },
  { title: 'WebhookWithSecret', additionalProperties: false },
);

export const WebhookParams = Type.Object({ webhookId: Uuid() });

export const CreateWebhookBody = Body({ url: Url, events: EventList });
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Body({
  url: Type.Optional(Url),
  events: Type.Optional(EventList),
  is_active: Type.Optional(
    Type.Boolean({
      description:
        'false holds deliveries to this endpoint; true sends the held ones still within their retry schedule',
    }),
  ),
});
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const RotatedSecret = Type.Object(
  {
    webhook: Webhook,
    secret: Type.String({ description: 'The new signing secret (whsec_...), shown only this once' }),
  },
  { additionalProperties: false },
);
