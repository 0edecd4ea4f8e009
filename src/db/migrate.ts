// Migrations run at every start (and via `sitewright migrate`). On PostgreSQL Kysely's migrator
// takes a lock, so several instances starting together apply each migration once.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Engine } from './engine.ts';
import * as m001 from './migrations/001_initial.ts';
import * as m002 from './migrations/002_webhook_delivery.ts';
import * as m003 from './migrations/003_site_files.ts';
import * as m004 from './migrations/004_publishing.ts';
import * as m007 from './migrations/007_generations.ts';
import * as m008 from './migrations/008_visits_and_forms.ts';
import * as m009 from './migrations/009_ai_usage.ts';
import * as m010 from './migrations/010_view_packs.ts';
import * as m012 from './migrations/012_accounts.ts';
import * as m013 from './migrations/013_versions.ts';
import * as m014 from './migrations/014_generation_events.ts';
import * as m015 from './migrations/015_generation_element.ts';
import * as m016 from './migrations/016_build_links.ts';
import * as m017 from './migrations/017_oauth.ts';
import * as m018 from './migrations/018_oauth_confirmed.ts';
import * as m019 from './migrations/019_signups.ts';
import * as m020 from './migrations/020_oauth_client_expiry.ts';
import * as m021 from './migrations/021_ai_models.ts';
import * as m022 from './migrations/022_upload_files.ts';
import * as m023 from './migrations/023_embed_sessions.ts';
import * as m024 from './migrations/024_billing.ts';
import * as m025 from './migrations/025_backups.ts';
import * as m026 from './migrations/026_site_settings.ts';
import * as m027 from './migrations/027_mail_outbox.ts';
import * as m028 from './migrations/028_image_variants.ts';

type EngineMigration = { up(db: Kysely<unknown>, engine: Engine): Promise<void> };
const migrations: Record<string, EngineMigration> = {
  '001_initial': m001,
  '002_webhook_delivery': m002,
  '003_site_files': m003,
  '004_publishing': m004,
  '007_generations': m007,
  '008_visits_and_forms': m008,
  '009_ai_usage': m009,
  '010_view_packs': m010,
  '012_accounts': m012,
  '013_versions': m013,
  '014_generation_events': m014,
  '015_generation_element': m015,
  '016_build_links': m016,
  '017_oauth': m017,
  '018_oauth_confirmed': m018,
  '019_signups': m019,
  '020_oauth_client_expiry': m020,
  '021_ai_models': m021,
  '022_upload_files': m022,
  '023_embed_sessions': m023,
  '024_billing': m024,
  '025_backups': m025,
  '026_site_settings': m026,
  '027_mail_outbox': m027,
  '028_image_variants': m028,
};

/** Every migration this code knows, oldest first. */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [
        name,
        { up: (db: Kysely<unknown>) => m.up(db, this.engine) },
      ]),
    );
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticProvider(engine) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Applies the migrations up to and including `name`: tests run a later migration over older data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateTo(db: Kysely<any>, engine: Engine, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: new StaticProvider(engine) }).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * How the database's migrations compare with the code's: `pending` ones the code has and the
 * database has not run, `unknown` ones the database ran that this code does not know (a newer
 * version wrote it). Both empty: the schema is the code's.
 */
export async function migrationState(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
  db: Kysely<any>,
  engine: Engine,
): Promise<{ pending: string[]; unknown: string[] }> {
  const known = await new Migrator({ db, provider: new StaticProvider(engine) }).getMigrations();
  const pending = known.filter((m) => m.executedAt === undefined).map((m) => m.name);
  const names = new Set(known.map((m) => m.name));
  const ran =
    pending.length === known.length ? [] : await db.selectFrom('kysely_migration').select('name').execute();
  const unknown = ran.map((r: { name: string }) => r.name).filter((name: string) => !names.has(name));
  return { pending, unknown };
}
