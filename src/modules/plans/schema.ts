import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, Nullable, StringEnum, Uuid } from '../common/schema.ts';

export const INTERVALS = ['monthly', 'yearly'] as const;

export const Plan = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    price: Type.Number(),
    interval: StringEnum(INTERVALS),
    max_sites: Type.Integer(),
    max_ai_messages_daily: Type.Integer(),
    can_export_code: Type.Boolean(),
    can_use_custom_domain: Type.Boolean(),
    is_active: Type.Boolean(),
    is_default: Type.Boolean({ description: 'At most one plan per organization is the default' }),
    sort_order: Type.Integer({ description: 'Lists are ordered by sort_order, then creation time' }),
    created_at: DateTime(),
    stripe_product_id: Nullable(
      Type.String({ description: "The plan's Product on the connected Stripe account; null: not billed" }),
    ),
    stripe_price_id: Nullable(
      Type.String({
        description:
          'The recurring Price new subscriptions use; a price or interval change makes a new one. null: not billed (no connected account, a free or inactive plan)',
      }),
    ),
  },
  { title: 'Plan', additionalProperties: false },
);
export type Plan = Static<typeof Plan>;

export const PlanParams = Type.Object({ planId: Uuid() });

const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Leading and trailing spaces are trimmed; must not be blank',
});
const Description = Nullable(Type.String({ maxLength: 2000 }));
const Price = Type.Number({ minimum: 0, maximum: 1e9 });
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 });

export const CreatePlanBody = Body({
  name: Name,
  description: Type.Optional(Description),
  price: Price,
  interval: Type.Optional(StringEnum(INTERVALS, { default: 'monthly' })),
  max_sites: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 3 })),
  max_ai_messages_daily: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 50 })),
  can_export_code: Type.Optional(Type.Boolean({ default: false })),
  can_use_custom_domain: Type.Optional(Type.Boolean({ default: false })),
});
export type CreatePlanBody = Static<typeof CreatePlanBody>;

export const UpdatePlanBody = Body({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  price: Type.Optional(Price),
  interval: Type.Optional(StringEnum(INTERVALS)),
  max_sites: Type.Optional(Count),
  max_ai_messages_daily: Type.Optional(Count),
  can_export_code: Type.Optional(Type.Boolean()),
  can_use_custom_domain: Type.Optional(Type.Boolean()),
  is_default: Type.Optional(
    Type.Boolean({ description: 'true makes this the only default plan of the organization' }),
  ),
  is_active: Type.Optional(Type.Boolean({ description: 'Inactive plans cannot be attached to clients' })),
  sort_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
});
export type UpdatePlanBody = Static<typeof UpdatePlanBody>;
