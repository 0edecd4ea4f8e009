// The build link (`/build?prompt=&model=&template=&org=`): a person opens it and gets a project
// seeded with the prompt, its generation started. This service checks what a link asks for, keeps
// the links made through the API whose prompt is too long for a URL, lets a visitor sign up as a
// client of an organization that allows it (once the email is confirmed), and starts the build
// for a client through the same services as the REST API (plan limits, events, versions).
// Nothing is kept for a signed-out visitor who only looks: the request travels in the pages' forms.
import { clientAccountPrincipal, systemPrincipal, type Principal } from '../access/principal.ts';
import { agencyOrg, managerOrg } from '../access/access.ts';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { newId } from '../../lib/ids.ts';
import {
  DomainError,
  NotAllowedError,
  RateLimitedError,
  forPeople,
  invalid,
  notFound,
} from '../common/errors.ts';
import type { AccountsService, User } from '../accounts/service.ts';
import type { PendingSignUp } from '../accounts/signups.ts';
import type { ClientsService } from '../clients/service.ts';
import type { GenerationsService } from '../generations/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import type { TemplatesService } from '../templates/service.ts';
import type { Project } from '../projects/schema.ts';
import type { Generation } from '../generations/schema.ts';
import { findDefaultPlanId } from '../plans/repo.ts';
import * as orgRepo from '../orgs/repo.ts';
import * as repo from './repo.ts';
import { MAX_BUILD_PROMPT, type BuildRequest, type CreateBuildLinkBody } from './schema.ts';

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
  async create(principal: Principal, body: CreateBuildLinkBody): Promise<{ url: string }> {
    const orgId = agencyOrg(principal, 'write', "Build links are the agency's to make");
    const request: BuildRequest = {
      prompt: body.prompt,
      model: body.model ?? null,
      templateId: body.template_id ?? null,
      orgId,
    };
    await this.check(orgId, request);
    const query = new URLSearchParams({ prompt: request.prompt, org: orgId });
    if (request.model) query.set('model', request.model);
    if (request.templateId) query.set('template', request.templateId);
    const url = `${this.deps.publicUrl}/build?${query}`;
    if (url.length <= MAX_URL) return { url };
    const token = await this.keep(request, LINK_TTL_MS);
    return { url: `${this.deps.publicUrl}/build?link=${token}` };
  }

  /** What the query of a `/build` visit asks for: its own parameters, or a kept link's. */
  async fromQuery(query: {
    prompt?: string;
    model?: string;
    template?: string;
    org?: string;
    link?: string;
  }): Promise<BuildRequest> {
    if (query.link !== undefined) {
      const kept = await this.find(query.link);
      if (!kept)
        throw forPeople(
          notFound('Build link (it has expired)'),
          'This build link has expired. Ask the agency that sent it for a new one.',
        );
      return kept;
    }
    const prompt = (query.prompt ?? '').trim();
    if (!prompt) throw invalid('The build link has no prompt: it needs ?prompt=, the website to build');
    if (prompt.length > MAX_BUILD_PROMPT)
      throw invalid(`The prompt is longer than ${MAX_BUILD_PROMPT.toLocaleString('en')} characters`);
    if (prompt.includes('\u0000')) throw invalid('The prompt must not contain a NUL character');
    const orgId = query.org?.trim() || null;
    if (orgId !== null && !(await this.orgExists(orgId)))
      throw forPeople(
        notFound('Organization'),
        'The agency this build link names does not exist here. Check the link with whoever sent it.',
      );
    return { prompt, model: query.model?.trim() || null, templateId: query.template?.trim() || null, orgId };
  }

  /**
   * Checks the model and the template against the organization the project will belong to
   * (before anyone is asked to sign in for a link that cannot work). The messages are for the
   * person who opened the link.
   */
  async check(orgId: string, request: BuildRequest): Promise<void> {
    if (request.orgId !== null && request.orgId !== orgId)
      throw forPeople(
        notFound('Organization'),
        'This build link belongs to another agency: open it signed in there.',
      );
    await this.checkModel(orgId, request);
    if (request.templateId !== null) {
      const template = /^[0-9a-f-]{36}$/i.test(request.templateId)
        ? await this.deps.templates.get(systemPrincipal(orgId), request.templateId).catch(() => undefined)
        : undefined;
      if (!template || !template.is_public)
        throw forPeople(
          notFound('Template (a build link can start from a public template of the organization)'),
          'The design this build link starts from no longer exists. Ask the agency that sent it for a new link.',
        );
    }
  }

  /**
   * A model the organization does not have: said on the link's first page. Before the
   * organization is known (a link without `org`), the installation's models only: a link naming
   * an organization's own model carries its `org`, as every link the dashboard and the API make does.
   */
  async checkModel(orgId: string | null, request: BuildRequest): Promise<void> {
    const { models } = await this.deps.generations.modelsFor(orgId);
    if (request.model !== null && !models.includes(request.model)) {
      const error = invalid(
        `Unknown model '${request.model.slice(0, 100)}'; available: ${models.join(', ')}`,
      );
      throw forPeople(
        error,
        `This build link asks for an AI model this service does not have ('${request.model.slice(0, 100)}'). Ask the agency that sent it for a new link.`,
      );
    }
  }

  /** Whether the organization lets visitors of its build link sign up as new clients. */
  allowsSignUp(orgId: string): Promise<boolean> {
    return repo.signUpsAllowed(this.db, orgId);
  }

  /**
   * Lets visitors sign up as new clients, or stops it. Only with an active default plan: a
   * client without a plan would have no limit on sites or AI messages.
   */
  async setSignUps(principal: Principal, allowed: boolean): Promise<void> {
    const orgId = managerOrg(principal);
    if (allowed && !(await this.defaultPlan(orgId))) {
      throw invalid(
        'Choose an active default plan first (Plans): every client who signs up through the build link gets it, and without one they would have no limit on websites or AI messages',
      );
    }
    await repo.setSignUpsAllowed(this.db, orgId, allowed);
  }

  private defaultPlan(orgId: string): Promise<string | undefined> {
    return findDefaultPlanId(this.db, orgId);
  }

  /** Whether visitors may sign up now: allowed, and a default plan to give them. */
  private async openForSignUps(orgId: string): Promise<string> {
    const plan = (await this.allowsSignUp(orgId)) ? await this.defaultPlan(orgId) : undefined;
    if (!plan)
      throw new NotAllowedError(
        'This agency does not take sign-ups through its build link right now: ask it for an invitation',
      );
    return plan;
  }

  /**
   * A visitor signs up through an organization's build link: kept with the request until the
   * email is confirmed (a mailed link); nothing is an account or a client before that.
   */
  async signUp(
    orgId: string,
    input: { email: string; password: string; name: string | null },
    request: BuildRequest,
    address: string,
  ): Promise<{ email: string }> {
    await this.openForSignUps(orgId);
    await this.check(orgId, request);
    const orgName = await orgRepo.orgName(this.db, orgId);
    return this.deps.accounts.signups.request(
      {
        kind: 'build',
        ...input,
        orgId,
        orgName,
        prompt: request.prompt,
        model: request.model,
        templateId: request.templateId,
      },
      address,
    );
  }

  /**
   * The confirmation link of a build-link sign-up was followed: a new account that is an `active`
   * client of the organization on its default plan, in one transaction (client.created fires),
   * then the build. A build that cannot start (the template went away, the plan changed) leaves
   * the account; `problem` says why, for the portal.
   */
  async confirmSignUp(
    token: string,
    pending: PendingSignUp,
  ): Promise<{ user: User; project: Project | null; problem: string | null }> {
    const orgId = pending.orgId!;
    const planId = await this.openForSignUps(orgId);
    const userId = newId();
    let clientId = '';
    const user = await this.deps.accounts.createUser(
      { id: userId, email: pending.email, passwordHash: pending.passwordHash, name: pending.name },
      async (trx: Executor) => {
        await this.deps.accounts.spendSignUp(trx, token);
        clientId = (
          await this.deps.clients.createIn(
            trx,
            orgId,
            { email: pending.email, name: pending.name, plan_id: planId },
            { status: 'active', userId },
          )
        ).id;
      },
    );
    const request: BuildRequest = {
      prompt: pending.prompt ?? '',
      model: pending.model,
      templateId: pending.templateId,
      orgId,
    };
    try {
      const { project } = await this.start(orgId, clientId, request, { userId });
      return { user, project, problem: null };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { user, project: null, problem: error.plain ?? error.message };
    }
  }

  /**
   * Starts the build for a client: the project (its plan's max_sites applies), then the generation
   * (its daily AI limit applies, checked first so that a refused build leaves no empty project).
   */
  async start(
    orgId: string,
    clientId: string,
    request: BuildRequest,
    actor: { userId: string },
  ): Promise<{ project: Project; generation: Generation }> {
    await this.check(orgId, request);
    const client = await this.deps.clients.get(systemPrincipal(orgId), clientId);
    const allowance = await this.deps.generations.clientAllowance(systemPrincipal(orgId), clientId);
    if (allowance && allowance.used >= allowance.limit) {
      const seconds = Math.max(1, Math.ceil((Date.parse(allowance.renewsAt) - Date.now()) / 1000));
      const error = new RateLimitedError(
        `Daily AI message limit reached: the plan '${allowance.plan}' allows ${allowance.limit} a day; it renews at ${allowance.renewsAt}`,
        seconds,
      );
      throw forPeople(
        error,
        `The ${allowance.limit} AI messages a day of the plan are used up; more are available from ${allowance.renewsAt.slice(11, 16)} UTC.`,
      );
    }
    // The build link acts for the agency: the visitor becomes its client.
    const project = await this.deps.projects.create(systemPrincipal(orgId), {
      client_email: client.email,
      name: projectName(request.prompt),
      ...(request.templateId ? { template_id: request.templateId } : {}),
    });
    // The generation is the visitor's own, as the client's account.
    const generation = await this.deps.generations.create(
      clientAccountPrincipal(orgId, clientId, actor.userId),
      project.id,
      { prompt: request.prompt, ...(request.model ? { model: request.model } : {}) },
    );
    return { project, generation };
  }

  private async keep(request: BuildRequest, ttlMs: number): Promise<string> {
    const token = newToken();
    const now = Date.now();
    await repo.deleteExpiredRequests(this.db, new Date(now).toISOString());
    await repo.insertRequest(this.db, {
      token_hash: hashToken(token),
      kind: 'link',
      org_id: request.orgId,
      prompt: request.prompt,
      model: request.model,
      template_id: request.templateId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + ttlMs).toISOString(),
    });
    return token;
  }

  private async find(token: string): Promise<BuildRequest | undefined> {
    if (!/^[A-Za-z0-9_-]{16,100}$/.test(token)) return undefined;
    const row = await repo.findLinkRequest(this.db, hashToken(token));
    if (!row || new Date(String(row.expires_at)).getTime() <= Date.now()) return undefined;
    return { prompt: row.prompt, model: row.model, templateId: row.template_id, orgId: row.org_id };
  }

  private async orgExists(orgId: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(orgId)) return false;
    return repo.orgExists(this.db, orgId.toLowerCase());
  }
}

/**
 * A project name from the prompt: what the site is for ("A website for Luna Bakery in Bristol,
 * with a menu" gives "Luna Bakery in Bristol"), cut at a word, never mid-word, with an ellipsis
 * when shortened. The generator names the site itself.
 */
export function projectName(prompt: string): string {
  const lead =
    /^\s*(?:please\s+)?(?:(?:build|make|create|design)\s+(?:me\s+|us\s+)?)?(?:(?:a|an|the|my|our)\s+)?(?:new\s+)?(?:web\s*site|site|landing page|home\s*page|web page)\s+(?:for|about|of)\s+/i;
  const subject = prompt
    .replace(/\s+/g, ' ')
    .replace(lead, '')
    .split(/[.!?;:\n]|,\s| with | featuring | including /i)[0]!
    .trim();
  const text = subject || prompt.replace(/\s+/g, ' ').trim();
  const name =
    text.length <= MAX_NAME
      ? text
      : `${text
          .slice(0, MAX_NAME + 1)
          .replace(/\s+\S*$/, '')
          .replace(/[\s,;:-]+$/, '')}…`;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

const MAX_NAME = 60;
