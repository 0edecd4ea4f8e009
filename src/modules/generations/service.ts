// Business rules for AI generation requests: the project must be the caller's, the model one of
// those configured, and the client within its plan's daily AI message quota. The request is only
// queued here; the generation worker (worker.ts) carries it out.
import type { Database } from '../../db/index.ts';
import { ConflictError, RateLimitedError, invalid, notFound } from '../common/errors.ts';
import { lockProject } from '../projects/repo.ts';
import { newId } from '../../lib/ids.ts';
import type { ModelSource, ProviderRegistry } from './provider.ts';
import { findClientPlanId } from '../clients/repo.ts';
import { findPlan } from '../plans/repo.ts';
import * as repo from './repo.ts';
import { appendEvent, eventsAfter, FINAL_KINDS } from './progress.ts';
import { onWork, signalStop, signalWork } from '../../jobs/signal.ts';
import { requireAbility, requirePermission, requireVisibleProject } from '../access/access.ts';
import { visibleProject } from '../access/projects.ts';
import { authorOf, type Principal } from '../access/principal.ts';

/** One generation of one project: named, so that the two ids cannot be swapped. */
export interface GenerationRef {
  projectId: string;
  generationId: string;
}
import type { GenerateBody, Generation, GenerationEvent } from './schema.ts';

export interface DailyAllowance {
  plan: string;
  limit: number;
  used: number;
  /** Midnight UTC, when the count starts again. */
  renewsAt: string;
}

export class GenerationsService {
  constructor(
    private readonly database: Database,
    private readonly models: ModelSource,
  ) {}

  /** The models a prompt of the organization may name, the default first (org-model.ts). */
  async modelsFor(orgId: string | null): Promise<ProviderRegistry> {
    return this.models.choiceFor(orgId);
  }

