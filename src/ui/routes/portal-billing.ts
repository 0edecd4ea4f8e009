// The client portal's billing page: the client's plan, whether it pays, *Pay* (a Checkout link)
// when it needs a subscription and *Manage billing* (the Billing Portal) when it has one, and its
// payments. Pay and Manage are links, not forms: their answer redirects to Stripe, which the
// pages' CSP (`form-action 'self'`) forbids a form's answer to do. A client suspended by billing
// reaches this page and nothing else.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { clientAccountPrincipal } from '../../modules/access/principal.ts';
import { isRefusal } from '../refusals.ts';
import { formatAmount, minorUnits } from '../../modules/billing/settings.ts';
import type { RouteDeps } from '../deps.ts';
import { redirectWith, render } from '../page.ts';
import { NoOrganization, requireSignedIn } from '../session.ts';

export function portalBillingRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { billing, plans } = deps.services;
  /** The client's own account, for billing only (also while billing has it suspended). */
  const payer = (request: FastifyRequest) => {
    const who = requireSignedIn(request);
    if (!who.client) throw new NoOrganization();
    const principal = clientAccountPrincipal(who.client.orgId, who.client.id, who.user.id);
    return { client: who.client, principal };
  };

  return async (app) => {
    app.get<{ Querystring: { checkout?: string } }>('/portal/billing', async (request, reply) => {
      const { client, principal } = payer(request);
      const [plan, subscription, { payments }, connected] = await Promise.all([
        client.planId ? plans.get(principal, client.planId).catch(() => null) : Promise.resolve(null),
        billing.charges.subscriptionOf(client.orgId, client.id),
        billing.charges.payments(principal, client.id, 20, 0),
        billing.connections.mode(client.orgId),
      ]);
      const currency = await billing.currencyOf(client.orgId);
      return render(request, reply, 'portal-billing', {
        title: `Billing — ${client.orgName}`,
        agency: client.orgName,
        client,
        plan,
        price: plan ? formatAmount(minorUnits(plan.price, currency), currency) : null,
        subscription,
        payments,
        connected,
        money: formatAmount,
        justPaid: request.query.checkout === 'done',
      });
    });

    app.get('/portal/billing/pay', async (request, reply) => {
      const { principal } = payer(request);
      try {
        const link = await billing.charges.portalCheckout(principal);
        return reply.redirect(link.url, 303);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return redirectWith(reply, '/portal/billing', error.message);
      }
    });

    app.get('/portal/billing/manage', async (request, reply) => {
      const { principal } = payer(request);
      try {
        return reply.redirect(await billing.charges.portalSession(principal), 303);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return redirectWith(reply, '/portal/billing', error.message);
      }
    });
  };
}
