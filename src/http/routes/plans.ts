import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { wholeListBody, wholeListHandler, WHOLE_LIST_DOC } from '../list-stream.ts';
import { WholeListQuery } from '../../modules/common/paging.ts';
import { errorResponses } from '../schemas.ts';
import { NoQuery, pagedList } from '../route-rules.ts';
import { CreatePlanBody, Plan, PlanParams, UpdatePlanBody } from '../../modules/plans/schema.ts';

const tags = ['plans'];
const PlanEnvelope = Type.Object({ plan: Plan }, { additionalProperties: false });

export function plansRoutes({ services: { plans } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/plans',
      {
        ...pagedList,
        schema: {
          tags,
          summary: 'List plans',
          description: `Ordered by \`sort_order\` ascending, then creation time (\`sort_order, created_at, id\`). ${WHOLE_LIST_DOC}`,
          querystring: WholeListQuery,
          response: { 200: wholeListBody('plans', Plan), ...errorResponses(400, 403) },
        },
      },
      wholeListHandler('plans', Plan, plans),
    );

    app.post(
      '/plans',
      {
        schema: {
          tags,
          summary: 'Create a plan',
          description: 'The plan is active and can be attached to clients immediately.',
          body: CreatePlanBody,
          querystring: NoQuery,
          response: { 201: PlanEnvelope, ...errorResponses(400, 403, 415) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ plan: await plans.create(principal(request), request.body) }),
    );

    app.get(
      '/plans/:planId',
      {
        schema: {
          tags,
          summary: 'Get a plan',
          params: PlanParams,
          querystring: NoQuery,
          response: { 200: PlanEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({ plan: await plans.get(principal(request), request.params.planId) }),
    );

    app.patch(
      '/plans/:planId',
      {
        schema: {
          tags,
          summary: 'Update a plan',
          description:
            'Only the fields present change. Setting `is_default: true` unsets the default on every other plan. Existing subscriptions keep their price until renewed. Plans cannot be deleted; set `is_active: false` instead.',
          params: PlanParams,
          body: UpdatePlanBody,
          querystring: NoQuery,
          response: { 200: PlanEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => ({
        plan: await plans.update(principal(request), request.params.planId, request.body),
      }),
    );
  };
}
