import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './index.ts';
import { caller } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { GenerateBody, Generation, GenerationEnvelope, GenerationParams, ListGenerationsQuery, ProjectIdParams } from '../../modules/generations/schema.ts';

const tags = ['generations'];

export function generationsRoutes({ services: { generations } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/projects/:projectId/generate',
      {
        schema: {
          tags,
          summary: 'Generate or edit the site with AI',
          description:
            "Queues an AI generation and answers at once with 202; poll `GET /projects/{id}/generations/{generationId}` until it is `succeeded` or `failed`. On a project without files the provider builds a complete site; on one with files it edits the site as the prompt asks. On success the generation's files replace the project's files in one step. `model` is one of the configured models (default `builtin`, which needs no network). Each request counts as one AI message of the client's plan (`max_ai_messages_daily`, per UTC day): over the limit the answer is 429 with `Retry-After` until midnight UTC, and nothing is queued.",
          params: ProjectIdParams,
          body: GenerateBody,
          response: { 202: GenerationEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request, reply) => {
        const { orgId, keyId } = caller(request);
        const generation = await generations.create(orgId, request.params.projectId, request.body, { keyId });
        return reply.status(202).send({ generation });
      },
    );

    app.get(
      '/projects/:projectId/generations',
      {
        schema: {
          tags,
          summary: 'List the generations of a project',
          description: 'Newest first (`created_at DESC, id DESC`). `total` counts all of the project’s generations.',
          params: ProjectIdParams,
          querystring: ListGenerationsQuery,
          response: {
            200: Type.Object({ generations: Type.Array(Generation), total: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => {
        const { limit = 20, offset = 0 } = request.query;
        return generations.list(caller(request).orgId, request.params.projectId, limit, offset);
      },
    );

    app.get(
      '/projects/:projectId/generations/:generationId',
      {
        schema: {
          tags,
          summary: 'Get a generation',
          params: GenerationParams,
          response: { 200: GenerationEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        generation: await generations.get(caller(request).orgId, request.params.projectId, request.params.generationId),
      }),
    );
  };
}
