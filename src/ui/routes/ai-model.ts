// Settings → AI model: the organization connects OpenAI or any OpenAI-compatible endpoint (a
// local Ollama, a gateway) with a test call, and chooses whether new sites use it instead of the
// builtin templates. Owners and admins change it; every member sees which model is connected.
// The set-up page sends a new owner here once, with a way to skip.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { canManage } from '../../modules/accounts/roles.ts';
import { InvalidInputError } from '../../modules/common/errors.ts';
import { OPENAI_URL } from '../../modules/generations/org-model.ts';
import type { RouteDeps } from '../deps.ts';
import { checkbox, text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat, seatPrincipal, type SignedInMember } from '../session.ts';

const sentence = (message: string) =>
  message.charAt(0).toUpperCase() +
  message.slice(1).replace(/^Field '(\w+)'/i, (_, f: string) => `The ${f.replace('_', ' ')}`);

export function aiModelRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { aiModels, generations } = deps.services;

  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    seat: SignedInMember,
    extra: { form?: Form; error?: string } = {},
  ) => {
    const connected = await aiModels.get(seatPrincipal(seat));
    const installation = (await generations.modelsFor(null)).models.filter((m) => m !== 'builtin');
    const setup = (request.query as { setup?: string }).setup === '1';
    const form =
      extra.form ??
      (connected
        ? {
            base_url: connected.base_url ?? '',
            model: connected.model,
            use_by_default: connected.use_by_default ? 'on' : '',
          }
        : { use_by_default: 'on' });
    return render(
      request,
      reply,
      'ai-model',
      {
        title: 'AI model',
        connected,
        installation,
        setup,
        form,
        error: extra.error,
        manage: canManage(seat.role),
        canKeepKeys: aiModels.canKeepKeys,
        secretsMissing: aiModels.secretsMissing,
        allowPrivate: aiModels.allowsPrivateEndpoints,
        openaiUrl: OPENAI_URL,
      },
      extra.error ? 400 : 200,
    );
  };

  return async (app) => {
    app.get('/settings/ai-model', async (request, reply) => page(request, reply, requireSeat(request)));

    app.post<{ Body: Form }>('/settings/ai-model', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const form = request.body ?? {};
      try {
        const model = await aiModels.connect(seatPrincipal(seat), {
          base_url: text(form, 'base_url') || null,
          api_key: text(form, 'api_key') || null,
          model: text(form, 'model'),
          use_by_default: checkbox(form, 'use_by_default'),
        });
        const then = model.use_by_default
          ? 'New generations use it; the builder offers the templates too.'
          : 'The builder offers it beside the templates.';
        return redirectWith(
          reply,
          '/settings/ai-model',
          `Connected: ${model.model} answered the test call. ${then}`,
        );
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        // The key is never sent back into the page.
        const { api_key: _key, ...kept } = form;
        return page(request, reply, seat, { form: kept, error: sentence(error.message) });
      }
    });

    app.post('/settings/ai-model/disconnect', async (request, reply) => {
      const seat = requireSeat(request, { manage: true });
      const removed = await aiModels.disconnect(seatPrincipal(seat));
      return redirectWith(
        reply,
        '/settings/ai-model',
        removed
          ? 'Disconnected. New generations use the builtin templates (offline).'
          : 'No AI model was connected.',
      );
    });
  };
}
