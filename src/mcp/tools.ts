// The MCP tools: each calls the service its REST route calls, with the arguments checked against
// that route's schema, in the caller's organization. A tool says what permission it needs (`read`
// for the read-only ones, `write` for the rest, as GET and POST/PATCH/DELETE do in the API).
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { Project } from '../modules/projects/schema.ts';
import { Client } from '../modules/clients/schema.ts';
import { Template } from '../modules/templates/schema.ts';
import { Generation } from '../modules/generations/schema.ts';
import { Preview, Published } from '../modules/publishing/schema.ts';
import { Domain } from '../modules/domains/schema.ts';
import { Analytics } from '../modules/analytics/schema.ts';
import { Submission } from '../modules/forms/schema.ts';
import type { Services } from '../modules/index.ts';
import type { Permission } from '../modules/orgs/service.ts';
import { CreateProjectBody, UpdateProjectBody, PROJECT_STATUSES } from '../modules/projects/schema.ts';
import { CreateClientBody } from '../modules/clients/schema.ts';
import { GenerateBody } from '../modules/generations/schema.ts';
import { AnalyticsQuery } from '../modules/analytics/schema.ts';
import { CreateBuildLinkBody } from '../modules/build-links/schema.ts';
import { Nullable, StringEnum, Uuid } from '../modules/common/schema.ts';
import { SiteSettings, SiteSettingsPatch } from '../modules/site-settings/schema.ts';
import { checked, withinAnswerSize } from './check.ts';
import type { Principal } from '../modules/access/principal.ts';

/** Who calls: the organization and what the token may do. */
export interface McpCaller {
  orgId: string;
  permissions: Permission[];
  /** The API key, when the token is one. */
  keyId?: string;
  /** An OAuth grant of an agency client's portal account: only that client's projects. */
  clientId?: string;
  /** The signed-in user an OAuth grant acts as. */
  userId?: string;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The arguments, from the route's own TypeBox schemas (JSON Schema; the SDK checks them). */
  input: TObject;
  /** The answer, from the API's record schemas. */
  output: TObject;
  needs: Permission;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  run(
    services: Services,
    principal: Principal,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
}

const MAX_PAGE = 25;
const id = (what: string) => Type.String({ description: `The ${what}'s id (a UUID)` });
const optionalId = (what: string) => Type.Optional(id(what));
const paging = {
  limit: Type.Optional(Type.Integer({ description: `Items per page, 1..${MAX_PAGE} (default 10)` })),
  offset: Type.Optional(Type.Integer({ description: 'Items to skip (default 0)' })),
};
const page = (key: string, item: TSchema) =>
  Type.Object({
    [key]: Type.Array(item),
    total: Type.Integer(),
    next_offset: Nullable(Type.Integer()),
    truncated: Type.Optional(Type.Boolean()),
  });
const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const write = (destructive: boolean, idempotent: boolean) => ({
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: false,
});

const Paging = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
const pageOf = <T>(key: string, items: T[], total: number, limit: number, offset: number) =>
  withinAnswerSize(
    { [key]: items, total, next_offset: offset + items.length < total ? offset + items.length : null },
    key,
  );
const pagingOf = (args: Record<string, unknown>) => {
  const p = checked(Paging, { limit: args.limit, offset: args.offset }, 'argument');
  return { limit: p.limit ?? 10, offset: p.offset ?? 0 };
};
// Schemas are built once: checked() compiles each schema object the first time it sees it.
const IdArgs = new Map<string, TSchema>();
const uuid = (args: Record<string, unknown>, name: string) => {
  let schema = IdArgs.get(name);
  if (!schema) IdArgs.set(name, (schema = Type.Object({ [name]: Uuid() })));
  return (checked(schema, { [name]: args[name] }, 'argument') as Record<string, string>)[name]!;
};
const ProjectFilter = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  client_id: Type.Optional(Uuid()),
  status: Type.Optional(Type.String()),
});
const ClientFilter = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(Type.String()),
});
const DomainArgs = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) });
const FormFilter = Type.Object({ form: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) });
const without = (args: Record<string, unknown>, ...names: string[]) =>
  Object.fromEntries(Object.entries(args).filter(([k, v]) => !names.includes(k) && v !== undefined));

