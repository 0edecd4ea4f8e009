import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { wholeListBody, wholeListHandler, WHOLE_LIST_DOC } from '../list-stream.ts';
import { WholeListQuery } from '../../modules/common/paging.ts';
import { errorResponses } from '../schemas.ts';
import { noBody, NoQuery, pagedList } from '../route-rules.ts';
import {
  Client,
  ClientInvitation,
  ClientParams,
  CreateClientBody,
  UpdateClientBody,
} from '../../modules/clients/schema.ts';

const tags = ['clients'];
const ClientEnvelope = Type.Object({ client: Client }, { additionalProperties: false });

export function clientsRoutes({ services: { clients, portal } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/clients',
      {
        ...pagedList,
        schema: {
          tags,
          summary: 'List clients',
          description: `The clients of the calling organization, newest first (\`created_at DESC, id DESC\`). ${WHOLE_LIST_DOC}`,
          querystring: WholeListQuery,
          response: { 200: wholeListBody('clients', Client), ...errorResponses(400, 403) },
        },
      },
      wholeListHandler('clients', Client, clients),
    );

    app.post(
      '/clients',
      {
        schema: {
          tags,
          summary: 'Create a client',
          description:
            'The client starts `invited` with `payment_status` `none`. The email is unique within the organization, compared case-insensitively.',
          body: CreateClientBody,
          querystring: NoQuery,
          response: { 201: ClientEnvelope, ...errorResponses(400, 403, 415) },
        },
      },
      async (request, reply) => {
        const client = await clients.create(principal(request), request.body);
        return reply.status(201).send({ client });
      },
    );

    app.get(
      '/clients/:clientId',
      {
        schema: {
          tags,
          summary: 'Get a client',
          params: ClientParams,
          querystring: NoQuery,
          response: { 200: ClientEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({ client: await clients.get(principal(request), request.params.clientId) }),
    );

    app.patch(
      '/clients/:clientId',
      {
        schema: {
          tags,
          summary: 'Update a client',
          description: 'Only the fields present change. `payment_status` is read-only.',
          params: ClientParams,
          body: UpdateClientBody,
          querystring: NoQuery,
          response: { 200: ClientEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => ({
        client: await clients.update(principal(request), request.params.clientId, request.body),
      }),
    );

    app.post(
      '/clients/:clientId/invite',
      {
        ...noBody,
        // Takes no body: works without one and without Content-Type; a JSON body must be `{}`.
        config: { allowEmptyBody: true },
        schema: {
          tags,
          summary: 'Invite a client to the portal',
          description:
            'Emails the client a link (valid 7 days) to create its account on the client portal, where it sees its own projects. Accepting makes an `invited` client `active` and emits `client.updated`. Inviting again sends a new link; earlier links keep working until they expire. An action, like the webhook test and rotate-secret: 200, not 201. A client that is `suspended` or `churned`, or already has its account: 400.',
          params: ClientParams,
          querystring: NoQuery,
          response: {
            200: Type.Object({ invitation: ClientInvitation }, { additionalProperties: false }),
            ...errorResponses(400, 403, 404, 415),
          },
        },
      },
      async (request) => ({
        invitation: await portal.invite(principal(request), request.params.clientId),
      }),
    );
  };
}
