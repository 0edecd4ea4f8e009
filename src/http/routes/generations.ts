import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { noBody, NoQuery, pagedList } from '../route-rules.ts';
import {
  GenerateBody,
  Generation,
  GenerationEnvelope,
  GenerationEventsQuery,
  GenerationParams,
  ListGenerationsQuery,
  ProjectIdParams,
} from '../../modules/generations/schema.ts';
import { resumeAfter } from '../../lib/sse.ts';
import { streamEvents } from '../event-stream.ts';

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
            "Queues an AI generation and answers at once with 202; poll `GET /projects/{id}/generations/{generationId}` until it is `succeeded` or `failed`. On a project without files the provider builds a complete site; on one with files it edits the site as the prompt asks. On success the generation's files replace the project's files in one step. `model` is one of the organization's models: `builtin` (templates, no network), the installation's `AI_MODELS`, and the model the organization connected in Settings → AI model; without it, the organization's default. Each request counts as one AI message of the client's plan (`max_ai_messages_daily`, per UTC day): over the limit the answer is 429 with `Retry-After` until midnight UTC, and nothing is queued. A generation that fails or changes nothing gives its message back.",
          params: ProjectIdParams,
          body: GenerateBody,
          querystring: NoQuery,
          response: { 202: GenerationEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request, reply) => {
        const generation = await generations.create(
          principal(request),
          request.params.projectId,
          request.body,
        );
        return reply.status(202).send({ generation });
      },
    );

    app.get(
      '/projects/:projectId/generations',
      {
        ...pagedList,
        schema: {
          tags,
          summary: 'List the generations of a project',
          description:
            'Newest first (`created_at DESC, id DESC`). `total` counts all of the project’s generations.',
          params: ProjectIdParams,
          querystring: ListGenerationsQuery,
          response: {
            200: Type.Object(
              { generations: Type.Array(Generation), total: Type.Integer({ minimum: 0 }) },
              { additionalProperties: false },
            ),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => {
        const { limit = 20, offset = 0 } = request.query;
        return generations.list(principal(request), request.params.projectId, limit, offset);
      },
    );

    app.get(
      '/projects/:projectId/generations/:generationId',
      {
        schema: {
          tags,
          summary: 'Get a generation',
          params: GenerationParams,
          querystring: NoQuery,
          response: { 200: GenerationEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        generation: await generations.get(principal(request), request.params),
      }),
    );

    app.post(
      '/projects/:projectId/generations/:generationId/cancel',
      {
        ...noBody,
        config: { allowEmptyBody: true },
        schema: {
          tags,
          summary: 'Stop a generation',
          description:
            'A `queued` or `running` generation becomes `cancelled` at once and changes no file (a provider already running is stopped within a moment; its answer is discarded). A generation that has finished is a 409. The AI message it counted stays counted.',
          params: GenerationParams,
          querystring: NoQuery,
          response: { 200: GenerationEnvelope, ...errorResponses(400, 403, 404, 409, 415) },
        },
      },
      async (request) => ({
        generation: await generations.cancel(principal(request), request.params),
      }),
    );

    app.get(
      '/projects/:projectId/generations/:generationId/events',
      {
        schema: {
          tags,
          summary: "Follow a generation's progress (server-sent events)",
          description:
            'A `text/event-stream`: every event of the generation (`queued`, `running`, each `step` or file the provider reports, `retrying`, then `succeeded`, `failed` or `cancelled`), each as `id: <seq>`, `event: <kind>`, `data: {"seq", "kind", "message", "path", "created_at"}`; events recorded later are sent as they happen, and the stream ends after the last one. To resume, send `Last-Event-ID` (browsers do) or `?after=<seq>`. A comment line every 15 s keeps it open.',
          params: GenerationParams,
          querystring: GenerationEventsQuery,
          response: {
            200: {
              description: 'The event stream',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const asking = principal(request);
        const { projectId, generationId } = request.params;
        const ref = { projectId, generationId };
        await generations.get(asking, ref); // 404 as JSON, before the stream starts
        const after = resumeAfter(request.headers['last-event-id'], request.query.after ?? 0);
        await streamEvents(reply, (signal) => generations.follow(asking, ref, after, signal));
      },
    );
  };
}