  async create(
    principal: Principal,
    projectId: string,
    body: GenerateBody,
    now = new Date(),
  ): Promise<Generation> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'generate');
    const { orgId } = principal;
    const actor = authorOf(principal);
    const choice = await this.models.choiceFor(orgId);
    const model = body.model ?? choice.defaultModel;
    if (!choice.providerFor(model)) {
      throw invalid(`field 'model': unknown model '${model}'; available: ${choice.models.join(', ')}`);
    }
    const generation = await this.database.transaction(async (trx) => {
      const project = await lockProject(trx, orgId, projectId);
      requireVisibleProject(principal, project);
      if (project.org_client_id) {
        // SQLite runs one write transaction at a time; on PostgreSQL the client row is locked so
        // that two requests cannot both take the last message of the day.
        const client = await findClientPlanId(trx, orgId, project.org_client_id, true);
        if (client?.plan_id) {
          const plan = await findPlan(trx, orgId, client.plan_id);
          if (plan) {
            const midnight = utcMidnight(now);
            const used = await repo.messagesUsed(trx, client.id, midnight.toISOString().slice(0, 10));
            if (used >= plan.max_ai_messages_daily)
              throw dailyLimitReached(plan.name, plan.max_ai_messages_daily, midnight, now);
          }
        }
      }
      const at = now.toISOString();
      const row = {
        id: newId(),
        org_id: orgId,
        project_id: projectId,
        org_client_id: project.org_client_id,
        author_user_id: actor.userId ?? null,
        author_key_id: actor.userId ? null : (actor.keyId ?? null),
        prompt: body.prompt,
        element: body.element ? JSON.stringify(body.element) : null,
        model,
        status: 'queued' as const,
        error: null,
        summary: null,
        files: null,
        attempts: 0,
        next_attempt_at: at,
        lease_until: null,
        lease_token: null,
        created_at: at,
        started_at: null,
        finished_at: null,
        updated_at: at,
      };
      await repo.insertGeneration(trx, row);
      await appendEvent(trx, {
        generationId: row.id,
        orgId,
        kind: 'queued',
        message: `Queued (${model})`,
      });
      if (project.org_client_id) await repo.countMessage(trx, project.org_client_id, at.slice(0, 10));
      return repo.toGeneration(row);
    });
    signalWork('generations');
    return generation;
  }

  async get(principal: Principal, { projectId, generationId }: GenerationRef): Promise<Generation> {
    await visibleProject(this.database.db, principal, projectId);
    const row = await repo.findGeneration(this.database.db, principal.orgId, projectId, generationId);
    if (!row) throw notFound('Generation');
    return repo.toGeneration(row);
  }

  /**
   * Stops a queued or running generation: it becomes `cancelled` and its files are never applied
   * (the worker's lease is taken away, so its result no longer counts). A finished one is a 409.
   */
  async cancel(principal: Principal, { projectId, generationId: id }: GenerationRef): Promise<Generation> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'generate');
    const { orgId } = principal;
    const cancelled = await this.database.transaction(async (trx) => {
      requireVisibleProject(principal, await lockProject(trx, orgId, projectId));
      const row = await repo.findGeneration(trx, orgId, projectId, id);
      if (!row) throw notFound('Generation');
      if (row.status !== 'queued' && row.status !== 'running') {
        throw new ConflictError(`The generation has already finished (status '${row.status}')`);
      }
      const now = new Date().toISOString();
      const changes = {
        status: 'cancelled' as const,
        next_attempt_at: null,
        lease_until: null,
        lease_token: null,
        finished_at: now,
        updated_at: now,
      };
      await repo.updateGeneration(trx, id, changes);
      await appendEvent(trx, {
        generationId: id,
        orgId,
        kind: 'cancelled',
        message: 'Stopped: no file was changed',
      });
      return repo.toGeneration({ ...row, ...changes });
    });
    // A worker of this process running it stops at once (another process's finds out by itself).
    signalStop(id);
    return cancelled;
  }

  /**
   * The generation's events after `afterSeq`, as they are recorded, ending with its last one (or
   * when `signal` aborts). The scope is checked before the first event; events written by another
   * process are found by polling every `pollMs`, those of this process at once.
   */
  async *follow(
    principal: Principal,
    ref: GenerationRef,
    afterSeq: number,
    signal: AbortSignal,
    pollMs = 100,
  ): AsyncGenerator<GenerationEvent> {
    await this.get(principal, ref);
    const { orgId } = principal;
    const id = ref.generationId;
    let last = afterSeq;
    while (!signal.aborted) {
      const woken = nextWake(pollMs, signal);
      for (const event of await eventsAfter(this.database.db, orgId, id, last)) {
        last = event.seq;
        yield event;
        if (FINAL_KINDS.has(event.kind)) return woken.cancel();
      }
      await woken.promise;
    }
  }

  /**
   * The project's client's AI messages today against its plan's `max_ai_messages_daily` (null:
   * no client or no plan, so no limit), for the builder to show before a prompt is refused.
   */
  async dailyAllowance(
    principal: Principal,
    projectId: string,
    now = new Date(),
  ): Promise<DailyAllowance | null> {
    const project = await visibleProject(this.database.db, principal, projectId);
    return project.org_client_id ? this.clientAllowance(principal, project.org_client_id, now) : null;
  }

  /** The same for a client (a build link checks it before it creates the project). */
  async clientAllowance(
    principal: Principal,
    clientId: string,
    now = new Date(),
  ): Promise<DailyAllowance | null> {
    const { orgId } = principal;
    if (principal.clientId !== undefined && principal.clientId !== clientId) return null;
    const client = await findClientPlanId(this.database.db, orgId, clientId, false);
    const plan = client?.plan_id ? await findPlan(this.database.db, orgId, client.plan_id) : undefined;
    if (!client || !plan) return null;
    const midnight = utcMidnight(now);
    const used = await repo.messagesUsed(this.database.db, client.id, midnight.toISOString().slice(0, 10));
    return {
      plan: plan.name,
      limit: plan.max_ai_messages_daily,
      used,
      renewsAt: new Date(midnight.getTime() + 86_400_000).toISOString(),
    };
  }

  async list(
    principal: Principal,
    projectId: string,
    limit: number,
    offset: number,
  ): Promise<{ generations: Generation[]; total: number }> {
    await visibleProject(this.database.db, principal, projectId);
    const { orgId } = principal;
    const { rows, total } = await repo.listGenerations(this.database.db, orgId, projectId, limit, offset);
    return { generations: rows.map(repo.toGeneration), total };
  }
}

function utcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Refused until the quota renews at the next midnight UTC. */
function dailyLimitReached(planName: string, limit: number, midnight: Date, now: Date): RateLimitedError {
  const renews = new Date(midnight.getTime() + 86_400_000);
  const seconds = Math.max(1, Math.ceil((renews.getTime() - now.getTime()) / 1000));
  return new RateLimitedError(
    `Daily AI message limit reached: this client's plan '${planName}' allows max_ai_messages_daily = ${limit}; it renews at ${renews.toISOString()}`,
    seconds,
  );
}

/** Resolves after `ms`, when a progress event is recorded in this process, or when `signal` aborts. */
function nextWake(ms: number, signal: AbortSignal): { promise: Promise<void>; cancel: () => void } {
  let done: () => void = () => {};
  const promise = new Promise<void>((resolve) => (done = resolve));
  const timer = setTimeout(finish, ms);
  const unsubscribe = onWork('progress', finish);
  signal.addEventListener('abort', finish, { once: true });
  function finish() {
    clearTimeout(timer);
    unsubscribe();
    signal.removeEventListener('abort', finish);
    done();
  }
  return { promise, cancel: finish };
}
