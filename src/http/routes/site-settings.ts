// A project's site settings: search, sharing and form mail (issue 30).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteDeps } from './deps.ts';
import { principal } from '../caller.ts';
import { errorResponses } from '../schemas.ts';
import { NoQuery } from '../route-rules.ts';
import { Uuid } from '../../modules/common/schema.ts';
import { SiteSettings, SiteSettingsPatch } from '../../modules/site-settings/schema.ts';

const tags = ['site settings'];
const ProjectParams = Type.Object({ projectId: Uuid() });
const Envelope = Type.Object({ site_settings: SiteSettings }, { additionalProperties: false });

export function siteSettingsRoutes({ services: { siteSettings } }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/projects/:projectId/site-settings',
      {
        schema: {
          tags,
          summary: "Get a project's site settings",
          description:
            'Every field is null until the owner sets it; nothing is guessed. They apply to the next publish and to previews at once.',
          params: ProjectParams,
          querystring: NoQuery,
          response: { 200: Envelope, ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        site_settings: await siteSettings.get(principal(request), request.params.projectId),
      }),
    );

    app.patch(
      '/projects/:projectId/site-settings',
      {
        schema: {
          tags,
          summary: "Change a project's site settings",
          description:
            'Only the fields present change (in `facts`, only the facts present); `null` clears one. `social_image` and `favicon` must name files the project has. `form_notify` takes `"client"`, `"members"` and email addresses. The next publish writes them into the site; previews show them at once.',
          params: ProjectParams,
          body: SiteSettingsPatch,
          querystring: NoQuery,
          response: { 200: Envelope, ...errorResponses(400, 403, 404, 415) },
        },
      },
      async (request) => ({
        site_settings: await siteSettings.update(principal(request), request.params.projectId, request.body),
      }),
    );
  };
}
