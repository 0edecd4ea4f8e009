// The build link (`/build?prompt=&model=&template=&org=`): a person opens it and gets a project
// seeded with the prompt, its generation started. This service checks what a link asks for, keeps
// a visit on the server while its visitor signs up or in (long prompts do not survive URLs), lets a
// visitor sign up as a client of an organization that allows it, and starts the build for a
// client through the same services as the REST API (plan limits, events, versions).
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { bool } from '../../db/executor.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { newId } from '../../lib/ids.ts';
import { NotAllowedError, RateLimitedError, invalid, notFound } from '../common/errors.ts';
import type { AccountsService } from '../accounts/service.ts';
import type { ClientsService } from '../clients/service.ts';
import type { GenerationsService } from '../generations/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import type { TemplatesService } from '../templates/service.ts';
import type { Project } from '../projects/schema.ts';
import type { Generation } from '../generations/schema.ts';
import { MAX_BUILD_PROMPT, type BuildRequest, type CreateBuildLinkBody } from './schema.ts';

/** A visit kept while its visitor signs up or in. */
const PENDING_TTL_MS = 24 * 3_600_000;
/** A link made through the API whose prompt did not fit in its URL. */
const LINK_TTL_MS = 90 * 24 * 3_600_000;
/** Longer URLs are cut by some mail clients, chat apps and browsers' address bars. */
const MAX_URL = 2_000;

export interface BuildLinkDeps {
  publicUrl: string;
  accounts: AccountsService;
  clients: ClientsService;
  projects: ProjectsService;
  generations: GenerationsService;
  templates: TemplatesService;
}

