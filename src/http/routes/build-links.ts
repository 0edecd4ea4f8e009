// Build links made through the API, so that an agent (or the agency's own software) can hand a
// person a link that starts their website.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { NoQuery } from '../route-rules.ts';
import { BuildLink, CreateBuildLinkBody } from '../../modules/build-links/schema.ts';

export function buildLinksRoutes({ services: { buildLinks } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/build-links',
      {
        schema: {
          tags: ['build links'],
          summary: 'Create a build link for a prompt',
          description:
            'Answers `201 {"url"}`: the organization\'s build link (`{PUBLIC_URL}/build?prompt=...&org=...`, with `model` and `template` when given) for the prompt. Opening it creates a project seeded with the prompt and starts the build: a signed-in client gets its project at once (its plan\'s `max_sites` and daily AI limit apply), an agency member chooses the client, a signed-out visitor signs in (or signs up as a new client, when the organization allows sign-ups through its build link) and then resumes. A prompt too long for a URL is kept on the server and the link is `{PUBLIC_URL}/build?link=...` (valid 90 days). `model` must be configured; `template_id` must be a public template (`is_public`) of the organization (else 404).',
          body: CreateBuildLinkBody,
          querystring: NoQuery,
          response: { 201: BuildLink, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await buildLinks.create(principal(request), request.body)),
    );
  };
}
