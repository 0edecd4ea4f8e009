// Templates (snapshots of projects that new sites start from) and plans (what clients are sold).
// Plans are changed by owners and admins; every member sees them.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError, notFound } from '../../modules/common/errors.ts';
import { MAX_LIMIT } from '../../modules/common/paging.ts';
import { CreatePlanBody, UpdatePlanBody } from '../../modules/plans/schema.ts';
import { CreateTemplateBody, UpdateTemplateBody } from '../../modules/templates/schema.ts';
import type { RouteDeps } from '../deps.ts';
import { checkbox, validForm, nullable, number, optional, text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat, seatPrincipal } from '../session.ts';
import { idFromUrl } from '../ids.ts';
import type { Principal } from '../../modules/access/principal.ts';

export function catalogRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { templates, plans, projects } = deps.services;
  const templatesPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    asking: Principal,
    error?: string,
  ) => {
    const [list, projectPage] = await Promise.all([
      templates.list(asking, MAX_LIMIT, 0),
      projects.list(seatPrincipal(requireSeat(request)), {}, 100, 0),
    ]);
    return render(
      request,
      reply,
      'templates',
      {
        title: 'Templates',
        templates: list.records,
        total: list.total,
        projects: projectPage.projects,
        error,
      },
      error ? 400 : 200,
    );
  };
  const plansPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    asking: Principal,
    error?: string,
  ) => {
    const list = await plans.list(asking, MAX_LIMIT, 0);
    return render(
      request,
      reply,
      'plans',
      { title: 'Plans', plans: list.records, canManage: requireSeat(request).role !== 'member', error },
      error ? 400 : 200,
    );
  };
  const planFields = (form: Form) => ({
    name: text(form, 'name'),
    description: nullable(form, 'description'),
    price: number(form, 'price') ?? 0,
    interval: optional(form, 'interval') ?? 'monthly',
    max_sites: number(form, 'max_sites') ?? 0,
    max_ai_messages_daily: number(form, 'max_ai_messages_daily') ?? 0,
    can_export_code: checkbox(form, 'can_export_code'),
    can_use_custom_domain: checkbox(form, 'can_use_custom_domain'),
  });

  return async (app) => {
    app.get('/templates', async (request, reply) =>
      templatesPage(request, reply, seatPrincipal(requireSeat(request))),
    );
    app.post<{ Body: Form }>('/templates', async (request, reply) => {
      const seat = requireSeat(request);
      const form = request.body ?? {};
      try {
        const body = validForm(CreateTemplateBody, {
          name: text(form, 'name'),
          ...(optional(form, 'description') ? { description: optional(form, 'description') } : {}),
          ...(optional(form, 'category') ? { category: optional(form, 'category') } : {}),
          ...(optional(form, 'source_project_id')
            ? { source_project_id: optional(form, 'source_project_id') }
            : {}),
          is_public: checkbox(form, 'is_public'),
        });
        const template = await templates.create(seatPrincipal(seat), body);
        return redirectWith(reply, `/templates/${template.id}`, `Template ${template.name} created.`);
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return templatesPage(request, reply, seatPrincipal(seat), error.message);
      }
    });
    app.get<{ Params: { id: string } }>('/templates/:id', async (request, reply) => {
      const seat = requireSeat(request);
      const template = await templates.get(seatPrincipal(seat), idFromUrl(request.params.id, 'Template'));
      return render(request, reply, 'template', { title: template.name, template });
    });
    app.post<{ Params: { id: string }; Body: Form }>('/templates/:id', async (request, reply) => {
      const seat = requireSeat(request);
      const templateId = idFromUrl(request.params.id, 'Template');
      const form = request.body ?? {};
      try {
        await templates.update(
          seatPrincipal(seat),
          templateId,
          validForm(UpdateTemplateBody, {
            name: text(form, 'name'),
            description: nullable(form, 'description'),
            category: text(form, 'category').trim() || 'other',
            is_public: checkbox(form, 'is_public'),
          }),
        );
        return redirectWith(reply, `/templates/${templateId}`, 'Template saved.');
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        const template = await templates.get(seatPrincipal(seat), templateId);
        return render(
          request,
          reply,
          'template',
          { title: template.name, template, error: error.message },
          400,
        );
      }
    });
    app.get<{ Params: { id: string } }>('/templates/:id/delete', async (request, reply) => {
      const seat = requireSeat(request);
      const template = await templates.get(seatPrincipal(seat), idFromUrl(request.params.id, 'Template'));
      return render(request, reply, 'confirm', {
        title: `Delete ${template.name}?`,
        message: 'The template and its files are deleted. Projects made from it keep their files.',
        action: `/templates/${template.id}/delete`,
        button: 'Delete template',
        back: `/templates/${template.id}`,
      });
    });
    app.post<{ Params: { id: string } }>('/templates/:id/delete', async (request, reply) => {
      const seat = requireSeat(request);
      await templates.delete(seatPrincipal(seat), idFromUrl(request.params.id, 'Template'));
      return redirectWith(reply, '/templates', 'Template deleted.');
    });

    app.get('/plans', async (request, reply) =>
      plansPage(request, reply, seatPrincipal(requireSeat(request))),
    );
    app.post<{ Body: Form }>('/plans', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      try {
        const plan = await plans.create(
          seatPrincipal(seat),
          validForm(CreatePlanBody, planFields(request.body ?? {})),
        );
        return redirectWith(reply, `/plans/${plan.id}`, `Plan ${plan.name} created.`);
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return plansPage(request, reply, seatPrincipal(seat), error.message);
      }
    });
    app.get<{ Params: { id: string } }>('/plans/:id', async (request, reply) => {
      const seat = requireSeat(request);
      const plan = await plans.get(seatPrincipal(seat), idFromUrl(request.params.id, 'Plan'));
      return render(request, reply, 'plan', { title: plan.name, plan, canManage: seat.role !== 'member' });
    });
    app.post<{ Params: { id: string }; Body: Form }>('/plans/:id', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const planId = idFromUrl(request.params.id, 'Plan');
      const form = request.body ?? {};
      try {
        await plans.update(
          seatPrincipal(seat),
          planId,
          validForm(UpdatePlanBody, {
            ...planFields(form),
            is_active: checkbox(form, 'is_active'),
            sort_order: number(form, 'sort_order') ?? 0,
          }),
        );
        return redirectWith(reply, `/plans/${planId}`, 'Plan saved.');
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        const plan = await plans.get(seatPrincipal(seat), planId);
        return render(
          request,
          reply,
          'plan',
          { title: plan.name, plan, canManage: true, error: error.message },
          400,
        );
      }
    });
    app.post<{ Params: { id: string } }>('/plans/:id/default', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const plan = await plans.update(seatPrincipal(seat), idFromUrl(request.params.id, 'Plan'), {
        is_default: true,
      });
      return redirectWith(reply, '/plans', `${plan.name} is now the default plan.`);
    });
    app.post<{ Params: { id: string }; Body: Form }>('/plans/:id/move', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const planId = idFromUrl(request.params.id, 'Plan');
      const list = (await plans.list(seatPrincipal(seat), MAX_LIMIT, 0)).records;
      const at = list.findIndex((p) => p.id === planId);
      if (at < 0) throw notFound('Plan');
      const to = text(request.body ?? {}, 'direction') === 'up' ? at - 1 : at + 1;
      if (to >= 0 && to < list.length) {
        // Positions are rewritten as 0, 1, 2... in the new order: ties in sort_order become explicit.
        const order = list.map((p) => p.id);
        [order[at], order[to]] = [order[to]!, order[at]!];
        for (const [i, planInOrder] of order.entries())
          await plans.update(seatPrincipal(seat), planInOrder, { sort_order: i });
      }
      return redirectWith(reply, '/plans', 'Order saved.');
    });
  };
}
