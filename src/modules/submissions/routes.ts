// Form submissions received by a project's published site.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../http/context.ts';
import { caller } from '../../http/caller.ts';
import { DateTime, DeletedBody, Nullable, Uuid, errorResponses } from '../../http/schemas.ts';
import { notFound } from '../../lib/errors.ts';
import { findProject } from '../projects/repo.ts';
import { deleteSubmission, listSubmissions } from './repo.ts';

const tags = ['forms'];

const Submission = Type.Object(
  {
    id: Uuid(),
    project_id: Uuid(),
    form: Type.String({ description: 'The {formName} of /_forms/{formName}' }),
    fields: Type.Record(Type.String(), Type.String(), { description: 'The posted fields (the honeypot removed)' }),
    page: Nullable(Type.String({ description: 'Path of the page the form was sent from, when known' })),
    created_at: DateTime(),
  },
  { title: 'FormSubmission', additionalProperties: false },
);

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    form: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

export function submissionsRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx.database;
  return async (app) => {
    app.get(
      '/projects/:projectId/submissions',
      {
        schema: {
          tags,
          summary: "List a project's form submissions",
          description: 'Newest first. `form` keeps one form’s submissions; `total` counts every match.',
          params: Type.Object({ projectId: Uuid() }),
          querystring: ListQuery,
          response: { 200: Type.Object({ submissions: Type.Array(Submission), total: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        const { orgId } = caller(request);
        const { projectId } = request.params;
        const { limit = 50, offset = 0, form } = request.query;
        if (!(await findProject(db, orgId, projectId))) throw notFound('Project');
        return listSubmissions(db, orgId, projectId, { limit, offset, form });
      },
    );

    app.delete(
      '/projects/:projectId/submissions/:submissionId',
      {
        schema: {
          tags,
          summary: 'Delete a form submission',
          params: Type.Object({ projectId: Uuid(), submissionId: Uuid() }),
          response: { 200: DeletedBody, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => {
        const { orgId } = caller(request);
        const { projectId, submissionId } = request.params;
        if (!(await deleteSubmission(db, orgId, projectId, submissionId))) throw notFound('Submission');
        return { deleted: true, id: submissionId };
      },
    );
  };
}
