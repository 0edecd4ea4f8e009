// The embed session API, under /api/embed beside /api/v1: a host product's backend opens and
// closes sessions of the embeddable builder with an API key holding the `embed` permission.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { DeletedBody, errorResponses } from '../schemas.ts';
import { noBody, NoQuery } from '../route-rules.ts';
import { CreateEmbedSessionBody, EmbedSession, EmbedSessionParams } from '../../modules/embed/schema.ts';

const tags = ['embed'];
const config = { permission: 'embed' } as const;

export function embedSessionRoutes({ services: { embed } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/session',
      {
        config,
        schema: {
          tags,
          summary: 'Open an embed session',
          description:
            "For the host product's backend only (an API key with the `embed` permission; never from a browser). " +
            'The user is a client of the organization: found by `external_id`, else by `email` (and linked), ' +
            'else created (`active`, on the default plan; `client.created` fires). A suspended or churned ' +
            "client gets 403. `allowed_origins` must be a subset of the organization's embed origins (all of " +
            'them by default; a headless session needs none). The token (`embt_...`) is shown once: hand it to ' +
            'the frame through the host SDK (never in a URL), or, for a headless session, use it as a bearer ' +
            "on the /api/v1/projects routes of the client's own projects.",
          body: CreateEmbedSessionBody,
          querystring: NoQuery,
          response: {
            201: Type.Object({ session: EmbedSession }, { additionalProperties: false }),
            ...errorResponses(400, 403, 404, 409, 415),
          },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ session: await embed.create(principal(request), request.body) }),
    );

    app.delete(
      '/session/:sessionId',
      {
        ...noBody,
        config,
        schema: {
          tags,
          summary: 'Revoke an embed session',
          description:
            'The frame and a headless token stop at their next request. Suspending or churning the client ' +
            'revokes its sessions too.',
          params: EmbedSessionParams,
          querystring: NoQuery,
          response: { 200: DeletedBody, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        await embed.revoke(principal(request), request.params.sessionId);
        return { deleted: true as const, id: request.params.sessionId };
      },
    );
  };
}
