// Where the builder answers and who may use it there. The same pages and actions are mounted
// twice: at /app/projects/{id} for agency members and portal clients (their session cookie), and at
// /embed/projects/{id} for a host product's user in an embed frame (the frame's partitioned
// cookie, builder/embed-scope.ts), where they may be framed by the session's origins only.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../modules/index.ts';
import { builderScope, type BuilderScope } from './scope.ts';
import { embedScope } from './embed-scope.ts';

export interface BuilderMount {
  /** The project's route, `:id` its parameter. */
  route: string;
  /** The preview pane alone is served here too (`{route}/preview`, the embed_preview_path). */
  pane: boolean;
  /** Who is asking for project `id` here; `pane`: the preview pane alone is asked for. */
  scope(request: FastifyRequest, reply: FastifyReply, id: string, pane?: boolean): Promise<BuilderScope>;
}

export function appMount(services: Services): BuilderMount {
  return {
    route: '/app/projects/:id',
    pane: false,
    scope: (request, _reply, id) => builderScope(request, services, id),
  };
}

export function embedMount(services: Services): BuilderMount {
  return {
    route: '/embed/projects/:id',
    pane: true,
    scope: (request, reply, id, pane = false) => embedScope(request, reply, services, id, pane),
  };
}
