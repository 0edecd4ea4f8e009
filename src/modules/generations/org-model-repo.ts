// SQL of the AI model an organization connected itself (migration 021).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

export type OrgModelRow = {
  org_id: string;
  base_url: string | null;
  model: string;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  use_by_default: boolean | number;
  checked_at: string | Date;
  created_at: string | Date;
  updated_at: string | Date;
};

export async function findOrgModel(db: Kysely<DB>, orgId: string): Promise<OrgModelRow | undefined> {
  return db.selectFrom('ai_models').selectAll().where('org_id', '=', orgId).executeTakeFirst();
}

export async function saveOrgModel(
  db: Kysely<DB>,
  row: Omit<OrgModelRow, 'use_by_default' | 'checked_at' | 'created_at' | 'updated_at'> & {
    use_by_default: boolean;
    at: string;
  },
): Promise<void> {
  const { at, ...values } = row;
  const changed = {
    base_url: values.base_url,
    model: values.model,
    api_key_sealed: values.api_key_sealed,
    api_key_hint: values.api_key_hint,
    use_by_default: values.use_by_default,
    checked_at: at,
    updated_at: at,
  };
  await db
    .insertInto('ai_models')
    .values({ ...values, checked_at: at, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('org_id').doUpdateSet(changed))
    .execute();
}

export async function deleteOrgModel(db: Kysely<DB>, orgId: string): Promise<boolean> {
  const result = await db.deleteFrom('ai_models').where('org_id', '=', orgId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
