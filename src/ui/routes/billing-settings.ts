// Settings → Billing: the organization's Stripe account (its own restricted key, or Connect with
// Stripe when the operator offers it), the currency its plans are billed in, and what billing does
// to clients' sites. Every member sees the state; owners change it.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError } from '../../modules/common/errors.ts';
import { isRefusal } from '../refusals.ts';
import type { BillingSettings } from '../../modules/billing/settings.ts';
import type { RouteDeps } from '../deps.ts';
import { checkbox, optional, text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat, seatPrincipal, type SignedInMember } from '../session.ts';

const PATH = '/settings/billing';

export function billingSettingsRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { billing } = deps.services;
  const callbackUrl = `${new URL(deps.config.publicUrl).origin}${PATH}/connect/callback`;

  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    seat: SignedInMember,
    extra: { error?: string; settingsError?: string; form?: Form } = {},
  ) => {
    const principal = seatPrincipal(seat);
    const connection = await billing.connections.get(principal);
    const settings = await billing.settings(principal);
    return render(
      request,
      reply,
      'billing-settings',
      {
        title: 'Billing',
        connection,
        settings: extra.form ? { ...settings, ...formSettings(extra.form, false) } : settings,
        owner: seat.role === 'owner',
        canKeepSecrets: billing.connections.canKeepSecrets,
        secretsMissing: billing.connections.secretsMissing,
        connectOffered: billing.connections.connectOffered,
        error: extra.error,
        settingsError: extra.settingsError,
      },
      extra.error || extra.settingsError ? 400 : 200,
    );
  };

  return async (app) => {
    app.get(PATH, async (request, reply) => page(request, reply, requireSeat(request)));

    app.post<{ Body: Form }>(`${PATH}/connect`, async (request, reply) => {
      const seat = requireSeat(request);
      try {
        const { connection, warning } = await billing.connectKey(
          seatPrincipal(seat),
          text(request.body ?? {}, 'key'),
        );
        const mode = connection.livemode ? 'live mode' : 'test mode';
        const name = connection.account_name ?? connection.account_id;
        return redirectWith(reply, PATH, `Connected to ${name} (${mode}).${warning ? ` ${warning}` : ''}`);
      } catch (error) {
        // The key is never sent back into the page.
        if (!isRefusal(error)) throw error;
        return page(request, reply, seat, { error: sentence(error.message) });
      }
    });

    // Connect with Stripe: a link (not a form) so that the browser may follow the redirect off-site.
    app.get(`${PATH}/connect`, async (request, reply) => {
      const seat = requireSeat(request);
      try {
        return reply.redirect(billing.connections.connectUrl(seatPrincipal(seat), callbackUrl), 303);
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return page(request, reply, seat, { error: sentence(error.message) });
      }
    });

    app.get<{ Querystring: Record<string, string | undefined> }>(
      `${PATH}/connect/callback`,
      async (request, reply) => {
        const seat = requireSeat(request);
        const { code, state, error_description: refused } = request.query;
        if (!code || !state)
          return page(request, reply, seat, {
            error: refused ? `Stripe said: ${refused}` : 'Stripe did not connect an account; try again',
          });
        try {
          const connection = await billing.finishConnect(seatPrincipal(seat), code, state);
          const mode = connection.livemode ? 'live mode' : 'test mode';
          return redirectWith(reply, PATH, `Connected with Stripe: ${connection.account_id} (${mode}).`);
        } catch (error) {
          if (!isRefusal(error)) throw error;
          return page(request, reply, seat, { error: sentence(error.message) });
        }
      },
    );

    app.post(`${PATH}/disconnect`, async (request, reply) => {
      const seat = requireSeat(request);
      const { disconnected, stripe } = await billing.connections.disconnect(seatPrincipal(seat));
      const said = {
        removed: 'its webhook endpoint was removed from the Stripe account',
        deauthorized: 'Sitewright’s access to the Stripe account was revoked',
        failed:
          'its webhook endpoint could not be removed from the Stripe account (delete it in the Stripe Dashboard, Developers → Webhooks)',
        none: 'nothing was left on the Stripe account',
      }[stripe];
      return redirectWith(
        reply,
        PATH,
        disconnected
          ? `Billing disconnected: ${said}, and the key forgotten. Existing subscriptions keep running on Stripe.`
          : 'Billing was not connected.',
      );
    });

    app.post<{ Body: Form }>(`${PATH}/settings`, async (request, reply) => {
      const seat = requireSeat(request);
      const form = request.body ?? {};
      try {
        await billing.updateSettings(seatPrincipal(seat), formSettings(form, true));
        return redirectWith(reply, PATH, 'Billing settings saved.');
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return page(request, reply, seat, { settingsError: sentence(error.message), form });
      }
    });
  };
}

/** The settings form as a change; `strict`: a bad number is refused (else kept as given for the page). */
function formSettings(form: Form, strict: boolean): Partial<BillingSettings> {
  const days = optional(form, 'past_due_days');
  const parsed = days === undefined ? null : Number(days);
  return {
    currency: text(form, 'currency') || 'usd',
    publish_on_first_payment: checkbox(form, 'publish_on_first_payment'),
    suspend_on_cancel: checkbox(form, 'suspend_on_cancel'),
    unpublish_on_cancel: checkbox(form, 'unpublish_on_cancel'),
    restore_on_payment: checkbox(form, 'restore_on_payment'),
    past_due_days: strict || Number.isInteger(parsed) ? (parsed as number | null) : null,
  };
}

const sentence = (message: string) => {
  const named = message.replace(/^field '(\w+)'/i, (_, f: string) => `the ${f.replace(/_/g, ' ')}`);
  return named.charAt(0).toUpperCase() + named.slice(1);
};
