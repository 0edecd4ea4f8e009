// Webhook delivery: the event outbox, one delivery per (event, endpoint), one row per attempt,
// and the endpoint columns that rotation and automatic disabling need.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';

  // SQLite adds one column per ALTER TABLE.
  for (const [name, type] of [
    ['previous_secret', 'text'],
    ['previous_secret_expires_at', ts],
    ['disabled_reason', 'text'],
    ['failing_since', ts],
  ] as const) {
    await db.schema.alterTable('webhooks').addColumn(name, type).execute();
  }

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    // The exact body every delivery sends, serialized once so retries and endpoints get the same bytes.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_org_created').on('events').columns(['org_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // No foreign key: a deleted endpoint's deliveries stay, marked dropped, as the record of what happened.
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts)
    // A dispatcher owns a delivery while lease_until is in the future; lease_token proves which one.
    .addColumn('lease_until', ts)
    .addColumn('lease_token', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // Claiming walks one endpoint's due deliveries in order; the log lists one endpoint's newest first.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_event')
    .on('webhook_deliveries')
    .column('event_id')
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempted_at', ts, (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'attempted_at'])
    .execute();

  if (engine === 'postgres') {
    // Deliveries churn (claimed, leased, finished); vacuum them sooner than the default 20 %.
    await sql`ALTER TABLE webhook_deliveries SET (autovacuum_vacuum_scale_factor = 0.05)`.execute(db);
  }
}
