import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { DeletedBody, errorResponses } from '../schemas.ts';
import { noBody, NoQuery, pagedList } from '../route-rules.ts';
import {
  CreateProjectBody,
  DEFAULT_LIMIT,
  ListProjectsQuery,
  Project,
  ProjectParams,
  UpdateProjectBody,
} from '../../modules/projects/schema.ts';

const tags = ['projects'];
const ProjectEnvelope = Type.Object({ project: Project }, { additionalProperties: false });
const ProjectList = Type.Object(
  { projects: Type.Array(Project), total: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);

export function projectsRoutes({ services: { projects } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/projects',
      {
        ...pagedList,
        schema: {
          tags,
          summary: 'List projects',
          description:
            "The projects of the organization's clients, newest first (`created_at DESC, id DESC`). `total` counts every record matching the filters; keep requesting while `offset + limit < total`. Unknown query parameters are refused.",
          querystring: ListProjectsQuery,
          response: {
            200: ProjectList,
            ...errorResponses(400, 403),
          },
        },
      },
      async (request) => {
        const { limit = DEFAULT_LIMIT, offset = 0, client_id, q, status } = request.query;
        // A connector token of a client's own account lists that client's projects only.
        return projects.list(principal(request), { clientId: client_id, q, status }, limit, offset);
      },
    );

    app.post(
      '/projects',
      {
        schema: {
          tags,
          summary: 'Create a project',
          description:
            "Creates an `active` project for the client with `client_email` (404 when the organization has no such client), optionally from one of the organization's templates (`template_id`, else 404). The `subdomain` is derived from the name and unique across the service. When the client's plan allows no more sites (`max_sites`, archived projects included) the answer is 403 and nothing is created. `builder_url` opens the project in the builder.",
          body: CreateProjectBody,
          querystring: NoQuery,
          response: {
            201: Type.Object(
              { project: Project, builder_url: Type.String({ format: 'uri' }) },
              { additionalProperties: false },
            ),
            ...errorResponses(400, 403, 404, 415),
          },
        },
      },
      async (request, reply) => {
        const project = await projects.create(principal(request), request.body);
        return reply.status(201).send({ project, builder_url: projects.builderUrl(project.id) });
      },
    );

    app.get(
      '/projects/:projectId',
      {
        schema: {
          tags,
          summary: 'Get a project',
          params: ProjectParams,
          querystring: NoQuery,
          response: { 200: ProjectEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({ project: await projects.get(principal(request), request.params.projectId) }),
    );

    app.patch(
      '/projects/:projectId',
      {
        schema: {
          tags,
          summary: 'Update a project',
          description:
            'Only the fields present change; `updated_at` moves when something did. `tags` replaces the list (trimmed, empty ones and duplicates dropped). Files, publish state and the subdomain do not change.',
          params: ProjectParams,
          body: UpdateProjectBody,
          querystring: NoQuery,
          response: { 200: ProjectEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => ({
        project: await projects.update(principal(request), request.params.projectId, request.body),
      }),
    );

    app.delete(
      '/projects/:projectId',
      {
        ...noBody,
        schema: {
          tags,
          summary: 'Delete a project',
          description:
            'Permanently deletes the project and everything that belongs to it (its site, files and analytics); cannot be undone. Templates made from it stay. To keep the files, set `status` to `archived` instead.',
          params: ProjectParams,
          querystring: NoQuery,
          response: { 200: DeletedBody, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        await projects.delete(principal(request), request.params.projectId);
        return { deleted: true, id: request.params.projectId };
      },
    );
  };
}
