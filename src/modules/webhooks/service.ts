// Webhook endpoints: https URLs (http and private targets only with WEBHOOKS_ALLOW_PRIVATE),
// at least one known event kind, a Standard Webhooks secret shown once and rotated with overlap.
import type { Updateable } from 'kysely';
import type { WebhookSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import type { WebhooksTable } from '../../db/schema.ts';
import { notFound } from '../common/errors.ts';
import { mapStreamed, type ListPage, type StreamedList } from '../common/paging.ts';
import { newId } from '../../lib/ids.ts';
import { nowIso } from '../../lib/clock.ts';
import { generateWebhookSecret } from '../../lib/webhook-secret.ts';
import { bool } from '../../db/executor.ts';
import * as repo from './repo.ts';
import type { CreateWebhookBody, EventType, UpdateWebhookBody, Webhook } from './schema.ts';
import { checkWebhookUrl } from './url-policy.ts';
import { dropPending } from './deliveries-repo.ts';
import { expireHeldDeliveries } from '../../events/held-deliveries.ts';
import { signalWork } from '../../jobs/signal.ts';
import { agencyOrg } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';

const REFUSAL = "Webhooks are the agency's to manage";

const unique = (events: EventType[]) => JSON.stringify([...new Set(events)]);

export class WebhooksService {
  private readonly listQuery: ReturnType<typeof repo.webhookList>;

  constructor(
    private readonly database: Database,
    private readonly config: { webhooks: WebhookSettings; webhooksAllowPrivate: boolean },
  ) {
    this.listQuery = repo.webhookList(database);
  }

  private get db() {
    return this.database.db;
  }

  async list(principal: Principal, limit: number, offset: number): Promise<ListPage<Webhook>> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    const { rows, total } = await this.listQuery.page(orgId, limit, offset);
    return { records: rows.map(repo.toWebhook), total };
  }

  /** Every endpoint from `offset` on, newest first, read a page at a time. */
  streamAll(principal: Principal, offset: number): StreamedList<Webhook> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    return mapStreamed(this.listQuery.streamAll(orgId, offset), repo.toWebhook);
  }

  async get(principal: Principal, id: string): Promise<Webhook> {
    const orgId = agencyOrg(principal, 'read', REFUSAL, true);
    const row = await repo.findWebhook(this.db, orgId, id);
    if (!row) throw notFound('Webhook');
    return repo.toWebhook(row);
  }

  async create(principal: Principal, body: CreateWebhookBody): Promise<Webhook & { secret: string }> {
    const orgId = agencyOrg(principal, 'write', REFUSAL, true);
    const now = nowIso();
    const row = {
      id: newId(),
      org_id: orgId,
      url: checkWebhookUrl(body.url, this.config.webhooksAllowPrivate),
      events: unique(body.events),
      is_active: true,
      secret: generateWebhookSecret(),
      previous_secret: null,
      previous_secret_expires_at: null,
      disabled_reason: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await repo.insertWebhook(this.db, row);
    return { ...repo.toWebhook(row), secret: row.secret };
  }

  async update(principal: Principal, id: string, body: UpdateWebhookBody): Promise<Webhook> {
    const orgId = agencyOrg(principal, 'write', REFUSAL, true);
    const updated = await this.database.transaction(async (trx) => {
      const current = await repo.findWebhook(trx, orgId, id);
      if (!current) throw notFound('Webhook');
      const changes: Updateable<WebhooksTable> = { updated_at: nowIso() };
      if (body.url !== undefined) changes.url = checkWebhookUrl(body.url, this.config.webhooksAllowPrivate);
      if (body.events !== undefined) changes.events = unique(body.events);
      if (body.is_active !== undefined) {
        changes.is_active = body.is_active;
        // Switched on or off by a person: whatever the service had concluded no longer applies.
        changes.disabled_reason = null;
        changes.failing_since = null;
        if (body.is_active && !bool(current.is_active)) {
          // Held deliveries past their schedule become failed before the rest go out.
          await expireHeldDeliveries(trx, this.config.webhooks.retrySchedule, { webhookId: id });
        }
      }
      await repo.updateWebhook(trx, orgId, id, changes);
      return repo.toWebhook((await repo.findWebhook(trx, orgId, id))!);
    });
    // Switched back on: its held deliveries are due.
    if (body.is_active) signalWork('outbox');
    return updated;
  }

  /**
   * Deletes the endpoint and drops its pending deliveries (status `dropped`, no more attempts).
   * The delivery records stay (the endpoint has no foreign key on them), so what was and was not
   * sent remains on record; they leave with the organization.
   */
  async delete(principal: Principal, id: string): Promise<void> {
    const orgId = agencyOrg(principal, 'write', REFUSAL, true);
    await this.database.transaction(async (trx) => {
      if (!(await repo.deleteWebhook(trx, orgId, id))) throw notFound('Webhook');
      await dropPending(trx, orgId, id);
    });
  }

  /**
   * A new secret, returned once. For WEBHOOK_SECRET_ROTATION_OVERLAP (24 h) deliveries are signed
   * with both, so a receiver can switch to the new secret without missing a delivery.
   */
  async rotateSecret(principal: Principal, id: string): Promise<{ webhook: Webhook; secret: string }> {
    const orgId = agencyOrg(principal, 'write', REFUSAL, true);
    return this.database.transaction(async (trx) => {
      const current = await repo.findWebhook(trx, orgId, id);
      if (!current) throw notFound('Webhook');
      const now = Date.now();
      const secret = generateWebhookSecret();
      await repo.updateWebhook(trx, orgId, id, {
        secret,
        previous_secret: current.secret,
        previous_secret_expires_at: new Date(now + this.config.webhooks.rotationOverlapMs).toISOString(),
        updated_at: new Date(now).toISOString(),
      });
      return { webhook: repo.toWebhook(current), secret };
    });
  }
}
