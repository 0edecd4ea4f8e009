// The event kinds endpoints can subscribe to (spec section 6), plus the ping that
// POST /webhooks/{id}/test sends, which no endpoint subscribes to.
export const EVENT_TYPES = [
  'client.created',
  'client.updated',
  'project.created',
  'project.published',
  'payment.received',
  'form.submitted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const TEST_EVENT_TYPE = 'webhook.test';
export type AnyEventType = EventType | typeof TEST_EVENT_TYPE;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'dropped'] as const;
