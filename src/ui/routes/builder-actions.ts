// What the builder changes, each through the same service as its REST route (so the same limits,
// plan rules and events apply), as the signed-in person: prompts (optionally aimed at a selected
// element) and stopping them, saving and uploading files, in-place text edits, restoring a
// version, publishing and rolling back, and custom domains. Each answers JSON to the builder's
// script and works as a plain form post without it (builder/action-answer.ts).
import type { FastifyPluginAsync } from 'fastify';
import { GenerateBody } from '../../modules/generations/schema.ts';
import type { RouteDeps } from '../deps.ts';
import { checkbox, nullable, validForm, optional, text, type Form } from '../forms.ts';
import { SiteSettingsPatch } from '../../modules/site-settings/schema.ts';
import { answer } from '../builder/action-answer.ts';
import type { BuilderMount, BuilderParams } from '../builder/mount.ts';
import type { BuilderScope } from '../builder/scope.ts';
import { placeholdersOf } from '../builder/placeholders.ts';
import { idFromUrl } from '../ids.ts';
import { decodeContent } from '../../modules/files/content.ts';
import { invalid } from '../../modules/common/errors.ts';

type P = BuilderParams;
/** What the preview pane alone uses (a hybrid session may do these and nothing else). */
const PANE = true;

export function builderActionRoutes(deps: RouteDeps, mount: BuilderMount): FastifyPluginAsync {
  const { services, config } = deps;
  const { generations, files, versions, publishing, deployments, domains, siteSettings } = services;
  // A file as base64 JSON is 4/3 of its bytes; the service checks the limits themselves.
  const fileBodyLimit = Math.ceil((config.files.maxFileBytes * 4) / 3) + 65_536;
  const back = (scope: BuilderScope, tab: string) => `${scope.base}?tab=${tab}`;

  return async (app) => {
    app.post<{ Params: P; Body: Form }>(`${mount.route}/generate`, async (request, reply) => {
      const scope = await mount.scope(request, reply, request.params, PANE);
      const { principal: asking, project } = scope;
      const form = request.body ?? {};
      return answer(request, reply, back(scope, 'chat'), async () => {
        const element = optional(form, 'element_selector')
          ? {
              file: text(form, 'element_file'),
              selector: text(form, 'element_selector'),
              html: text(form, 'element_html'),
            }
          : undefined;
        const model = optional(form, 'model');
        const body = validForm(GenerateBody, {
          prompt: text(form, 'prompt'),
          ...(model ? { model } : {}),
          ...(element ? { element } : {}),
        });
        const generation = await generations.create(asking, project.id, body);
        return { notice: 'Building… this page shows the progress.', data: { generation } };
      });
    });

    app.post<{ Params: P & { gid: string } }>(
      `${mount.route}/generations/:gid/cancel`,
      async (request, reply) => {
        const scope = await mount.scope(request, reply, request.params, PANE);
        const { principal: asking, project } = scope;
        const gid = idFromUrl(request.params.gid, 'Generation');
        return answer(request, reply, back(scope, 'chat'), async () => ({
          notice: 'Stopped. No file was changed.',
          data: {
            generation: await generations.cancel(asking, { projectId: project.id, generationId: gid }),
          },
        }));
      },
    );

    app.post<{ Params: P; Body: Form }>(
      `${mount.route}/files`,
      { bodyLimit: fileBodyLimit },
      async (request, reply) => {
        const scope = await mount.scope(request, reply, request.params);
        const { principal: asking, project } = scope;
        const form = request.body ?? {};
        const path = text(form, 'path').trim();
        return answer(request, reply, `${back(scope, 'code')}&file=${encodeURIComponent(path)}`, async () => {
          const encoding = text(form, 'encoding') === 'base64' ? 'base64' : 'utf8';
          const { file, created } = await files.put(
            asking,
            project.id,
            path,
            { content: text(form, 'content'), encoding },
            { source: 'edit' },
          );
          return { notice: `${created ? 'Added' : 'Saved'} ${file.path}.`, data: { file } };
        });
      },
    );

    app.post<{ Params: P; Body: Form }>(`${mount.route}/files/delete`, async (request, reply) => {
      const scope = await mount.scope(request, reply, request.params);
      const { principal: asking, project } = scope;
      return answer(request, reply, back(scope, 'code'), async () => {
        const path = await files.delete(asking, project.id, text(request.body ?? {}, 'path'), {
          source: 'edit',
        });
        return { notice: `Deleted ${path}.`, data: { path } };
      });
    });

    app.post<{ Params: P; Body: Form }>(`${mount.route}/text`, async (request, reply) => {
      const scope = await mount.scope(request, reply, request.params, PANE);
      const { principal: asking, project } = scope;
      const form = request.body ?? {};
      return answer(request, reply, back(scope, 'chat'), async () => {
        const file = await files.editText(
          asking,
          project.id,
          { file: text(form, 'file'), selector: text(form, 'selector'), text: text(form, 'text') },
          { source: 'edit' },
        );
        return { notice: `Saved the text in ${file.path}.`, data: { file } };
      });
    });

    app.post<{ Params: P; Body: Form }>(
      `${mount.route}/replace-image`,
      { bodyLimit: fileBodyLimit },
      async (request, reply) => {
        const scope = await mount.scope(request, reply, request.params);
        const { principal: asking, project } = scope;
        const form = request.body ?? {};
        return answer(request, reply, back(scope, 'chat'), async () => {
          const name = optional(form, 'upload_name');
          const bytes = name ? decodeContent(text(form, 'upload_content'), 'base64') : undefined;
          if (name && !bytes) throw invalid("field 'upload_content' is not valid base64");
          const image = optional(form, 'image');
          const result = await files.replaceImage(
            asking,
            project.id,
            {
              file: text(form, 'file'),
              selector: text(form, 'selector'),
              alt: text(form, 'alt').trim(),
              ...(name && bytes ? { upload: { name, content: bytes } } : image ? { image } : {}),
            },
            { source: 'edit' },
          );
          return { notice: `The picture shows ${result.image} now.`, data: result };
        });
      },
    );

    app.post<{ Params: P & { vid: string } }>(
      `${mount.route}/versions/:vid/restore`,
      async (request, reply) => {
        const scope = await mount.scope(request, reply, request.params);
        const { principal: asking, project } = scope;
        const vid = idFromUrl(request.params.vid, 'Version');
        return answer(request, reply, back(scope, 'versions'), async () => {
          const version = await versions.restore(asking, { projectId: project.id, versionId: vid });
          return { notice: `${version.summary}: it is version ${version.number} now.`, data: { version } };
        });
      },
    );

    app.post<{ Params: P }>(`${mount.route}/publish`, async (request, reply) => {
      const scope = await mount.scope(request, reply, request.params, PANE);
      const { principal: asking, project } = scope;
      return answer(request, reply, back(scope, 'publish'), async () => {
        const published = await publishing.publish(asking, project.id);
        const { count } = await placeholdersOf(services, asking, project.id);
        const todo = count
          ? `. ${count} placeholder${count === 1 ? ' was' : 's were'} left out of the live site: fill them in (Publish tab) and publish again.`
          : '';
        return { notice: `Published at ${published.url}${todo}`, data: { published, placeholders: count } };
      });
    });

    app.post<{ Params: P & { did: string } }>(
      `${mount.route}/deployments/:did/promote`,
      async (request, reply) => {
        const scope = await mount.scope(request, reply, request.params);
        const { principal: asking, project } = scope;
        const did = idFromUrl(request.params.did, 'Deployment');
        return answer(request, reply, back(scope, 'publish'), async () => {
          const published = await deployments.promote(asking, { projectId: project.id, deploymentId: did });
          return { notice: `That deployment is live again at ${published.url}`, data: { published } };
        });
      },
    );

    app.post<{ Params: P; Body: Form }>(`${mount.route}/site-settings`, async (request, reply) => {
      const scope = await mount.scope(request, reply, request.params);
      const { principal: asking, project } = scope;
      const form = request.body ?? {};
      return answer(request, reply, back(scope, 'settings'), async () => {
        const addresses = lines(text(form, 'notify_addresses'));
        const raw = form.form_names;
        const names = [...new Set(Array.isArray(raw) ? raw : raw ? [raw] : [])].slice(0, 20);
        const patch = validForm(SiteSettingsPatch, {
          site_name: nullable(form, 'site_name'),
          language: nullable(form, 'language'),
          description: nullable(form, 'description'),
          social_image: nullable(form, 'social_image'),
          favicon: nullable(form, 'favicon'),
          facts: {
            address: nullable(form, 'address'),
            phone: nullable(form, 'phone'),
            email: nullable(form, 'email'),
            opening_hours: nullable(form, 'opening_hours'),
          },
          form_notify: [
            ...(checkbox(form, 'notify_client') ? ['client'] : []),
            ...(checkbox(form, 'notify_members') ? ['members'] : []),
            ...addresses,
          ],
          form_digest: checkbox(form, 'form_digest'),
          redirect_subdomain: checkbox(form, 'redirect_subdomain'),
          ...(names.length ? { forms: formRules(form, names) } : {}),
        });
        const settings = await siteSettings.update(asking, project.id, patch);
        return {
          notice: 'Saved. The preview shows them now; the next publish puts them on the live site.',
          data: { site_settings: settings },
        };
      });
    });

    app.post<{ Params: P; Body: Form }>(`${mount.route}/domains`, async (request, reply) => {
      const scope = await mount.scope(request, reply, request.params);
      const { principal: asking, project } = scope;
      return answer(request, reply, back(scope, 'publish'), async () => {
        const domain = await domains.add(asking, project.id, text(request.body ?? {}, 'domain').trim());
        return {
          notice: `Added ${domain.domain}: create the DNS records below, then verify.`,
          data: { domain },
        };
      });
    });

    app.post<{ Params: P & { did: string } }>(
      `${mount.route}/domains/:did/verify`,
      async (request, reply) => {
        const scope = await mount.scope(request, reply, request.params);
        const { principal: asking, project } = scope;
        const did = idFromUrl(request.params.did, 'Domain');
        return answer(request, reply, back(scope, 'publish'), async () => {
          const domain = await domains.verify(asking, { projectId: project.id, domainId: did });
          if (domain.status === 'active')
            return {
              notice: `${domain.domain} is active. Publish again so that search engines and shared links use it.`,
              data: { domain },
            };
          return {
            notice: `${domain.domain}: the DNS records are not right yet. Check them below; a change at the DNS provider can take a while to show.`,
            tone: 'warning',
            data: { domain },
          };
        });
      },
    );

    app.post<{ Params: P & { did: string } }>(
      `${mount.route}/domains/:did/delete`,
      async (request, reply) => {
        const scope = await mount.scope(request, reply, request.params);
        const { principal: asking, project } = scope;
        const did = idFromUrl(request.params.did, 'Domain');
        return answer(request, reply, back(scope, 'publish'), async () => {
          await domains.remove(asking, { projectId: project.id, domainId: did });
          return { notice: 'Domain removed.' };
        });
      },
    );

    app.get<{ Params: P }>(`${mount.route}/export.zip`, async (request, reply) => {
      const scope = await mount.scope(request, reply, request.params);
      const { principal: asking, project } = scope;
      const { zip, fileName } = await files.export(asking, project.id);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(zip);
    });
  };
}

/** A text box's entries: one per line (commas and semicolons also part them). */
const lines = (value: string): string[] =>
  value
    .split(/[\n,;]/)
    .map((a) => a.trim())
    .filter(Boolean);

/**
 * Each named form's rules from the Settings tab: its visitor copy and its own recipients; a form
 * left at the defaults has no rules of its own (null removes any).
 */
function formRules(form: Form, names: string[]) {
  const rules: Record<string, { notify: string[] | null; visitor_copy: boolean } | null> = {};
  for (const name of names) {
    const written = lines(text(form, `form_notify_${name}`));
    // `nobody` alone: the form mails no one (its rule `notify: []`).
    const notify = written.length === 1 && written[0]!.toLowerCase() === 'nobody' ? [] : written;
    const copy = checkbox(form, `form_copy_${name}`);
    const own = written.length > 0;
    rules[name] = own || copy ? { notify: own ? notify : null, visitor_copy: copy } : null;
  }
  return rules;
}
