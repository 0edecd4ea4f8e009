// The pages of an embed frame besides the builder itself: the session's websites (a full session
// opened without a project), a new website, and the stylesheet of the session's theme.
import type { FastifyPluginAsync } from 'fastify';
import { notAllowed } from '../../modules/common/errors.ts';
import type { RouteDeps } from '../deps.ts';
import { text, type Form } from '../forms.ts';
import { render } from '../page.ts';
import { frameSession, requireFrameSession } from '../builder/embed-scope.ts';

type Frame = { sid: string };

export function embedPageRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { services } = deps;
  return async (app) => {
    app.get<{ Params: Frame }>('/embed/s/:sid/projects', async (request, reply) => {
      const { sid } = request.params;
      const session = await requireFrameSession(request, reply, services, sid);
      if (session.projectId) return reply.redirect(`/embed/s/${sid}/projects/${session.projectId}`, 303);
      const { projects } = await services.projects.list(session.principal, {}, 100, 0);
      return render(request, reply, 'embed-projects', {
        title: 'Your websites',
        projects,
        frame: `/embed/s/${sid}`,
        canCreate: session.abilities.includes('edit') && session.mode === 'full',
        embed: session,
      });
    });

    app.post<{ Params: Frame; Body: Form }>('/embed/s/:sid/projects', async (request, reply) => {
      const { sid } = request.params;
      const session = await requireFrameSession(request, reply, services, sid);
      if (session.mode !== 'full') throw notAllowed('This session shows the preview pane only.');
      const client = await services.clients.get(session.principal, session.clientId);
      const name = text(request.body ?? {}, 'name').trim() || 'My website';
      const project = await services.projects.create(session.principal, {
        name: name.slice(0, 200),
        client_email: client.email,
      });
      return reply.redirect(`/embed/s/${sid}/projects/${project.id}`, 303);
    });

    // The session's accent and light or dark mode, as a stylesheet (the pages allow no inline style).
    app.get<{ Params: Frame }>('/embed/s/:sid/theme.css', async (request, reply) => {
      const session = await frameSession(request, services, request.params.sid);
      const theme = session?.theme ?? { accent: null, mode: 'light' };
      const rules = [
        theme.accent ? `:root{--accent:${theme.accent};--accent-dark:${theme.accent};}` : '',
        theme.mode === 'dark' ? DARK : '',
      ]
        .filter(Boolean)
        .join('\n');
      return reply.type('text/css; charset=utf-8').header('cache-control', 'no-store').send(rules);
    });
  };
}

/** The dark mode of the pages' colours (app.css's variables). */
const DARK = `:root{--bg:#11151c;--surface:#1a2029;--text:#e8ecf1;--muted:#a4aebb;--border:#2f3845;--accent-soft:#1f2740;color-scheme:dark;}`;
