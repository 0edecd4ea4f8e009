// The button generator: the organization's build link, with an optional preset prompt or public
// template, as a link to copy and as the HTML of a "Build your website" button in the agency's
// name; and the setting that lets visitors of the link sign up as new clients (owners and admins).
import type { FastifyPluginAsync } from 'fastify';
import { canManage } from '../../modules/accounts/roles.ts';
import { MAX_LIMIT } from '../../modules/common/paging.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { RouteDeps } from '../plugin.ts';
import { checkbox, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat } from '../session.ts';

type Query = { prompt?: string; template?: string };

export function buildLinkSettingsRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { buildLinks, templates } = deps.services;
  return async (app) => {
    app.get<{ Querystring: Query }>('/settings/build-link', async (request, reply) => {
      const seat = requireSeat(request);
      const prompt = (request.query.prompt ?? '').slice(0, 50_000).trim();
      const all = await templates.list(seat.orgId, MAX_LIMIT, 0);
      const publicTemplates = all.records.filter((t) => t.is_public);
      const template = publicTemplates.find((t) => t.id === request.query.template);
      let url: string;
      if (prompt) {
        url = (await buildLinks.create(seat.orgId, { prompt, ...(template ? { template_id: template.id } : {}) })).url;
      } else {
        const query = new URLSearchParams({ org: seat.orgId });
        if (template) query.set('template', template.id);
        url = `${deps.config.publicUrl}/build?${query}`;
      }
      const label = `Build your website with ${seat.orgName}`;
      const snippet = `<a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 22px;border-radius:8px;background:#3b4fd8;color:#ffffff;font:600 16px/1.2 system-ui,-apple-system,'Segoe UI',sans-serif;text-decoration:none">${escapeHtml(label)}</a>`;
      return render(request, reply, 'build-link', {
        title: 'Build link',
        url,
        snippet,
        label,
        prompt,
        templateId: template?.id ?? '',
        templates: publicTemplates,
        signUps: await buildLinks.allowsSignUp(seat.orgId),
        manage: canManage(seat.role),
      });
    });

    app.post<{ Body: Form }>('/settings/build-link/sign-ups', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const allowed = checkbox(request.body ?? {}, 'sign_ups');
      await buildLinks.setSignUps(seat.orgId, allowed);
      return redirectWith(reply, '/settings/build-link', allowed ? 'Visitors of the build link can now sign up as new clients.' : 'Only signed-in clients and members can use the build link now.');
    });
  };
}
