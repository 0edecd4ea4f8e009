import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { wholeListBody, wholeListHandler, WHOLE_LIST_DOC } from '../list-stream.ts';
import { WholeListQuery } from '../../modules/common/paging.ts';
import { DeletedBody, errorResponses } from '../schemas.ts';
import { noBody, NoQuery, pagedList } from '../route-rules.ts';
import {
  CreateTemplateBody,
  Template,
  TemplateParams,
  UpdateTemplateBody,
} from '../../modules/templates/schema.ts';

const tags = ['templates'];
const TemplateEnvelope = Type.Object({ template: Template }, { additionalProperties: false });

export function templatesRoutes({ services: { templates } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/templates',
      {
        ...pagedList,
        schema: {
          tags,
          summary: 'List templates',
          description: `The organization's own templates (no public catalogue of the service), newest first (\`created_at DESC, id DESC\`). ${WHOLE_LIST_DOC}`,
          querystring: WholeListQuery,
          response: { 200: wholeListBody('templates', Template), ...errorResponses(400, 403) },
        },
      },
      wholeListHandler('templates', Template, templates),
    );

    app.post(
      '/templates',
      {
        schema: {
          tags,
          summary: 'Create a template',
          description:
            '`category` defaults to `general`, `is_public` to false. `source_project_id` must be a project of the organization (else 404); its files are snapshotted into the template.',
          body: CreateTemplateBody,
          querystring: NoQuery,
          response: { 201: TemplateEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ template: await templates.create(principal(request), request.body) }),
    );

    app.get(
      '/templates/:templateId',
      {
        schema: {
          tags,
          summary: 'Get a template',
          params: TemplateParams,
          querystring: NoQuery,
          response: { 200: TemplateEnvelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        template: await templates.get(principal(request), request.params.templateId),
      }),
    );

    app.patch(
      '/templates/:templateId',
      {
        schema: {
          tags,
          summary: 'Update a template',
          description:
            'Only the fields present change. Captured files do not change. `thumbnail_url: null` removes the thumbnail.',
          params: TemplateParams,
          body: UpdateTemplateBody,
          querystring: NoQuery,
          response: { 200: TemplateEnvelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => ({
        template: await templates.update(principal(request), request.params.templateId, request.body),
      }),
    );

    app.delete(
      '/templates/:templateId',
      {
        ...noBody,
        schema: {
          tags,
          summary: 'Delete a template',
          description:
            'Projects already created from it are unaffected: they keep their files and `template` name.',
          params: TemplateParams,
          querystring: NoQuery,
          response: { 200: DeletedBody, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        await templates.delete(principal(request), request.params.templateId);
        return { deleted: true, id: request.params.templateId };
      },
    );
  };
}
