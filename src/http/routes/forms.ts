// Form submissions received by a project's published site.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { DeletedBody, errorResponses } from '../schemas.ts';
import { noBody, NoQuery, pagedList } from '../route-rules.ts';
import { Uuid } from '../../modules/common/schema.ts';
import { ListSubmissionsQuery, Submission } from '../../modules/forms/schema.ts';

const tags = ['forms'];

export function formsRoutes({ services: { forms } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/projects/:projectId/submissions',
      {
        ...pagedList,
        schema: {
          tags,
          summary: "List a project's form submissions",
          description: 'Newest first. `form` keeps one form’s submissions; `total` counts every match.',
          params: Type.Object({ projectId: Uuid() }),
          querystring: ListSubmissionsQuery,
          response: {
            200: Type.Object(
              { submissions: Type.Array(Submission), total: Type.Integer({ minimum: 0 }) },
              { additionalProperties: false },
            ),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => forms.list(principal(request), request.params.projectId, request.query),
    );

    app.delete(
      '/projects/:projectId/submissions/:submissionId',
      {
        ...noBody,
        schema: {
          tags,
          summary: 'Delete a form submission',
          params: Type.Object({ projectId: Uuid(), submissionId: Uuid() }),
          querystring: NoQuery,
          response: { 200: DeletedBody, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => {
        await forms.delete(principal(request), request.params);
        return { deleted: true, id: request.params.submissionId };
      },
    );
  };
}
