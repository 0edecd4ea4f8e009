// SQL of site settings: one JSON document per project (migration 026), by organization.
import type { Executor } from '../../db/executor.ts';
import { NO_SETTINGS, type SiteSettings } from './schema.ts';

/** The project's settings; NO_SETTINGS when it has none yet. */
export async function readSiteSettings(
  db: Executor,
  orgId: string,
  projectId: string,
): Promise<SiteSettings> {
  const row = await db
    .selectFrom('site_settings')
    .select('settings')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) return NO_SETTINGS;
  const stored = JSON.parse(row.settings) as Partial<SiteSettings>;
  // Fields added after a document was written read as their defaults.
  return {
    ...NO_SETTINGS,
    ...stored,
    facts: { ...NO_SETTINGS.facts, ...stored.facts },
    forms: { ...stored.forms },
  };
}

export async function writeSiteSettings(
  trx: Executor,
  orgId: string,
  projectId: string,
  settings: SiteSettings,
): Promise<void> {
  const row = {
    project_id: projectId,
    org_id: orgId,
    settings: JSON.stringify(settings),
    updated_at: new Date().toISOString(),
  };
  await trx
    .insertInto('site_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('project_id').doUpdateSet({ settings: row.settings, updated_at: row.updated_at }),
    )
    .execute();
}
