// AI generation jobs. A row is the user's request (prompt, model) and the job that carries it out:
// claimed with a lease like webhook deliveries, so a job whose process died is taken over.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('generations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // The client whose daily AI message quota the generation counts against.
    .addColumn('org_client_id', 'text')
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('summary', 'text')
    // JSON array of the paths the generation wrote, once it succeeded.
    .addColumn('files', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts)
    .addColumn('lease_until', ts)
    .addColumn('lease_token', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('finished_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('generations_due')
    .on('generations')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('generations_project')
    .on('generations')
    .columns(['project_id', 'created_at'])
    .execute();
  // The daily message limit counts a client's generations since midnight UTC.
  await db.schema
    .createIndex('generations_client_day')
    .on('generations')
    .columns(['org_client_id', 'created_at'])
    .execute();
}
