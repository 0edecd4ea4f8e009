// Versions of a project's files, and its deployments: reading any version, restoring one, and
// putting an earlier deployment live again.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { noBody, NoQuery, pagedList } from '../route-rules.ts';
import {
  DeploymentList,
  DeploymentParams,
  ListDeploymentsQuery,
  ProjectParams,
  Published,
} from '../../modules/publishing/schema.ts';
import {
  ListVersionsQuery,
  RestoredEnvelope,
  VersionEnvelope,
  VersionFileEnvelope,
  VersionFileParams,
  VersionList,
  VersionParams,
} from '../../modules/versions/schema.ts';

export function versionsRoutes({
  services: { versions, deployments },
}: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/projects/:projectId/versions',
      {
        ...pagedList,
        schema: {
          tags: ['versions'],
          summary: "List a project's versions",
          description:
            'Every change to the files is an immutable version, numbered from 1: a successful generation, an edit in the builder, a write through the files API (one per request that changed something), a restore, the template a project started from. Newest first. `author` is the user or API key that made it (null for the service itself).',
          params: ProjectParams,
          querystring: ListVersionsQuery,
          response: { 200: VersionList, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        const { limit = 20, offset = 0 } = request.query;
        return versions.list(principal(request), request.params.projectId, limit, offset);
      },
    );

    app.get(
      '/projects/:projectId/versions/:versionId',
      {
        schema: {
          tags: ['versions'],
          summary: 'Get a version with its file list',
          params: VersionParams,
          querystring: NoQuery,
          response: { 200: VersionEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        version: await versions.get(principal(request), request.params),
      }),
    );

    app.get(
      '/projects/:projectId/versions/:versionId/files/*',
      {
        schema: {
          tags: ['versions'],
          summary: 'Get a file of a version with its content',
          description: 'Text files come as `utf8` strings, anything else as `base64`.',
          params: VersionFileParams,
          querystring: NoQuery,
          response: { 200: VersionFileEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        file: await versions.file(principal(request), request.params, request.params['*']),
      }),
    );

    app.post(
      '/projects/:projectId/versions/:versionId/restore',
      {
        ...noBody,
        config: { allowEmptyBody: true },
        schema: {
          tags: ['versions'],
          summary: 'Restore a version',
          description:
            'Makes the project\'s files exactly those of the version, as a new version (`source: "restore"`); no version is removed. The live site does not change until the next publish.',
          params: VersionParams,
          querystring: NoQuery,
          response: { 201: RestoredEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request, reply) => {
        const version = await versions.restore(principal(request), request.params);
        return reply.status(201).send({ version });
      },
    );

    app.get(
      '/projects/:projectId/deployments',
      {
        ...pagedList,
        schema: {
          tags: ['publishing'],
          summary: "List a project's deployments",
          description:
            'Every publish is an immutable deployment; newest first. `live` marks the one the site serves; `version_id` the version it published.',
          params: ProjectParams,
          querystring: ListDeploymentsQuery,
          response: { 200: DeploymentList, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        const { limit = 20, offset = 0 } = request.query;
        return deployments.list(principal(request), request.params.projectId, limit, offset);
      },
    );

    app.post(
      '/projects/:projectId/deployments/:deploymentId/promote',
      {
        ...noBody,
        config: { allowEmptyBody: true },
        schema: {
          tags: ['publishing'],
          summary: 'Put a deployment live again (rollback)',
          description:
            "The site serves this deployment from the next request on, with no build and no copy; `last_published_at` is set and `project.published` is emitted, as for a publish. The project's files do not change.",
          params: DeploymentParams,
          querystring: NoQuery,
          response: { 200: Published, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => deployments.promote(principal(request), request.params),
    );
  };
}
