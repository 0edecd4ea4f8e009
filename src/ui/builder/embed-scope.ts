// Who may use the builder in an embed frame: the embed session of the frame's cookie (set by the
// frame's exchange, embed/), for its client's projects, the one project it was opened for when it
// names one, and the preview pane alone when it is a hybrid session. Its answers may be framed by
// the session's allowed origins and no one else. Without a session, a signed-in member or client
// may still open the preview pane here (embed_preview_path), never framed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotAllowedError, notFound } from '../../modules/common/errors.ts';
import type { Services } from '../../modules/index.ts';
import type { LiveSession } from '../../modules/embed/service.ts';
import { embedCookieOf } from '../../web/embed-cookie.ts';
import { allowFraming } from '../page.ts';
import { idFromUrl } from '../ids.ts';
import { builderScope, type BuilderScope } from './scope.ts';

/** Thrown when a frame's session is over (expired, revoked, its client suspended): a 401 page. */
export class EmbedSessionOver extends Error {}

/** The live session of the frame's cookie, if any. */
export async function frameSession(
  request: FastifyRequest,
  services: Services,
): Promise<LiveSession | undefined> {
  const secret = embedCookieOf(request);
  return secret ? services.embed.resolveCookie(secret) : undefined;
}

/** The frame's session, framing allowed for its origins; a 401 page when there is none. */
export async function requireFrameSession(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
): Promise<LiveSession> {
  const session = await frameSession(request, services);
  if (!session) throw new EmbedSessionOver();
  allowFraming(reply, session.allowedOrigins);
  return session;
}

export async function embedScope(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  rawId: string,
  pane: boolean,
): Promise<BuilderScope> {
  const session = await frameSession(request, services);
  if (!session) {
    // embed_preview_path outside a frame: the signed-in member's or client's, or sign in first.
    if (pane && !embedCookieOf(request)) return builderScope(request, services, rawId);
    throw new EmbedSessionOver();
  }
  allowFraming(reply, session.allowedOrigins);
  const id = idFromUrl(rawId, 'Project');
  if (session.projectId !== null && session.projectId !== id) throw notFound('Project');
  if (session.mode === 'hybrid' && !pane)
    throw new NotAllowedError('This session shows the preview pane only.');
  const project = await services.projects.get(session.principal, id);
  return {
    principal: session.principal,
    orgId: session.orgId,
    orgName: '',
    project,
    asClient: true,
    base: `/embed/projects/${project.id}`,
    embed: session,
  };
}
