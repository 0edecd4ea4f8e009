// Form submissions received by a project's published site.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../http/context.ts';
import { caller } from '../../http/caller.ts';
import { DateTime, DeletedBody, Nullable, Uuid, errorResponses } from '../../http/schemas.ts';
import { num } from '../../db/executor.ts';
import { toIso } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';

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
  const requireProject = async (orgId: string, projectId: string) => {
    const found = await db.selectFrom('projects').select('id').where('org_id', '=', orgId).where('id', '=', projectId).executeTakeFirst();
    if (!found) throw notFound('Project');
  };
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
        await requireProject(orgId, projectId);
        const base = db
          .selectFrom('form_submissions')
          .where('org_id', '=', orgId)
          .where('project_id', '=', projectId)
          .$if(form !== undefined, (qb) => qb.where('form', '=', form!));
        const [rows, counted] = await Promise.all([
          base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
          base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
        ]);
        return {
          submissions: rows.map((r) => ({ id: r.id, project_id: r.project_id, form: r.form, fields: JSON.parse(r.fields) as Record<string, string>, page: r.page, created_at: toIso(r.created_at) })),
          total: num(counted.n),
        };
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
        const result = await db.deleteFrom('form_submissions').where('org_id', '=', orgId).where('project_id', '=', projectId).where('id', '=', submissionId).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw notFound('Submission');
        return { deleted: true, id: submissionId };
      },
    );
  };
}
