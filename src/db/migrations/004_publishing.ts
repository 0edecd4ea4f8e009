// Publishing: immutable deployments (a frozen copy of the files a publish served), the project's
// current deployment, custom domains, and secrets the service generates once for all instances.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('deployments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('total_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deployments_project')
    .on('deployments')
    .columns(['project_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('deployment_files')
    .addColumn('deployment_id', 'text', (c) => c.notNull().references('deployments.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('content', bytes, (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('deployment_files_pk', ['deployment_id', 'path'])
    .execute();

  // The deployment a published site serves; null when unpublished. No foreign key: SQLite cannot
  // add one to an existing table, and deployments are only ever removed with their project.
  await db.schema.alterTable('projects').addColumn('current_deployment_id', 'text').execute();

  // Custom domains: unique across the whole service; checked in DNS until verified.
  await db.schema
    .createTable('project_domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('verification_token', 'text', (c) => c.notNull())
    // JSON: what the last DNS check found for each record.
    .addColumn('check_results', 'text')
    .addColumn('verified_at', ts)
    .addColumn('last_checked_at', ts)
    .addColumn('next_attempt_at', ts)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', ts)
    .addColumn('lease_token', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_domains_project')
    .on('project_domains')
    .columns(['project_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('project_domains_due')
    .on('project_domains')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
}
