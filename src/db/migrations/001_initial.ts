import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bool = engine === 'postgres' ? 'boolean' : 'integer';
  const real = engine === 'postgres' ? 'double precision' : 'real';
  const no = engine === 'postgres' ? sql`false` : sql`0`;
  const yes = engine === 'postgres' ? sql`true` : sql`1`;

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts)
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema.createIndex('api_keys_org').on('api_keys').columns(['org_id', 'created_at']).execute();

  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price', real, (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('max_sites', 'integer', (c) => c.notNull())
    .addColumn('max_ai_messages_daily', 'integer', (c) => c.notNull())
    .addColumn('can_export_code', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('can_use_custom_domain', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('is_active', bool, (c) => c.notNull().defaultTo(yes))
    .addColumn('is_default', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('plans_org')
    .on('plans')
    .columns(['org_id', 'sort_order', 'created_at'])
    .execute();

  await db.schema
    .createTable('clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lower', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('company', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.references('plans.id'))
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('clients_org_email')
    .on('clients')
    .columns(['org_id', 'email_lower'])
    .unique()
    .execute();
  await db.schema
    .createIndex('clients_org_created')
    .on('clients')
    .columns(['org_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('org_client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('template', 'text')
    .addColumn('template_id', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('starred', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('is_public', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('subdomain', 'text', (c) => c.unique())
    .addColumn('custom_domain', 'text')
    .addColumn('custom_domain_status', 'text')
    .addColumn('published_url', 'text')
    .addColumn('last_published_at', ts)
    .addColumn('preview_image_url', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('last_opened_at', ts)
    .execute();
  await db.schema
    .createIndex('projects_org_created')
    .on('projects')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('projects_client')
    .on('projects')
    .columns(['org_client_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('thumbnail_url', 'text')
    .addColumn('is_public', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('is_featured', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('source_project_id', 'text', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('templates_org_created')
    .on('templates')
    .columns(['org_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('is_active', bool, (c) => c.notNull().defaultTo(yes))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhooks_org_created')
    .on('webhooks')
    .columns(['org_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('page_views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('referrer', 'text')
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addColumn('viewed_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('page_views_org_time')
    .on('page_views')
    .columns(['org_id', 'viewed_at'])
    .execute();
  await db.schema
    .createIndex('page_views_project_time')
    .on('page_views')
    .columns(['project_id', 'viewed_at'])
    .execute();
}
