// Publishing a project's site, taking it offline, and preview links.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { caller } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { noBody, NoQuery } from '../route-rules.ts';
import { Project } from '../../modules/projects/schema.ts';
import { Preview, ProjectParams, Published, PublishBody } from '../../modules/publishing/schema.ts';

const tags = ['publishing'];

export function publishingRoutes({ services: { publishing }, config }: RouteDeps): FastifyPluginAsyncTypebox {
  // builtFiles may carry a whole site: PROJECT_MAX_BYTES of text plus what JSON escaping adds
  // (a quarter allows for markup heavy in quotes and backslashes) and the envelope. Anything
  // declared larger is refused before it is read; a chunked body as soon as it passes the limit.
  const publishBodyLimit = Math.ceil(config.files.maxProjectBytes * 1.25) + 65_536;
  return async (app) => {
    app.post(
      '/projects/:projectId/publish',
      {
        bodyLimit: publishBodyLimit,
        config: { allowEmptyBody: true },
        // No body at all means "publish the project's files", like an empty object.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary: 'Publish the site',
          description:
            "Publishes `builtFiles` when given, else the project's current files, as a new immutable deployment, and makes it live at once on the project's subdomain of SITES_DOMAIN (or its active custom domain). Sets `published_url` and `last_published_at` and emits `project.published` with the project and the `deployment_id`. No files, or no `index.html`: 400. Paths and sizes follow the files API's rules.",
          params: ProjectParams,
          body: PublishBody,
          querystring: NoQuery,
          response: { 200: Published, ...errorResponses(400, 403, 404, 413, 415) },
        },
      },
      async (request) =>
        publishing.publish(caller(request).orgId, request.params.projectId, request.body?.builtFiles),
    );

    app.post(
      '/projects/:projectId/unpublish',
      {
        ...noBody,
        config: { allowEmptyBody: true },
        schema: {
          tags,
          summary: 'Take the site offline',
          description:
            'The site answers 404 from the next request on; `published_url` becomes null (`last_published_at` keeps the last publish). Unpublishing a site that is not published changes nothing.',
          params: ProjectParams,
          querystring: NoQuery,
          response: {
            200: Type.Object({ project: Project }, { additionalProperties: false }),
            ...errorResponses(400, 403, 404, 415),
          },
        },
      },
      async (request) => ({
        project: await publishing.unpublish(caller(request).orgId, request.params.projectId),
      }),
    );

    app.get(
      '/projects/:projectId/preview',
      {
        schema: {
          tags,
          summary: 'Preview link of the current files',
          description: `\`preview_url\` opens the project's current (unpublished) files without credentials until \`preview_expires_at\` (PREVIEW_TTL, default 7 days); each call makes a fresh link. Previews are not counted in analytics and carry \`X-Robots-Tag: noindex\`.`,
          params: ProjectParams,
          querystring: NoQuery,
          response: { 200: Preview, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => publishing.previewLink(caller(request).orgId, request.params.projectId),
    );
  };
}
