// AI messages used per client and UTC day, for the plan's max_ai_messages_daily. Counted apart
// from the generations themselves, which go with their project: deleting a project must not give
// a client its day's messages back.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('ai_usage')
    .addColumn('org_client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    // YYYY-MM-DD (UTC)
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('messages', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ai_usage_pk', ['org_client_id', 'day'])
    .execute();
  const day =
    engine === 'postgres'
      ? sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`
      : sql`substr(created_at, 1, 10)`;
  await sql`insert into ai_usage (org_client_id, day, messages)
    select g.org_client_id, ${day}, count(*) from generations g
    where g.org_client_id is not null and exists (select 1 from clients c where c.id = g.org_client_id)
    group by g.org_client_id, ${day}`.execute(db);
}
