// The files of a project (and, read-only, of a template), and the project's zip export.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../http/context.ts';
import { caller } from '../../http/caller.ts';
import { errorResponses } from '../../http/schemas.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { decodeContent } from '../../sites/files/content.ts';
import { deleteFile, getFile, listFiles, listTemplateFiles, putFile, validPath } from '../../sites/files/service.ts';
import { bool, type Executor } from '../../db/executor.ts';
import { zipProjectFiles } from './export.ts';
import { FileContentEnvelope, FileDeleted, FileEnvelope, FileList, FileParams, ProjectParams, PutFileBody, TemplateParams } from './schema.ts';

const tags = ['files'];

async function requireProject(db: Executor, orgId: string, id: string) {
  const project = await db.selectFrom('projects').select(['id', 'subdomain', 'org_client_id']).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  if (!project) throw notFound('Project');
  return project;
}

export function filesRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx.database;
  const limits = ctx.config.files;
  // A file of FILE_MAX_BYTES must fit as base64 (4/3) or as escaped JSON text, plus the envelope.
  const putBodyLimit = Math.max(Math.ceil(limits.maxFileBytes / 3) * 4, limits.maxFileBytes * 2) + 65_536;

  return async (app) => {
    app.get(
      '/projects/:projectId/files',
      {
        schema: {
          tags,
          summary: "List a project's files",
          description: 'Metadata only, sorted by path.',
          params: ProjectParams,
          response: { 200: FileList, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        const { orgId } = caller(request);
        await requireProject(db, orgId, request.params.projectId);
        return { files: await listFiles(db, orgId, request.params.projectId) };
      },
    );

    app.get(
      '/projects/:projectId/files/*',
      {
        schema: {
          tags,
          summary: 'Get a file with its content',
          description: 'Text files come as `utf8` strings, anything else as `base64`.',
          params: FileParams,
          response: { 200: FileContentEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        const { orgId } = caller(request);
        await requireProject(db, orgId, request.params.projectId);
        const file = await getFile(db, orgId, request.params.projectId, validPath(request.params['*']));
        if (!file) throw notFound('File');
        return { file };
      },
    );

    app.put(
      '/projects/:projectId/files/*',
      {
        bodyLimit: putBodyLimit,
        schema: {
          tags,
          summary: 'Create or replace a file',
          description: `201 when the file is new, 200 when it replaced one. Paths are relative, \`/\`-separated, at most 255 bytes, with letters, digits and \`- _ . ~ @ +\`; no \`..\`, no hidden segments except \`.well-known\`. Limits: FILE_MAX_BYTES per file and PROJECT_MAX_BYTES per project (413), PROJECT_MAX_FILES files per project (400).`,
          params: FileParams,
          body: PutFileBody,
          response: { 200: FileEnvelope, 201: FileEnvelope, ...errorResponses(400, 403, 404, 413, 415) },
        },
      },
      async (request, reply) => {
        const { orgId } = caller(request);
        const path = validPath(request.params['*']);
        const content = decodeContent(request.body.content, request.body.encoding ?? 'utf8');
        if (!content) throw badRequest(`field 'content' is not valid base64`);
        const { file, created } = await db.transaction().execute(async (trx) => {
          await requireProject(trx, orgId, request.params.projectId);
          return putFile(trx, orgId, request.params.projectId, path, content, limits);
        });
        return reply.status(created ? 201 : 200).send({ file });
      },
    );

    app.delete(
      '/projects/:projectId/files/*',
      {
        schema: {
          tags,
          summary: 'Delete a file',
          params: FileParams,
          response: { 200: FileDeleted, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => {
        const { orgId } = caller(request);
        const path = validPath(request.params['*']);
        await requireProject(db, orgId, request.params.projectId);
        if (!(await deleteFile(db, orgId, request.params.projectId, path))) throw notFound('File');
        return { deleted: true, path };
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
          response: {
            200: { description: 'A zip archive', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const { orgId } = caller(request);
        const project = await requireProject(db, orgId, request.params.projectId);
        await checkExportAllowed(db, orgId, project.org_client_id);
        const zip = await zipProjectFiles(db, orgId, project.id);
        const name = (project.subdomain ?? project.id).replace(/[^a-z0-9-]/gi, '');
        return reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="${name}.zip"`)
          .send(zip);
      },
    );

    app.get(
      '/templates/:templateId/files',
      {
        schema: {
          tags,
          summary: "List a template's files",
          description: 'The snapshot taken from `source_project_id` when the template was created. Metadata only, sorted by path.',
          params: TemplateParams,
          response: { 200: FileList, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        const { orgId } = caller(request);
        const template = await db.selectFrom('templates').select('id').where('org_id', '=', orgId).where('id', '=', request.params.templateId).executeTakeFirst();
        if (!template) throw notFound('Template');
        return { files: await listTemplateFiles(db, orgId, template.id) };
      },
    );
  };
}

async function checkExportAllowed(db: Executor, orgId: string, clientId: string | null): Promise<void> {
  if (!clientId) return;
  const plan = await db
    .selectFrom('clients')
    .innerJoin('plans', 'plans.id', 'clients.plan_id')
    .select(['plans.name', 'plans.can_export_code'])
    .where('clients.org_id', '=', orgId)
    .where('clients.id', '=', clientId)
    .executeTakeFirst();
  if (plan && !bool(plan.can_export_code)) {
    throw forbidden(`Code export is not included in this client's plan '${plan.name}' (can_export_code is false)`);
  }
}

