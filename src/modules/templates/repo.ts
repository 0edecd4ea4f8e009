// SQL for templates. Every function takes the organization id.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { bool, num, type Executor } from '../../db/executor.ts';
import type { Database } from '../../db/index.ts';
import { OrgList } from '../../db/org-list.ts';
import type { TemplatesTable } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';
import type { Template } from './schema.ts';

export type TemplateRow = Selectable<TemplatesTable>;

export function toTemplate(row: TemplateRow): Template {
  return {
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    description: row.description,
    category: row.category,
    thumbnail_url: row.thumbnail_url,
    is_public: bool(row.is_public),
    is_featured: bool(row.is_featured),
    created_at: toIso(row.created_at),
  };
}

export function findTemplate(db: Executor, orgId: string, id: string): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** GET /templates, newest first: a page, or every record in keyset pages. */
export function templateList(database: Database): OrgList<TemplateRow> {
  return new OrgList<TemplateRow>(database, 'templates', {
    columns: ['created_at', 'id'],
    direction: 'desc',
  });
}

/** The public templates (is_public), newest first: what a client's own account may see. */
export async function publicTemplatePage(
  db: Executor,
  orgId: string,
  limit: number,
  offset: number,
): Promise<{ rows: TemplateRow[]; total: number }> {
  const ofOrg = db.selectFrom('templates').where('org_id', '=', orgId).where('is_public', '=', true);
  const [rows, counted] = await Promise.all([
    ofOrg
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    ofOrg.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: counted ? num(counted.n) : 0 };
}

export async function insertTemplate(db: Executor, row: Insertable<TemplatesTable>): Promise<void> {
  await db.insertInto('templates').values(row).execute();
}

export async function updateTemplate(
  db: Executor,
  orgId: string,
  id: string,
  changes: Updateable<TemplatesTable>,
): Promise<void> {
  await db.updateTable('templates').set(changes).where('org_id', '=', orgId).where('id', '=', id).execute();
}

/** Projects made from the template keep its name and files: projects.template_id has no foreign key. */
export async function deleteTemplate(db: Executor, orgId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('templates')
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
