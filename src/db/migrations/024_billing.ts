// Client billing through the organization's own Stripe account (its key, or Stripe Connect). A
// connection is kept after it is disconnected (`disconnected_at`), so that reconnecting the same
// account in the same mode finds its customers, prices and payments again; at most one connection
// of an organization is live at a time. Keys and signing secrets are sealed (lib/secrets.ts).
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bool = engine === 'postgres' ? 'boolean' : 'integer';
  const org = (c: ColumnDefinitionBuilder) => c.notNull().references('organizations.id').onDelete('cascade');
  await db.schema
    .alterTable('organizations')
    .addColumn('billing_settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  // The plan's Product and current Price on the live connection, shown in the Plan record.
  await db.schema.alterTable('plans').addColumn('stripe_product_id', 'text').execute();
  await db.schema.alterTable('plans').addColumn('stripe_price_id', 'text').execute();
  await db.schema
    .createTable('billing_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', org)
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('account_name', 'text')
    .addColumn('livemode', bool, (c) => c.notNull())
    .addColumn('key_kind', 'text')
    .addColumn('key_sealed', 'text')
    .addColumn('key_hint', 'text')
    .addColumn('webhook_endpoint_id', 'text')
    .addColumn('webhook_secret_sealed', 'text')
    .addColumn('connected_at', ts, (c) => c.notNull())
    .addColumn('disconnected_at', ts)
    .execute();
  await db.schema
    .createIndex('billing_connections_live')
    .on('billing_connections')
    .column('org_id')
    .unique()
    .where(sql.ref('disconnected_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('billing_connections_account')
    .on('billing_connections')
    .columns(['account_id', 'livemode'])
    .execute();
  // The operator's one Connect endpoint, per platform account and mode (STRIPE_SECRET_KEY).
  await db.schema
    .createTable('billing_platform')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('livemode', bool, (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('webhook_endpoint_id', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    // One account has a test and a live side, each with its own endpoint.
    .addPrimaryKeyConstraint('billing_platform_pk', ['account_id', 'livemode'])
    .execute();
  // Stripe Connect: one organization per connected account and mode.
  await sql`create unique index billing_connections_connect on billing_connections (account_id, livemode) where method = 'connect' and disconnected_at is null`.execute(
    db,
  );
  await db.schema
    .createTable('billing_events')
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_events_pk', ['connection_id', 'event_id'])
    .execute();
  // Every Price ever made for a plan: a subscription on an archived one still names its plan.
  await db.schema
    .createTable('billing_prices')
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('price_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', org)
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('active', bool, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_prices_pk', ['connection_id', 'price_id'])
    .execute();
  await db.schema
    .createIndex('billing_prices_plan')
    .on('billing_prices')
    .columns(['connection_id', 'plan_id'])
    .execute();
  await db.schema
    .createTable('billing_customers')
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('org_id', 'text', org)
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text')
    .addColumn('subscription_status', 'text')
    .addColumn('price_id', 'text')
    .addColumn('current_period_end', ts)
    .addColumn('past_due_since', ts)
    // When the past-due automation acted on this episode (cleared when the client pays again).
    .addColumn('past_due_acted_at', ts)
    // The client's last payment link: expired when a new one is made (one subscription per client).
    .addColumn('checkout_session_id', 'text')
    // When the subscription state kept here was read from Stripe: an older read never overwrites it.
    .addColumn('read_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_customers_pk', ['connection_id', 'client_id'])
    .execute();
  await db.schema
    .createIndex('billing_customers_customer')
    .on('billing_customers')
    .columns(['connection_id', 'customer_id'])
    .unique()
    .execute();
  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', org)
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text')
    .addColumn('invoice_id', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text')
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('livemode', bool, (c) => c.notNull())
    .addColumn('hosted_invoice_url', 'text')
    .addColumn('paid_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payments_invoice')
    .on('payments')
    .columns(['connection_id', 'invoice_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('payments_client')
    .on('payments')
    .columns(['org_id', 'client_id', 'paid_at'])
    .execute();
  // What billing did to a client (suspended, sites published...), listed on its page.
  await db.schema
    .createTable('billing_activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', org)
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('billing_activity_client')
    .on('billing_activity')
    .columns(['org_id', 'client_id', 'created_at'])
    .execute();
  // What billing stopped and gives back when the client pays again: a suspension (with the status
  // before it) or a site taken offline (with the deployment that was live).
  await db.schema
    .createTable('billing_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', org)
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text')
    .addColumn('deployment_id', 'text')
    .addColumn('previous_status', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('billing_holds_client')
    .on('billing_holds')
    .columns(['org_id', 'client_id'])
    .execute();
}
