// Billing's records and inputs as the API shows them: a payment, a checkout link, the body of a
// checkout request.
import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, Nullable, Uuid } from '../common/schema.ts';

export const Payment = Type.Object(
  {
    id: Uuid(),
    client_id: Uuid(),
    plan_id: Nullable(Uuid()),
    amount: Type.Integer({ description: "In the currency's minor unit (cents), as Stripe gives it" }),
    currency: Type.String({ description: 'ISO 4217, lower case' }),
    invoice_id: Type.String({ description: "The Stripe invoice's id" }),
    subscription_id: Nullable(Type.String()),
    paid_at: DateTime(),
    livemode: Type.Boolean({ description: 'False for a payment made in Stripe test mode' }),
    hosted_invoice_url: Nullable(Type.String({ description: "The invoice's page on Stripe" })),
  },
  { title: 'Payment', additionalProperties: false },
);
export type Payment = Static<typeof Payment>;

const ReturnUrl = Type.String({
  maxLength: 2048,
  description: 'An absolute http(s) URL the payer returns to',
});

export const CheckoutBody = Body({
  plan_id: Type.Optional(Uuid({ description: "The plan to subscribe to; default: the client's plan" })),
  success_url: Type.Optional(ReturnUrl),
  cancel_url: Type.Optional(ReturnUrl),
});
export type CheckoutBody = Static<typeof CheckoutBody>;

export const CheckoutLink = Type.Object(
  {
    url: Type.String({ description: "Stripe Checkout's page for this client and plan" }),
    expires_at: DateTime(),
  },
  { title: 'CheckoutLink', additionalProperties: false },
);
export type CheckoutLink = Static<typeof CheckoutLink>;

/** The connection as pages and the CLI show it: never a key or a secret. */
export interface BillingConnection {
  id: string;
  method: 'key' | 'connect';
  account_id: string;
  account_name: string | null;
  livemode: boolean;
  /** `restricted` or `secret` (a secret key works but gives Sitewright more than it needs). */
  key_kind: 'restricted' | 'secret' | null;
  key_hint: string | null;
  /** Where the account's events arrive. */
  webhook_url: string;
  connected_at: string;
  /** False when the kept secrets cannot be opened (the installation's secrets key changed). */
  usable: boolean;
}