export class BuildLinksService {
  constructor(
    private readonly database: Database,
    private readonly deps: BuildLinkDeps,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** A link to hand a person (an agent's `create_build_link`, `POST /api/v1/build-links`). */
  async create(orgId: string, body: CreateBuildLinkBody): Promise<{ url: string }> {
    const request: BuildRequest = { prompt: body.prompt, model: body.model ?? null, templateId: body.template_id ?? null, orgId };
    await this.check(orgId, request);
    const query = new URLSearchParams({ prompt: request.prompt, org: orgId });
    if (request.model) query.set('model', request.model);
    if (request.templateId) query.set('template', request.templateId);
    const url = `${this.deps.publicUrl}/build?${query}`;
    if (url.length <= MAX_URL) return { url };
    const token = await this.keep('link', request, LINK_TTL_MS);
    return { url: `${this.deps.publicUrl}/build?link=${token}` };
  }

  /** What the query of a `/build` visit asks for: its own parameters, or a kept link's or visit's. */
  async fromQuery(query: { prompt?: string; model?: string; template?: string; org?: string; link?: string; pending?: string }): Promise<BuildRequest> {
    const token = query.link ?? query.pending;
    if (token !== undefined) {
      const kept = await this.find(token, query.link !== undefined ? 'link' : 'pending');
      if (!kept) throw notFound('Build link (it has expired or was already used)');
      return kept;
    }
    const prompt = (query.prompt ?? '').trim();
    if (!prompt) throw invalid('The build link has no prompt: it needs ?prompt=, the website to build');
    if (prompt.length > MAX_BUILD_PROMPT) throw invalid(`The prompt is longer than ${MAX_BUILD_PROMPT.toLocaleString('en')} characters`);
    if (prompt.includes('\u0000')) throw invalid('The prompt must not contain a NUL character');
    const orgId = query.org?.trim() || null;
    if (orgId !== null && !(await this.orgExists(orgId))) throw notFound('Organization');
    return { prompt, model: query.model?.trim() || null, templateId: query.template?.trim() || null, orgId };
  }

  /** Checks the model and the template against the organization the project will belong to. */
  async check(orgId: string, request: BuildRequest): Promise<void> {
    if (request.orgId !== null && request.orgId !== orgId) throw notFound('Organization');
    const models = this.deps.generations.models;
    if (request.model !== null && !models.includes(request.model)) {
      throw invalid(`Unknown model '${request.model.slice(0, 100)}'; available: ${models.join(', ')}`);
    }
    if (request.templateId !== null) {
      const template = await this.deps.templates.get(orgId, request.templateId).catch(() => undefined);
      if (!template || !template.is_public) throw notFound('Template (a build link can start from a public template of the organization)');
    }
  }

  /** Keeps a visit while its visitor signs up or in; answers the token that resumes it. */
  keepVisit(request: BuildRequest): Promise<string> {
    return this.keep('pending', request, PENDING_TTL_MS);
  }

  /** Whether the organization lets visitors of its build link sign up as new clients. */
  async allowsSignUp(orgId: string): Promise<boolean> {
    const row = await this.db.selectFrom('organizations').select('build_link_signups').where('id', '=', orgId).executeTakeFirst();
    return Boolean(row && bool(row.build_link_signups));
  }

  async setSignUps(orgId: string, allowed: boolean): Promise<void> {
    await this.db.updateTable('organizations').set({ build_link_signups: allowed }).where('id', '=', orgId).execute();
  }

  /**
   * A visitor signs up through an organization's build link: a new account that is an `active`
   * client of that organization on its default plan, in one transaction (client.created fires).
   */
  async signUp(orgId: string, input: { email: string; password: string; name: string | null }) {
    if (!(await this.allowsSignUp(orgId))) throw new NotAllowedError('This organization does not take sign-ups through its build link: ask it for an invitation');
    const plan = await this.db.selectFrom('plans').select('id').where('org_id', '=', orgId).where('is_default', '=', true).where('is_active', '=', true).executeTakeFirst();
    const userId = newId();
    let clientId = '';
    const user = await this.deps.accounts.createUser({ id: userId, ...input }, async (trx: Executor) => {
      clientId = (await this.deps.clients.createIn(trx, orgId, { email: input.email.trim(), name: input.name, plan_id: plan?.id ?? null }, { status: 'active', userId })).id;
    });
    return { user, clientId };
  }

  /**
   * Starts the build for a client: the project (its plan's max_sites applies), then the generation
   * (its daily AI limit applies, checked first so that a refused build leaves no empty project).
   */
  async start(orgId: string, clientId: string, request: BuildRequest, actor: { userId: string }): Promise<{ project: Project; generation: Generation }> {
    await this.check(orgId, request);
    const client = await this.deps.clients.get(orgId, clientId);
    const allowance = await this.deps.generations.clientAllowance(orgId, clientId);
    if (allowance && allowance.used >= allowance.limit) {
      const seconds = Math.max(1, Math.ceil((Date.parse(allowance.renewsAt) - Date.now()) / 1000));
      throw new RateLimitedError(`Daily AI message limit reached: the plan '${allowance.plan}' allows ${allowance.limit} a day; it renews at ${allowance.renewsAt}`, seconds);
    }
    const project = await this.deps.projects.create(orgId, {
      client_email: client.email,
      name: projectName(request.prompt),
      ...(request.templateId ? { template_id: request.templateId } : {}),
    });
    const generation = await this.deps.generations.create(orgId, project.id, { prompt: request.prompt, ...(request.model ? { model: request.model } : {}) }, actor);
    return { project, generation };
  }

  /** Removes a kept visit once it has been used. */
  async forget(token: string): Promise<void> {
    await this.db.deleteFrom('build_requests').where('token_hash', '=', hashToken(token)).where('kind', '=', 'pending').execute();
  }

  private async keep(kind: 'pending' | 'link', request: BuildRequest, ttlMs: number): Promise<string> {
    const token = newToken();
    const now = Date.now();
    await this.db.deleteFrom('build_requests').where('expires_at', '<=', new Date(now).toISOString()).execute();
    await this.db
      .insertInto('build_requests')
      .values({
        token_hash: hashToken(token),
        kind,
        org_id: request.orgId,
        prompt: request.prompt,
        model: request.model,
        template_id: request.templateId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + ttlMs).toISOString(),
      })
      .execute();
    return token;
  }

  private async find(token: string, kind: 'pending' | 'link'): Promise<BuildRequest | undefined> {
    if (!/^[A-Za-z0-9_-]{16,100}$/.test(token)) return undefined;
    const row = await this.db.selectFrom('build_requests').selectAll().where('token_hash', '=', hashToken(token)).where('kind', '=', kind).executeTakeFirst();
    if (!row || new Date(String(row.expires_at)).getTime() <= Date.now()) return undefined;
    return { prompt: row.prompt, model: row.model, templateId: row.template_id, orgId: row.org_id };
  }

  private async orgExists(orgId: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(orgId)) return false;
    return Boolean(await this.db.selectFrom('organizations').select('id').where('id', '=', orgId.toLowerCase()).executeTakeFirst());
  }
}

/** A project name from the prompt's first words (the generator names the site itself). */
function projectName(prompt: string): string {
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ');
  let name = '';
  for (const word of words) {
    if ((name + ' ' + word).trim().length > 60) break;
    name = (name + ' ' + word).trim();
  }
  return name || prompt.slice(0, 60);
}
