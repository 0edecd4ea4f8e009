// Who may use the builder in an embed frame: the embed session of the frame's cookie (set by the
// frame's exchange, embed/, under the frame's own path /embed/s/{frame}), for its client's
// projects, the one project it was opened for when it names one, and the preview pane alone when
// it is a hybrid session. Its answers may be framed by the session's allowed origins and no one else.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotAllowedError, notFound } from '../../modules/common/errors.ts';
import type { Services } from '../../modules/index.ts';
import type { LiveSession } from '../../modules/embed/service.ts';
import { embedCookieOf } from '../../web/embed-cookie.ts';
import { allowFraming } from '../page.ts';
import { idFromUrl } from '../ids.ts';
import type { BuilderScope } from './scope.ts';

/**
 * Thrown when a frame's session is over (expired, revoked, its client suspended): a 401 page,
 * which the origins the frame was opened for may still frame, so that the host's user reads it.
 */
export class EmbedSessionOver extends Error {
  constructor(readonly origins: readonly string[]) {
    super('embed session over');
  }
}

/** The live session of frame `frameId`'s cookie, if any. */
export async function frameSession(
  request: FastifyRequest,
  services: Services,
  frameId: string,
): Promise<LiveSession | undefined> {
  const secret = embedCookieOf(request);
  return secret ? services.embed.resolveCookie(secret, frameId) : undefined;
}

/** Frame `frameId`'s session, framing allowed for its origins; a 401 page when there is none. */
export async function requireFrameSession(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  frameId: string,
): Promise<LiveSession> {
  const session = await frameSession(request, services, frameId);
  if (!session) throw new EmbedSessionOver(await services.embed.endedFrameOrigins(frameId));
  allowFraming(reply, session.allowedOrigins);
  return session;
}

export async function embedScope(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  frame: { sid: string; id: string },
  pane: boolean,
): Promise<BuilderScope> {
  const session = await requireFrameSession(request, reply, services, frame.sid);
  const id = idFromUrl(frame.id, 'Project');
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
    base: `/embed/s/${frame.sid.toLowerCase()}/projects/${project.id}`,
    frameId: frame.sid.toLowerCase(),
    embed: session,
  };
}
