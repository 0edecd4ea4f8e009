// The files of a project (and, read-only, of a template), and the project's zip export.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { noBody, NoQuery } from '../route-rules.ts';
import {
  FileContentEnvelope,
  FileDeleted,
  FileEnvelope,
  FileList,
  FileParams,
  ProjectParams,
  PutFileBody,
  TemplateParams,
} from '../../modules/files/schema.ts';

const tags = ['files'];
const RAW_FILE = 'application/octet-stream';

export function filesRoutes({ services: { files }, config }: RouteDeps): FastifyPluginAsyncTypebox {
  const limits = config.files;
  // A file of FILE_MAX_BYTES must fit as base64 (4/3) or as escaped JSON text, plus the envelope.
  const putBodyLimit = Math.max(Math.ceil(limits.maxFileBytes / 3) * 4, limits.maxFileBytes * 2) + 65_536;

  return async (app) => {
    // A file sent as raw bytes: no base64, no JSON escaping, just its content (one over
    // FILE_MAX_BYTES is refused before more of it is read than that).
    app.addContentTypeParser(
      RAW_FILE,
      { parseAs: 'buffer', bodyLimit: limits.maxFileBytes + 1 },
      (_request, body, done) => done(null, body),
    );
    app.get(
      '/projects/:projectId/files',
      {
        schema: {
          tags,
          summary: "List a project's files",
          description: 'Metadata only, sorted by path.',
          params: ProjectParams,
          querystring: NoQuery,
          response: { 200: FileList, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({ files: await files.list(principal(request), request.params.projectId) }),
    );

    app.get(
      '/projects/:projectId/files/*',
      {
        schema: {
          tags,
          summary: 'Get a file with its content',
          description: 'Text files come as `utf8` strings, anything else as `base64`.',
          params: FileParams,
          querystring: NoQuery,
          response: { 200: FileContentEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        file: await files.get(principal(request), request.params.projectId, request.params['*']),
      }),
    );

    app.put(
      '/projects/:projectId/files/*',
      {
        bodyLimit: putBodyLimit,
        config: { bodyTypes: [RAW_FILE] },
        schema: {
          tags,
          summary: 'Create or replace a file',
          description: `201 when the file is new, 200 when it replaced one. The content comes as JSON (\`content\`, with \`encoding: "base64"\` for binary) or as the raw bytes themselves with \`Content-Type: application/octet-stream\`. Paths are relative, \`/\`-separated, at most 255 bytes, with letters, digits and \`- _ . ~ @ +\`; no \`..\`, no hidden segments except \`.well-known\` (and \`.sitewright\` first: private notes, never published nor served). Limits: FILE_MAX_BYTES per file and PROJECT_MAX_BYTES per project (413), PROJECT_MAX_FILES files per project (400).`,
          params: FileParams,
          body: {
            content: {
              'application/json': { schema: PutFileBody },
              [RAW_FILE]: {
                schema: { format: 'binary', description: 'The file content as raw bytes, text or binary.' },
              },
            },
          },
          querystring: NoQuery,
          response: {
            200: FileEnvelope,
            201: FileEnvelope,
            ...errorResponses(400, 403, 404, 413, 415, 503),
          },
        },
      },
      async (request, reply) => {
        const { projectId, '*': path } = request.params;
        const body = request.body as PutFileBody | Buffer;
        const { file, created } = Buffer.isBuffer(body)
          ? await files.putBytes(principal(request), projectId, path, body)
          : await files.put(principal(request), projectId, path, body);
        return reply.status(created ? 201 : 200).send({ file });
      },
    );

    app.delete(
      '/projects/:projectId/files/*',
      {
        ...noBody,
        schema: {
          tags,
          summary: 'Delete a file',
          params: FileParams,
          querystring: NoQuery,
          response: { 200: FileDeleted, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => {
        const { projectId, '*': path } = request.params;
        return { deleted: true, path: await files.delete(principal(request), projectId, path) };
      },
    );

    app.get(
      '/projects/:projectId/export',
      {
        schema: {
          tags,
          summary: "Download the project's files as a zip",
          description:
            "Allowed when the client's plan has `can_export_code` (403 otherwise); projects of clients without a plan may export. The archive holds every file at its path.",
          params: ProjectParams,
          querystring: NoQuery,
          response: {
            200: {
              description: 'A zip archive',
              content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
            },
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const { zip, fileName } = await files.export(principal(request), request.params.projectId);
        return reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .send(zip);
      },
    );

    app.get(
      '/templates/:templateId/files',
      {
        schema: {
          tags,
          summary: "List a template's files",
          description:
            'The snapshot taken from `source_project_id` when the template was created. Metadata only, sorted by path.',
          params: TemplateParams,
          querystring: NoQuery,
          response: { 200: FileList, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        files: await files.listTemplateFiles(principal(request), request.params.templateId),
      }),
    );
  };
}
