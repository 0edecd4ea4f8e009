// Clients: list with search, status filter and pages; create; edit status and plan; invite to the
// portal; the client's projects. Every change goes through ClientsService / PortalService, so the
// rules (unique email, attachable plans, events) are the API's.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_STATUSES, CreateClientBody, UpdateClientBody } from '../../modules/clients/schema.ts';
import { InvalidInputError } from '../../modules/common/errors.ts';
import { isRefusal } from '../refusals.ts';
import { formatAmount } from '../../modules/billing/settings.ts';
import { MAX_LIMIT } from '../../modules/common/paging.ts';
import type { RouteDeps } from '../deps.ts';
import { validForm, nullable, optional, text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { pager, paging } from '../paging.ts';
import { requireSeat, seatPrincipal, type SignedInMember } from '../session.ts';
import { idFromUrl } from '../ids.ts';
import type { Principal } from '../../modules/access/principal.ts';

type Query = { q?: string; status?: string; page?: string };

export function clientRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { clients, plans, projects, portal, billing } = deps.services;
  // Plans are few (a select in a form): the first page of the list, at its largest.
  const plansOf = async (asking: Principal) => (await plans.list(asking, MAX_LIMIT, 0)).records;
  return async (app) => {
    app.get<{ Querystring: Query }>('/clients', async (request, reply) => {
      const seat = requireSeat(request);
      const q = (request.query.q ?? '').slice(0, 200);
      const status = (CLIENT_STATUSES as readonly string[]).includes(request.query.status ?? '')
        ? request.query.status
        : undefined;
      const p = paging(request.query);
      const [page, planList] = await Promise.all([
        clients.search(seatPrincipal(seat), { q, status }, p.limit, p.offset),
        plansOf(seatPrincipal(seat)),
      ]);
      const planNames = Object.fromEntries(planList.map((plan) => [plan.id, plan.name]));
      return render(request, reply, 'clients', {
        title: 'Clients',
        clients: page.clients,
        planNames,
        q,
        status,
        statuses: CLIENT_STATUSES,
        pager: pager(p, page.total, { q, status }),
      });
    });

    app.get('/clients/new', async (request, reply) => {
      const seat = requireSeat(request);
      return render(request, reply, 'client-new', {
        title: 'New client',
        form: {},
        plans: (await plansOf(seatPrincipal(seat))).filter((p) => p.is_active),
      });
    });
    app.post<{ Body: Form }>('/clients', async (request, reply) => {
      const seat = requireSeat(request);
      const form = request.body ?? {};
      try {
        const body = validForm(CreateClientBody, {
          email: text(form, 'email').trim(),
          name: nullable(form, 'name'),
          company: nullable(form, 'company'),
          plan_id: nullable(form, 'plan_id'),
        });
        const client = await clients.create(seatPrincipal(seat), body);
        return redirectWith(reply, `/clients/${client.id}`, `Client ${client.email} created.`);
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        const planList = (await plansOf(seatPrincipal(seat))).filter((p) => p.is_active);
        return render(
          request,
          reply,
          'client-new',
          { title: 'New client', form, plans: planList, error: error.message },
          400,
        );
      }
    });

    const clientPage = async (
      request: FastifyRequest,
      reply: FastifyReply,
      seat: SignedInMember,
      id: string,
      extra: { error?: string; paymentLink?: { url: string; expires_at: string } } = {},
    ) => {
      const asking = seatPrincipal(seat);
      const client = await clients.get(asking, id);
      const [planList, owned, invitation, billingView] = await Promise.all([
        plansOf(asking),
        projects.list(asking, { clientId: id }, 100, 0),
        portal.pendingInvitation(seat.orgId, id),
        billing.clientBilling(asking, id),
      ]);
      const { currency } = await billing.settings(asking);
      return render(
        request,
        reply,
        'client',
        {
          title: client.name ?? client.email,
          client,
          plans: planList,
          projects: owned.projects,
          projectCount: owned.total,
          statuses: CLIENT_STATUSES,
          invitation,
          billing: billingView,
          currency,
          money: formatAmount,
          ...extra,
        },
        extra.error ? 400 : 200,
      );
    };

    app.get<{ Params: { id: string } }>('/clients/:id', async (request, reply) =>
      clientPage(request, reply, requireSeat(request), idFromUrl(request.params.id, 'Client')),
    );

    // Copy link: a fresh Checkout link shown on the page (the browser never leaves it).
    app.post<{ Params: { id: string } }>('/clients/:id/payment-link', async (request, reply) => {
      const seat = requireSeat(request);
      const id = idFromUrl(request.params.id, 'Client');
      try {
        const link = await billing.charges.checkout(seatPrincipal(seat), id, {});
        return clientPage(request, reply, seat, id, { paymentLink: link });
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return redirectWith(reply, `/clients/${id}`, error.message);
      }
    });

    app.post<{ Params: { id: string } }>('/clients/:id/payment-link/send', async (request, reply) => {
      const seat = requireSeat(request);
      const id = idFromUrl(request.params.id, 'Client');
      try {
        const sent = await billing.charges.sendLink(seatPrincipal(seat), id);
        return redirectWith(reply, `/clients/${id}`, `Payment link sent to ${sent.email}.`);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return redirectWith(reply, `/clients/${id}`, error.message);
      }
    });

    // A link, not a form: the redirect to Stripe's billing portal leaves the site.
    app.get<{ Params: { id: string } }>('/clients/:id/billing-portal', async (request, reply) => {
      const seat = requireSeat(request);
      const id = idFromUrl(request.params.id, 'Client');
      try {
        return reply.redirect(await billing.charges.portalSession(seatPrincipal(seat), id), 303);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return redirectWith(reply, `/clients/${id}`, error.message);
      }
    });

    app.post<{ Params: { id: string }; Body: Form }>('/clients/:id', async (request, reply) => {
      const seat = requireSeat(request);
      const id = idFromUrl(request.params.id, 'Client');
      const form = request.body ?? {};
      try {
        const body = validForm(UpdateClientBody, {
          name: nullable(form, 'name'),
          company: nullable(form, 'company'),
          status: optional(form, 'status'),
          plan_id: nullable(form, 'plan_id'),
        });
        await clients.update(seatPrincipal(seat), id, body);
        return redirectWith(reply, `/clients/${id}`, 'Client saved.');
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return clientPage(request, reply, seat, id, { error: error.message });
      }
    });
    app.post<{ Params: { id: string } }>('/clients/:id/invite', async (request, reply) => {
      const seat = requireSeat(request);
      const id = idFromUrl(request.params.id, 'Client');
      try {
        const invitation = await portal.invite(seatPrincipal(seat), id);
        return redirectWith(reply, `/clients/${id}`, `Invitation sent to ${invitation.email}.`);
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return redirectWith(reply, `/clients/${id}`, error.message);
      }
    });
  };
}
