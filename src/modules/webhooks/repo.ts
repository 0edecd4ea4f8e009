// SQL for webhook endpoints. Every function takes the organization id.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { bool, type Executor } from '../../db/executor.ts';
import type { Database } from '../../db/index.ts';
import { OrgList } from '../../db/org-list.ts';
import type { WebhooksTable } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';
import type { EventType, Webhook } from './schema.ts';

export type WebhookRow = Selectable<WebhooksTable>;

export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventType[],
    is_active: bool(row.is_active),
    disabled_reason: row.disabled_reason,
    created_at: toIso(row.created_at),
  };
}

export function findWebhook(db: Executor, orgId: string, id: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** GET /webhooks, newest first: a page, or every record in keyset pages. */
export function webhookList(database: Database): OrgList<WebhookRow> {
  return new OrgList<WebhookRow>(database, 'webhooks', { columns: ['created_at', 'id'], direction: 'desc' });
}

export async function insertWebhook(db: Executor, row: Insertable<WebhooksTable>): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function updateWebhook(
  db: Executor,
  orgId: string,
  id: string,
  changes: Updateable<WebhooksTable>,
): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('org_id', '=', orgId).where('id', '=', id).execute();
}

export async function deleteWebhook(db: Executor, orgId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
