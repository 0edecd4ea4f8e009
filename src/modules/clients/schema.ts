import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, Nullable, StringEnum, Uuid } from '../common/schema.ts';

export const CLIENT_STATUSES = ['invited', 'active', 'suspended', 'churned'] as const;
export const PAYMENT_STATUSES = ['none', 'active', 'past_due', 'canceled'] as const;

export const Client = Type.Object(
  {
    id: Uuid(),
    email: Type.String({ format: 'email' }),
    name: Nullable(Type.String()),
    company: Nullable(Type.String()),
    status: StringEnum(CLIENT_STATUSES),
    plan_id: Nullable(Uuid()),
    payment_status: StringEnum(PAYMENT_STATUSES, { description: 'Read-only: set by billing' }),
    external_id: Nullable(
      Type.String({ description: "Read-only: the client's user id in a product that embeds the builder" }),
    ),
    created_at: DateTime(),
  },
  { title: 'Client', additionalProperties: false },
);
export type Client = Static<typeof Client>;

export const ClientParams = Type.Object({ clientId: Uuid() });

export const CreateClientBody = Body({
  email: Type.String({ format: 'email', maxLength: 254 }),
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  company: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  plan_id: Type.Optional(Nullable(Uuid({ description: 'An active plan of the organization' }))),
});
export type CreateClientBody = Static<typeof CreateClientBody>;

export const UpdateClientBody = Body({
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  company: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  status: Type.Optional(StringEnum(CLIENT_STATUSES)),
  plan_id: Type.Optional(
    Nullable(Uuid({ description: 'An active plan of the organization; null detaches the plan' })),
  ),
});
export type UpdateClientBody = Static<typeof UpdateClientBody>;

/** What inviting a client to the portal answers: the invitation's address and expiry, never its link. */
export const ClientInvitation = Type.Object(
  {
    client_id: Uuid(),
    email: Type.String({ format: 'email' }),
    expires_at: DateTime({ description: 'The emailed link works until then (7 days)' }),
  },
  { title: 'ClientInvitation', additionalProperties: false },
);
export type ClientInvitation = Static<typeof ClientInvitation>;
