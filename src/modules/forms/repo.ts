// SQL of form submissions; every function takes the organization id (tenant scope is not optional).
import { num, type Executor } from '../../db/executor.ts';
import { toIso } from '../../lib/clock.ts';
import type { Submission } from './schema.ts';

/** A project's submissions, newest first, optionally of one form; `total` counts every match. */
export async function listSubmissions(
  db: Executor,
  orgId: string,
  projectId: string,
  { limit, offset, form }: { limit: number; offset: number; form: string | undefined },
): Promise<{ submissions: Submission[]; total: number }> {
  const base = db
    .selectFrom('form_submissions')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .$if(form !== undefined, (qb) => qb.where('form', '=', form!));
  const [rows, counted] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    submissions: rows.map((r) => ({
      id: r.id,
      project_id: r.project_id,
      form: r.form,
      fields: JSON.parse(r.fields) as Record<string, string>,
      page: r.page,
      created_at: toIso(r.created_at),
    })),
    total: num(counted.n),
  };
}

export async function insertSubmission(db: Executor, orgId: string, s: Submission): Promise<void> {
  await db
    .insertInto('form_submissions')
    .values({ ...s, org_id: orgId, fields: JSON.stringify(s.fields) })
    .execute();
}

/** Whether a submission of that project was deleted. */
export async function deleteSubmission(
  db: Executor,
  orgId: string,
  projectId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('form_submissions')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What a form message's mail needs of its site: the project's name and its client's address. */
export async function formSite(db: Executor, orgId: string, projectId: string) {
  return db
    .selectFrom('projects as p')
    .leftJoin('clients as c', (join) => join.onRef('c.id', '=', 'p.org_client_id').on('c.org_id', '=', orgId))
    .select(['p.name', 'c.email as client_email'])
    .where('p.org_id', '=', orgId)
    .where('p.id', '=', projectId)
    .executeTakeFirst();
}

/** The email addresses of the organization's members. */
export async function memberEmails(db: Executor, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.org_id', '=', orgId)
    .orderBy('m.created_at')
    .execute();
  return rows.map((row) => row.email);
}

/** A project's form messages stored in [from, to), oldest first, at most `limit`. */
export async function submissionsBetween(
  db: Executor,
  orgId: string,
  projectId: string,
  range: { from: string; to: string; limit: number },
): Promise<Submission[]> {
  const rows = await db
    .selectFrom('form_submissions')
    .select(['id', 'project_id', 'form', 'fields', 'page', 'created_at'])
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.to)
    .orderBy('created_at')
    .orderBy('id')
    .limit(range.limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    project_id: r.project_id,
    form: r.form,
    fields: JSON.parse(r.fields) as Record<string, string>,
    page: r.page,
    created_at: toIso(r.created_at)!,
  }));
}

/** Projects whose site settings may ask for a daily digest (confirmed by the caller on the parsed settings). */
export async function digestCandidates(db: Executor): Promise<{ org_id: string; project_id: string }[]> {
  return db
    .selectFrom('site_settings')
    .select(['org_id', 'project_id'])
    .where('settings', 'like', '%"form_digest":true%')
    .execute();
}
