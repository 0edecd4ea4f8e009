// The button generator: the organization's build link, with an optional preset prompt or public
// template, as a link to copy and as the HTML of a "Build your website" button in the agency's
// name; and the setting that lets visitors of the link sign up as new clients (owners and admins).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError } from '../../modules/common/errors.ts';
import { MAX_BUILD_PROMPT } from '../../modules/build-links/schema.ts';
import { canManage } from '../../modules/accounts/roles.ts';
import { MAX_LIMIT } from '../../modules/common/paging.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { RouteDeps } from '../deps.ts';
import { checkbox, optional, text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat, seatPrincipal } from '../session.ts';

export function buildLinkSettingsRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { buildLinks, templates } = deps.services;
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    prompt: string,
    templateId: string | undefined,
    signUpError?: string,
  ) => {
    const seat = requireSeat(request);
    const all = await templates.list(seatPrincipal(seat), MAX_LIMIT, 0);
    const publicTemplates = all.records.filter((t) => t.is_public);
    const template = publicTemplates.find((t) => t.id === templateId);
    let url: string;
    if (prompt) {
      url = (
        await buildLinks.create(seatPrincipal(seat), {
          prompt,
          ...(template ? { template_id: template.id } : {}),
        })
      ).url;
    } else {
      const query = new URLSearchParams({ org: seat.orgId });
      if (template) query.set('template', template.id);
      url = `${deps.config.publicUrl}/build?${query}`;
    }
    const label = `Build your website with ${seat.orgName}`;
    const snippet = `<a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 22px;border-radius:8px;background:#3b4fd8;color:#ffffff;font:600 16px/1.2 system-ui,-apple-system,'Segoe UI',sans-serif;text-decoration:none">${escapeHtml(label)}</a>`;
    return render(
      request,
      reply,
      'build-link',
      {
        title: 'Build link',
        url,
        snippet,
        label,
        prompt,
        templateId: template?.id ?? '',
        templates: publicTemplates,
        signUps: await buildLinks.allowsSignUp(seat.orgId),
        manage: canManage(seat.role),
        error: signUpError,
      },
      signUpError ? 400 : 200,
    );
  };

  return async (app) => {
    // Looking at the page stores nothing; a link whose prompt is too long for a URL is kept
    // only when the form is posted.
    app.get('/settings/build-link', async (request, reply) => page(request, reply, '', undefined));
    app.post<{ Body: Form }>('/settings/build-link', async (request, reply) => {
      const form = request.body ?? {};
      return page(
        request,
        reply,
        text(form, 'prompt').slice(0, MAX_BUILD_PROMPT).trim(),
        optional(form, 'template'),
      );
    });

    app.post<{ Body: Form }>('/settings/build-link/sign-ups', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const allowed = checkbox(request.body ?? {}, 'sign_ups');
      try {
        await buildLinks.setSignUps(seatPrincipal(seat), allowed);
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return page(request, reply, '', undefined, error.message);
      }
      return redirectWith(
        reply,
        '/settings/build-link',
        allowed
          ? 'Visitors of the build link can now sign up as new clients.'
          : 'Only signed-in clients and members can use the build link now.',
      );
    });
  };
}
