// Client billing in the API: a Checkout link for a client, and the payments it made. The
// connection itself is made in Settings → Billing or with `sitewright billing connect`.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { NoQuery, pagedList } from '../route-rules.ts';
import { pagingParams } from '../../modules/common/paging.ts';
import { ClientParams } from '../../modules/clients/schema.ts';
import { CheckoutBody, CheckoutLink, Payment } from '../../modules/billing/schema.ts';

const tags = ['billing'];
const PaymentsQuery = Type.Object(pagingParams(20), { additionalProperties: false });

export function billingRoutes({ services: { billing } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/clients/:clientId/checkout',
      {
        // No body at all means "the client's plan, back to the portal", like an empty object.
        config: { allowEmptyBody: true },
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary: 'Create a payment link for a client',
          description:
            "A Stripe Checkout Session in subscription mode for the client's plan (or `plan_id`), on the organization's connected Stripe account; send the client to `url` before `expires_at`. The client's one Stripe Customer is made on first need. `success_url` and `cancel_url` default to the client portal's billing page. 409 when billing is not connected or the client already has a running subscription (it manages it in the billing portal); 400 for a plan that is missing, inactive or free; 502 when Stripe refuses or does not answer.",
          params: ClientParams,
          body: CheckoutBody,
          querystring: NoQuery,
          response: { 201: CheckoutLink, ...errorResponses(400, 403, 404, 409, 415, 502) },
        },
      },
      async (request, reply) => {
        const link = await billing.charges.checkout(
          principal(request),
          request.params.clientId,
          request.body,
        );
        return reply.status(201).send(link);
      },
    );

    app.get(
      '/clients/:clientId/payments',
      {
        ...pagedList,
        schema: {
          tags,
          summary: "List a client's payments",
          description:
            "Each paid invoice of the client (the `payment.received` events), newest first (`paid_at DESC`), with its hosted invoice page. `amount` is in the currency's minor unit.",
          params: ClientParams,
          querystring: PaymentsQuery,
          response: {
            200: Type.Object(
              { payments: Type.Array(Payment), total: Type.Integer({ minimum: 0 }) },
              { additionalProperties: false },
            ),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => {
        const { limit = 20, offset = 0 } = request.query;
        return billing.charges.payments(principal(request), request.params.clientId, limit, offset);
      },
    );
  };
}
