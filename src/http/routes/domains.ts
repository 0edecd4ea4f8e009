// Custom domains of a project's site.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { noBody, NoQuery } from '../route-rules.ts';
import { Body, Uuid } from '../../modules/common/schema.ts';
import { Domain } from '../../modules/domains/schema.ts';

const tags = ['domains'];

const ProjectParams = Type.Object({ projectId: Uuid() });
const DomainParams = Type.Object({ projectId: Uuid(), domainId: Uuid() });

export function domainsRoutes({ services: { domains } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/projects/:projectId/domains',
      {
        schema: {
          tags,
          summary: "List a project's custom domains",
          description: 'A plain JSON array, newest first.',
          params: ProjectParams,
          querystring: NoQuery,
          response: { 200: Type.Array(Domain), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => domains.list(principal(request), request.params.projectId),
    );

    app.post(
      '/projects/:projectId/domains',
      {
        schema: {
          tags,
          summary: 'Add a custom domain',
          description:
            "Validated (international names converted to punycode, a known public suffix, no IP addresses) and unique across the whole service (409 when another site holds it). Allowed when the client's plan has `can_use_custom_domain` (403 otherwise; clients without a plan may). Create the `dns_records`, then call verify (a background check also looks every DOMAIN_CHECK_INTERVAL).",
          params: ProjectParams,
          body: Body({ domain: Type.String({ minLength: 1, maxLength: 253 }) }),
          querystring: NoQuery,
          response: { 201: Domain, ...errorResponses(400, 403, 404, 409, 415) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await domains.add(principal(request), request.params.projectId, request.body.domain)),
    );

    app.post(
      '/projects/:projectId/domains/:domainId/verify',
      {
        ...noBody,
        config: { allowEmptyBody: true },
        schema: {
          tags,
          summary: 'Check the DNS of a custom domain now',
          description:
            "When the TXT and routing records are right the domain becomes `active`, `verified_at` is set, and the project's `custom_domain`, `custom_domain_status` and (if published) `published_url` follow. Each record's `status` says what was found.",
          params: DomainParams,
          querystring: NoQuery,
          response: { 200: Domain, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => domains.verify(principal(request), request.params),
    );

    app.delete(
      '/projects/:projectId/domains/:domainId',
      {
        ...noBody,
        schema: {
          tags,
          summary: 'Remove a custom domain',
          description:
            'The site stops answering on it at once; a published site goes back to its subdomain address.',
          params: DomainParams,
          querystring: NoQuery,
          response: {
            200: Type.Object({ deleted: Type.Boolean(), id: Uuid() }, { additionalProperties: false }),
            ...errorResponses(400, 403, 404, 415),
          },
        },
      },
      async (request) => {
        await domains.remove(principal(request), request.params);
        return { deleted: true, id: request.params.domainId };
      },
    );
  };
}
