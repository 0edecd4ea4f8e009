// Business rules for projects: created for a client of the organization (optionally from one of
// its templates), within the client's plan limit, with a subdomain unique across the service.
import type { Database } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Executor } from '../../db/executor.ts';
import { NotFoundError, forPeople, notAllowed } from '../common/errors.ts';
import { newId } from '../../lib/ids.ts';
import { recordEvent } from '../../events/outbox.ts';
import { signalWork } from '../../jobs/signal.ts';
import { nowIso } from '../../lib/clock.ts';
import { findClientByEmailForProject, type ClientRow } from '../clients/repo.ts';
import { findPlan } from '../plans/repo.ts';
import { findTemplate } from '../templates/repo.ts';
import { projectBlobHashes, sweepBlobs } from '../files/blobs-repo.ts';
import type { ContentWriter } from '../content/writer.ts';
import { removeProjectRollups } from '../analytics/rollups.ts';
import { ProjectListQuery, type ProjectFilter } from './list-repo.ts';
import { nonBlank } from '../common/text.ts';
import * as repo from './repo.ts';
import {
  projectClientFilter,
  refuseEmbed,
  requireAbility,
  requireAgency,
  requireVisibleProject,
} from '../access/access.ts';
import type { Principal } from '../access/principal.ts';
import type { CreateProjectBody, Project, UpdateProjectBody } from './schema.ts';
import { isReserved, slugify, withSuffix } from './subdomain.ts';

/** Attempts at a free subdomain when concurrent creates race for the same one. */
const SUBDOMAIN_ATTEMPTS = 5;

export class ProjectsService {
  private readonly requireById: ReturnType<typeof repo.prepareRequireProject>;
  private readonly listQuery: ProjectListQuery;

  constructor(
    private readonly database: Database,
    private readonly publicUrl: string,
    private readonly writer: ContentWriter,
  ) {
    this.requireById = repo.prepareRequireProject(database);
    this.listQuery = new ProjectListQuery(database);
  }

  private get db() {
    return this.database.db;
  }

  builderUrl(id: string): string {
    return `${this.publicUrl}/app/projects/${id}`;
  }

  /** The projects a principal may see: a client's own account sees its client's only. */
  async list(
    principal: Principal,
    filter: ProjectFilter,
    limit: number,
    offset: number,
  ): Promise<{ projects: Project[]; total: number }> {
    const clientId = projectClientFilter(principal, filter.clientId);
    if (clientId === null) return { projects: [], total: 0 };
    // A principal of one project (an embed session opened for it) lists that one, as a page would.
    if (principal.projectId !== undefined) {
      const one = await this.get(principal, principal.projectId).catch(() => undefined);
      const shown = one && (!filter.status || one.status === filter.status) ? [one] : [];
      return { projects: offset === 0 ? shown.slice(0, limit) : [], total: shown.length };
    }
    const { rows, total } = await this.listQuery.run(principal.orgId, { ...filter, clientId }, limit, offset);
    return { projects: rows.map(repo.toProject), total };
  }

  /** A project the principal may see; another client's is "not found", as another organization's. */
  async get(principal: Principal, id: string): Promise<Project> {
    const project = repo.toProject(await this.requireById(principal.orgId, id));
    requireVisibleProject(principal, project);
    return project;
  }

