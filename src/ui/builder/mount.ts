// Where the builder answers and who may use it there. The same pages and actions are mounted
// twice: at /app/projects/{id} for agency members and portal clients (their session cookie), and
// at /embed/s/{frame}/projects/{id} for a host product's user in an embed frame (the frame's
// partitioned cookie, builder/embed-scope.ts), where they may be framed by the session's origins only.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../modules/index.ts';
import { builderScope, type BuilderScope } from './scope.ts';
import { embedScope } from './embed-scope.ts';

/** A builder route's parameters: the project, and in a frame the frame's session. */
export type BuilderParams = { id: string; sid?: string };

export interface BuilderMount {
  /** The project's route, `:id` its parameter (`:sid` the frame's, in a frame). */
  route: string;
  /** Where the preview pane alone answers (the publish API's embed_preview_path, and a frame's). */
  paneRoute: string;
  /** Who is asking for the project here; `pane`: for the preview pane or what it uses. */
  scope(
    request: FastifyRequest,
    reply: FastifyReply,
    params: BuilderParams,
    pane?: boolean,
  ): Promise<BuilderScope>;
}

export function appMount(services: Services): BuilderMount {
  return {
    route: '/app/projects/:id',
    paneRoute: '/embed/projects/:id/preview',
    scope: (request, _reply, params) => builderScope(request, services, params.id),
  };
}

export function embedMount(services: Services): BuilderMount {
  return {
    route: '/embed/s/:sid/projects/:id',
    paneRoute: '/embed/s/:sid/projects/:id/preview',
    scope: (request, reply, params, pane = false) =>
      embedScope(request, reply, services, { sid: params.sid ?? '', id: params.id }, pane),
  };
}
