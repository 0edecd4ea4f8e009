// Publishing a project's site, taking it offline, and preview links.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { HttpError } from '../error-handler.ts';
import { noBody, NoQuery } from '../route-rules.ts';
import { Project } from '../../modules/projects/schema.ts';
import { Preview, ProjectParams, Published, PublishBody } from '../../modules/publishing/schema.ts';
import { ARCHIVE_TYPES, archiveFiles } from '../../web/archive.ts';
import type { Readable } from 'node:stream';

/** The OpenAPI description of an archive body; validation leaves raw bodies alone (validation.ts). */
const archiveSchema = {
  format: 'binary',
  description:
    'The whole site as one zip, tar or gzip-compressed tar, read as it arrives: exactly its files are published (a build, like `builtFiles`; binary files too). Folders are followed; one top folder holding the whole site is its root; `__MACOSX/`, `.DS_Store` and `Thumbs.db` are left out.',
};

const tags = ['publishing'];

export function publishingRoutes({ services: { publishing }, config }: RouteDeps): FastifyPluginAsyncTypebox {
  // builtFiles may carry a whole site: PROJECT_MAX_BYTES of text plus what JSON escaping adds
  // (a quarter allows for markup heavy in quotes and backslashes) and the envelope. Anything
  // declared larger is refused before it is read; a chunked body as soon as it passes the limit.
  const publishBodyLimit = Math.ceil(config.files.maxProjectBytes * 1.25) + 65_536;
  const archiveTypes = Object.keys(ARCHIVE_TYPES);
  return async (app) => {
    // An archive is read by the route as it streams in (web/archive.ts), never gathered first.
    app.addContentTypeParser(archiveTypes, (_request, payload, done) => done(null, payload));
    app.post(
      '/projects/:projectId/publish',
      {
        bodyLimit: publishBodyLimit,
        config: { allowEmptyBody: true, bodyTypes: archiveTypes },
        // No body at all means "publish the project's files", like an empty object.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary: 'Publish the site',
          description:
            "Publishes `builtFiles` when given (or the files of an archive sent as the body: `application/zip`, `application/x-tar` or `application/gzip`), else the project's current files, as a new immutable deployment, and makes it live at once on the project's subdomain of SITES_DOMAIN (or its active custom domain). Sets `published_url` and `last_published_at` and emits `project.published` with the project and the `deployment_id`. No files, or no `index.html`: 400. Paths and sizes follow the files API's rules. A body over 1 MiB may get 503 with `Retry-After` while LARGE_UPLOADS_AT_ONCE others are being received.",
          params: ProjectParams,
          body: {
            content: {
              'application/json': { schema: PublishBody },
              ...Object.fromEntries(archiveTypes.map((type) => [type, { schema: archiveSchema }])),
            },
          },
          querystring: NoQuery,
          response: { 200: Published, ...errorResponses(400, 403, 404, 413, 415, 503) },
        },
      },
      async (request, reply) => {
        const asking = principal(request);
        const { projectId } = request.params;
        const format = ARCHIVE_TYPES[request.mediaType ?? ''];
        if (format) {
          const body = request.body as Readable;
          try {
            if (Number(request.headers['content-length']) > publishBodyLimit)
              throw new HttpError(413, 'Request body too large');
            const files = archiveFiles(body, format, { ...config.files, maxBytes: publishBodyLimit });
            return await publishing.publishArchive(asking, projectId, files);
          } catch (error) {
            // Refused before its end: closed, so that the client stops sending what nobody reads.
            if (!body.readableEnded) reply.header('connection', 'close');
            throw error;
          }
        }
        return publishing.publish(asking, projectId, (request.body as PublishBody | undefined)?.builtFiles);
      },
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
        project: await publishing.unpublish(principal(request), request.params.projectId),
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
      async (request) => publishing.previewLink(principal(request), request.params.projectId),
    );
  };
}