  async create(principal: Principal, body: CreateProjectBody): Promise<Project> {
    // An embed session creates its own client's projects (within the plan); no other client scope does.
    if (principal.actor.kind === 'embed') {
      requireAbility(principal, 'edit');
      if (principal.projectId !== undefined)
        throw notAllowed('This embed session is for one project: it creates no other');
    } else requireAgency(principal, "Creating a project is for the agency's team");
    const { orgId, clientId: scope } = principal;
    const name = nonBlank('name', body.name);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.database.transaction((trx) =>
          this.insert(trx, { orgId, scope }, body, name, attempt > 1),
        );
      } catch (error) {
        // The only unique column written is the subdomain: another create took it between our
        // check and our insert. Start over (the transaction is void) with a random suffix.
        if (isUniqueViolation(error) && attempt < SUBDOMAIN_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  private async insert(
    trx: Executor,
    { orgId, scope }: { orgId: string; scope: string | undefined },
    body: CreateProjectBody,
    name: string,
    suffixed: boolean,
  ): Promise<Project> {
    // The client row locked (db/locks.ts) so that concurrent creates count its projects in turn.
    const client = await findClientByEmailForProject(trx, orgId, body.client_email, true);
    if (!client || (scope !== undefined && client.id !== scope))
      throw new NotFoundError(
        `field 'client_email': no client with email '${body.client_email}' in this organization`,
      );
    let template: { id: string; name: string } | undefined;
    if (body.template_id !== undefined) {
      template = await findTemplate(trx, orgId, body.template_id);
      if (!template)
        throw new NotFoundError(`field 'template_id': no template ${body.template_id} in this organization`);
    }
    await checkSiteLimit(trx, orgId, client);
    const now = nowIso();
    const row: repo.NewProjectRow = {
      id: newId(),
      org_id: orgId,
      user_id: client.user_id,
      org_client_id: client.id,
      name,
      name_lower: name.toLowerCase(),
      description: body.description ?? null,
      status: 'active',
      template: template?.name ?? null,
      template_id: template?.id ?? null,
      tags: '[]',
      starred: false,
      is_public: false,
      subdomain: await pickSubdomain(trx, name, suffixed),
      custom_domain: null,
      custom_domain_status: null,
      published_url: null,
      last_published_at: null,
      preview_image_url: null,
      created_at: now,
      updated_at: now,
      last_opened_at: null,
    };
    await repo.insertProject(trx, row);
    if (template) {
      await this.writer.changeNew(trx, row as repo.ProjectRow, {
        write: (files) => files.copyTemplate(template.id),
        version: () => ({ source: 'template', summary: `Started from the template '${template.name}'` }),
      });
    }
    const project = repo.toProject(row as repo.ProjectRow);
    await recordEvent(trx, { orgId, type: 'project.created', data: { project } });
    return project;
  }

  async update(principal: Principal, id: string, body: UpdateProjectBody): Promise<Project> {
    const { orgId } = principal;
    requireAbility(principal, 'edit');
    // A bad value is a 400 even for a project that does not exist (400 before 404).
    const name = body.name === undefined ? undefined : nonBlank('name', body.name);
    return this.database.transaction(async (trx) => {
      const current = await repo.lockProject(trx, orgId, id);
      requireVisibleProject(principal, current);
      const changes: {
        name?: string;
        name_lower?: string;
        description?: string | null;
        status?: string;
        tags?: string;
      } = {};
      if (name !== undefined) {
        changes.name = name;
        changes.name_lower = name.toLowerCase();
      }
      if (body.description !== undefined) changes.description = body.description;
      if (body.status !== undefined) changes.status = body.status;
      if (body.tags !== undefined) changes.tags = JSON.stringify(normalizeTags(body.tags));
      // The subdomain stays on rename: it is the published site's address.
      const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter(
        (k) => changes[k] !== current[k],
      );
      if (changed.length === 0) return repo.toProject(current);
      const updated_at = nowIso();
      await repo.updateProject(trx, orgId, id, { ...changes, updated_at });
      return repo.toProject({ ...current, ...changes, updated_at });
    });
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const { orgId } = principal;
    refuseEmbed(principal, 'An embed session cannot delete a project');
    // One client's account may delete only its own projects (an agency principal: any).
    if (principal.clientId !== undefined) await this.get(principal, id);
    await this.database.transaction(async (trx) => {
      // Its views leave the organization's analytics with it (raw views and visitor sets cascade).
      // Deleted first: on PostgreSQL the row lock waits for views being written for it, and holds
      // back later ones, so the rollups read next are final.
      const hashes = await projectBlobHashes(trx, orgId, id);
      await repo.deleteProject(trx, orgId, id);
      await removeProjectRollups(this.database, trx, orgId, id);
      // Content no other version, deployment or template holds goes with it.
      await sweepBlobs(trx, hashes);
    });
    // Its site, if published, is gone.
    signalWork('sites');
  }
}

/** Trimmed, without empty tags, each kept once in the order first given. */
export function normalizeTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))];
}

async function checkSiteLimit(trx: Executor, orgId: string, client: ClientRow): Promise<void> {
  if (!client.plan_id) return;
  const plan = await findPlan(trx, orgId, client.plan_id);
  if (!plan) return;
  const count = await repo.countClientProjects(trx, orgId, client.id);
  if (count >= plan.max_sites) {
    const error = notAllowed(
      `Plan limit reached: this client's plan '${plan.name}' allows max_sites = ${plan.max_sites} and the client has ${count} project(s)`,
    );
    throw forPeople(
      error,
      `The plan allows ${plan.max_sites} website${plan.max_sites === 1 ? '' : 's'}, and there ${count === 1 ? 'is' : 'are'} already ${count}.`,
    );
  }
}

async function pickSubdomain(trx: Executor, name: string, suffixed: boolean): Promise<string> {
  const slug = slugify(name);
  if (!suffixed && !isReserved(slug) && !(await repo.subdomainTaken(trx, slug))) return slug;
  return withSuffix(slug);
}
