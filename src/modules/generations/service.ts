// Business rules for AI generation requests: the project must be the caller's, the model one of
// those configured, and the client within its plan's daily AI message quota. The request is only
// queued here; the generation worker (worker.ts) carries it out.
import type { Database } from '../../db/index.ts';
import { RateLimitedError, invalid, notFound } from '../common/errors.ts';
import { requireProject } from '../projects/repo.ts';
import { newId } from '../../lib/ids.ts';
import type { ProviderRegistry } from './provider.ts';
import { signalWork } from '../../jobs/signal.ts';
import { findClientPlanId } from '../clients/repo.ts';
import { findPlan } from '../plans/repo.ts';
import * as repo from './repo.ts';
import type { Actor } from '../versions/schema.ts';
import type { GenerateBody, Generation } from './schema.ts';

export class GenerationsService {
  constructor(
    private readonly database: Database,
    private readonly providers: ProviderRegistry,
  ) {}

  async create(orgId: string, projectId: string, body: GenerateBody, actor: Actor = {}, now = new Date()): Promise<Generation> {
    const model = body.model ?? this.providers.defaultModel;
    if (!this.providers.providerFor(model)) {
      throw invalid(`field 'model': unknown model '${model}'; available: ${this.providers.models.join(', ')}`);
    }
    const generation = await this.database.db.transaction().execute(async (trx) => {
      const project = await requireProject(trx, orgId, projectId, { lock: this.database.engine === 'postgres' });
      if (project.org_client_id) {
        // SQLite runs one write transaction at a time; on PostgreSQL the client row is locked so
        // that two requests cannot both take the last message of the day.
        const client = await findClientPlanId(trx, orgId, project.org_client_id, this.database.engine === 'postgres');
        if (client?.plan_id) {
          const plan = await findPlan(trx, orgId, client.plan_id);
          if (plan) {
            const midnight = utcMidnight(now);
            const used = await repo.messagesUsed(trx, client.id, midnight.toISOString().slice(0, 10));
            if (used >= plan.max_ai_messages_daily) throw dailyLimitReached(plan.name, plan.max_ai_messages_daily, midnight, now);
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
      if (project.org_client_id) await repo.countMessage(trx, project.org_client_id, at.slice(0, 10));
      return repo.toGeneration(row);
    });
    signalWork('generations');
    return generation;
  }

  async get(orgId: string, projectId: string, id: string): Promise<Generation> {
    await requireProject(this.database.db, orgId, projectId);
    const row = await repo.findGeneration(this.database.db, orgId, projectId, id);
    if (!row) throw notFound('Generation');
    return repo.toGeneration(row);
  }

  async list(orgId: string, projectId: string, limit: number, offset: number): Promise<{ generations: Generation[]; total: number }> {
    await requireProject(this.database.db, orgId, projectId);
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