export const TOOLS: ToolDefinition[] = [
  {
    name: 'list_projects',
    title: 'List website projects',
    description: `Lists the organization’s website projects, newest first. Filter by a name substring (q), a client (client_id) or a status (${PROJECT_STATUSES.join(', ')}). Paginated: pass next_offset as offset for the next page.`,
    input: Type.Object({
      q: Type.Optional(Type.String({ description: 'Part of the project name' })),
      client_id: optionalId('client'),
      status: Type.Optional(StringEnum(PROJECT_STATUSES)),
      ...paging,
    }),
    output: page('projects', Project),
    needs: 'read',
    annotations: read,
    async run(s, p, args) {
      const { limit, offset } = pagingOf(args);
      const filter = checked(ProjectFilter, without(args, 'limit', 'offset'), 'argument');
      const { projects, total } = await s.projects.list(
        p,
        { q: filter.q, status: filter.status, clientId: filter.client_id },
        limit,
        offset,
      );
      return pageOf('projects', projects, total, limit, offset);
    },
  },
  {
    name: 'get_project',
    title: 'Get a project',
    description:
      'One website project: its name, client, status, subdomain, live address (published_url) and when it was last published.',
    input: Type.Object({ project_id: id('project') }),
    output: Type.Object({ project: Project }),
    needs: 'read',
    annotations: read,
    run: async (s, p, args) => ({
      project: await s.projects.get(p, uuid(args, 'project_id')),
    }),
  },
  {
    name: 'create_project',
    title: 'Create a project',
    description:
      'Creates a website project for one of the organization’s clients (client_email), optionally from a template (template_id). The client’s plan limits how many sites it may have. Then call generate_site to build it.',
    input: Type.Object(CreateProjectBody.properties),
    output: Type.Object({ project: Project, builder_url: Type.String() }),
    needs: 'write',
    annotations: write(false, false),
    async run(s, p, args) {
      const project = await s.projects.create(p, checked(CreateProjectBody, without(args)));
      return { project, builder_url: s.projects.builderUrl(project.id) };
    },
  },
  {
    name: 'update_project',
    title: 'Update a project',
    description:
      'Changes a project’s name, description, status (active or archived) or tags. Only the fields given change.',
    input: Type.Object({ project_id: id('project'), ...UpdateProjectBody.properties }),
    output: Type.Object({ project: Project }),
    needs: 'write',
    annotations: write(false, true),
    run: async (s, p, args) => ({
      project: await s.projects.update(
        p,
        uuid(args, 'project_id'),
        checked(UpdateProjectBody, without(args, 'project_id')),
      ),
    }),
  },
  {
    name: 'list_clients',
    title: 'List clients',
    description:
      'Lists the agency’s clients (the businesses it builds websites for), newest first, optionally filtered by name or email (q) or status. Paginated.',
    input: Type.Object({
      q: Type.Optional(Type.String({ description: 'Part of the name or email' })),
      status: Type.Optional(StringEnum(['invited', 'active', 'suspended', 'churned'] as const)),
      ...paging,
    }),
    output: page('clients', Client),
    needs: 'read',
    annotations: read,
    async run(s, p, args) {
      const { limit, offset } = pagingOf(args);
      const filter = checked(ClientFilter, without(args, 'limit', 'offset'), 'argument');
      const { clients, total } = await s.clients.search(p, filter, limit, offset);
      return pageOf('clients', clients, total, limit, offset);
    },
  },
  {
    name: 'create_client',
    title: 'Create a client',
    description:
      'Adds a client (a business the agency builds a website for) by email, with an optional name, company and plan (plan_id). Fires client.created.',
    input: Type.Object(CreateClientBody.properties),
    output: Type.Object({ client: Client }),
    needs: 'write',
    annotations: write(false, false),
    run: async (s, p, args) => ({
      client: await s.clients.create(p, checked(CreateClientBody, without(args))),
    }),
  },
  {
    name: 'list_templates',
    title: 'List templates',
    description: 'Lists the organization’s site templates (a project can start as a copy of one). Paginated.',
    input: Type.Object({ ...paging }),
    output: page('templates', Template),
    needs: 'read',
    annotations: read,
    async run(s, p, args) {
      const { limit, offset } = pagingOf(args);
      // A client's own account gets what the agency offers to everyone (the core decides).
      const { records, total } = await s.templates.list(p, limit, offset);
      return pageOf('templates', records, total, limit, offset);
    },
  },
  {
    name: 'generate_site',
    title: 'Generate or change a site with AI',
    description:
      'Queues an AI generation for a project and returns it at once (status queued): on a project without files it builds a whole site from the prompt; on one with files it changes the site as the prompt asks. Poll get_generation until it is succeeded or failed. Counts against the client’s daily AI limit.',
    input: Type.Object({
      project_id: id('project'),
      prompt: Type.String({ description: 'What to build or change' }),
      model: GenerateBody.properties.model,
    }),
    output: Type.Object({ generation: Generation }),
    needs: 'write',
    annotations: write(false, false),
    run: async (s, p, args) => ({
      generation: await s.generations.create(
        p,
        uuid(args, 'project_id'),
        checked(GenerateBody, without(args, 'project_id')),
      ),
    }),
  },
  {
    name: 'get_generation',
    title: 'Get a generation',
    description:
      'The state of an AI generation: queued, running, succeeded (with its summary and files), failed (with the error) or cancelled.',
    input: Type.Object({ project_id: id('project'), generation_id: id('generation') }),
    output: Type.Object({ generation: Generation }),
    needs: 'read',
    annotations: read,
    run: async (s, p, args) => ({
      generation: await s.generations.get(p, {
        projectId: uuid(args, 'project_id'),
        generationId: uuid(args, 'generation_id'),
      }),
    }),
  },
  {
    name: 'publish_project',
    title: 'Publish a site',
    description:
      'Publishes the project’s current files: the site goes live at its address (and its active custom domains) at once. Fires project.published.',
    input: Type.Object({ project_id: id('project') }),
    output: Type.Object({ published: Published }),
    needs: 'write',
    annotations: write(false, false),
    run: async (s, p, args) => ({ published: await s.publishing.publish(p, uuid(args, 'project_id')) }),
  },
  {
    name: 'unpublish_project',
    title: 'Take a site offline',
    description:
      'Takes the project’s live site offline (its address answers “not found”); the files and deployments are kept and it can be published again.',
    input: Type.Object({ project_id: id('project') }),
    output: Type.Object({ project: Project }),
    needs: 'write',
    annotations: write(true, true),
    run: async (s, p, args) => ({ project: await s.publishing.unpublish(p, uuid(args, 'project_id')) }),
  },
  {
    name: 'get_preview_link',
    title: 'Get a preview link',
    description:
      'A signed link that shows the project’s current, unpublished files to anyone holding it, until it expires; also the live address when published.',
    input: Type.Object({ project_id: id('project') }),
    output: Type.Object({ preview: Preview }),
    needs: 'read',
    annotations: read,
    run: async (s, p, args) => ({
      preview: await s.publishing.previewLink(p, uuid(args, 'project_id')),
    }),
  },
  {
    name: 'list_domains',
    title: 'List custom domains',
    description: 'The project’s custom domains with their status and the DNS records the owner must create.',
    input: Type.Object({ project_id: id('project') }),
    output: Type.Object({ domains: Type.Array(Domain), truncated: Type.Optional(Type.Boolean()) }),
    needs: 'read',
    annotations: read,
    run: async (s, p, args) =>
      withinAnswerSize({ domains: await s.domains.list(p, uuid(args, 'project_id')) }, 'domains'),
  },
  {
    name: 'add_domain',
    title: 'Add a custom domain',
    description:
      'Adds a custom domain (e.g. www.example.com) to a project and answers the DNS records to create; then call verify_domain. The client’s plan must allow custom domains.',
    input: Type.Object({ project_id: id('project'), ...DomainArgs.properties }),
    output: Type.Object({ domain: Domain }),
    needs: 'write',
    annotations: write(false, false),
    async run(s, p, args) {
      const body = checked(DomainArgs, without(args, 'project_id'));
      return { domain: await s.domains.add(p, uuid(args, 'project_id'), body.domain) };
    },
  },
  {
    name: 'verify_domain',
    title: 'Verify a custom domain',
    description: 'Checks the domain’s DNS records now; the domain becomes active when both are right.',
    input: Type.Object({ project_id: id('project'), domain_id: id('domain') }),
    output: Type.Object({ domain: Domain }),
    needs: 'write',
    annotations: write(false, true),
    run: async (s, p, args) => ({
      domain: await s.domains.verify(p, {
        projectId: uuid(args, 'project_id'),
        domainId: uuid(args, 'domain_id'),
      }),
    }),
  },
  {
    name: 'remove_domain',
    title: 'Remove a custom domain',
    description: 'Removes a custom domain from the project; the site stops answering on it.',
    input: Type.Object({ project_id: id('project'), domain_id: id('domain') }),
    output: Type.Object({ deleted: Type.Boolean(), id: Type.String() }),
    needs: 'write',
    annotations: write(true, true),
    async run(s, p, args) {
      const domainId = uuid(args, 'domain_id');
      await s.domains.remove(p, { projectId: uuid(args, 'project_id'), domainId });
      return { deleted: true, id: domainId };
    },
  },
  {
    name: 'get_site_settings',
    title: 'Get site settings',
    description:
      'The site’s name, language, description, shared-link picture, icon, the business’s public facts (address, phone, email, opening hours) and who is emailed about form messages. Null: not given.',
    input: Type.Object({ project_id: id('project') }),
    output: Type.Object({ site_settings: SiteSettings }),
    needs: 'read',
    annotations: read,
    run: async (s, p, args) => ({ site_settings: await s.siteSettings.get(p, uuid(args, 'project_id')) }),
  },
  {
    name: 'update_site_settings',
    title: 'Change site settings',
    description:
      'Changes only the settings given (in facts, only the facts given); null clears one. Give only facts the owner stated: nothing is invented. Applies to the next publish and to previews at once.',
    input: Type.Object({ project_id: id('project'), ...SiteSettingsPatch.properties }),
    output: Type.Object({ site_settings: SiteSettings }),
    needs: 'write',
    annotations: write(false, true),
    run: async (s, p, args) => ({
      site_settings: await s.siteSettings.update(
        p,
        uuid(args, 'project_id'),
        checked(SiteSettingsPatch, without(args, 'project_id')),
      ),
    }),
  },
  {
    name: 'get_analytics',
    title: 'Get traffic analytics',
    description:
      'Page views, unique visitors, top pages, referrers, devices and views per day over the last `days` days (1..365, default 30), for one project or the whole organization.',
    input: Type.Object({ ...AnalyticsQuery.properties, project_id: optionalId('project') }),
    output: Type.Object({ analytics: Analytics }),
    needs: 'read',
    annotations: read,
    async run(s, p, args) {
      const query = checked(AnalyticsQuery, without(args), 'argument');
      const report = await s.analytics.report(p, query);
      const top = <T>(list: T[]) => list.slice(0, 10);
      return {
        analytics: {
          ...report,
          topPages: top(report.topPages),
          topReferrers: top(report.topReferrers),
          deviceBreakdown: top(report.deviceBreakdown),
        },
      };
    },
  },
  {
    name: 'list_form_submissions',
    title: 'List form submissions',
    description:
      'Messages sent through the forms of a project’s published site, newest first, optionally for one form. Paginated; long fields are shortened.',
    input: Type.Object({ project_id: id('project'), ...FormFilter.properties, ...paging }),
    output: page('submissions', Submission),
    needs: 'read',
    annotations: read,
    async run(s, p, args) {
      const { limit, offset } = pagingOf(args);
      const form = checked(FormFilter, without(args, 'project_id', 'limit', 'offset'), 'argument').form;
      const { submissions, total } = await s.forms.list(p, uuid(args, 'project_id'), {
        limit,
        offset,
        ...(form ? { form } : {}),
      });
      const short = (value: unknown) =>
        typeof value === 'string' && value.length > 1_000 ? `${value.slice(0, 1_000)}…` : value;
      const shortened = submissions.map((sub) => ({
        ...sub,
        fields: Object.fromEntries(Object.entries(sub.fields).map(([k, v]) => [k, short(v)])),
      }));
      return pageOf('submissions', shortened, total, limit, offset);
    },
  },
  {
    name: 'create_build_link',
    title: 'Create a build link',
    description:
      'A link to hand a person: opening it creates a website project seeded with the prompt and starts the build (they sign in or sign up first when needed). Optional model and public template.',
    input: Type.Object(CreateBuildLinkBody.properties),
    output: Type.Object({ url: Type.String() }),
    needs: 'write',
    annotations: write(false, false),
    run: async (s, p, args) => s.buildLinks.create(p, checked(CreateBuildLinkBody, without(args))),
  },
];

export const TOOL_BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));
