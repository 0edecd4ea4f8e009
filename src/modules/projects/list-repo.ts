// SQL of GET /projects, the hot list, by organization. Its SQL is compiled once per combination
// of filters (at most eight) and reused, so a request only binds values (see db/prepared.ts). A request runs two
// statements at most: the page, and a count when the page alone cannot tell the total.
import { sql, type SqlBool } from 'kysely';
import type { Database } from '../../db/index.ts';
import { num } from '../../db/executor.ts';
import { prepareQuery, type PreparedQuery } from '../../db/prepared.ts';
import type { ProjectRow } from './repo.ts';

export interface ProjectFilter {
  clientId?: string | undefined;
  q?: string | undefined;
  status?: string | undefined;
}

type Args = {
  orgId: string;
  clientId?: string;
  pattern?: string;
  status?: string;
  limit: number;
  offset: number;
};
type Variant = { page: PreparedQuery<Args, ProjectRow>; count: PreparedQuery<Args, { n: number | string }> };

/** `q` as a LIKE pattern on name_lower: folded like the column (in JS), with %, _ and \ literal. */
export function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class ProjectListQuery {
  private readonly variants = new Map<string, Variant>();

  constructor(private readonly database: Database) {}

  async run(
    orgId: string,
    filter: ProjectFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: ProjectRow[]; total: number }> {
    const args: Args = { orgId, limit, offset };
    if (filter.clientId !== undefined) args.clientId = filter.clientId;
    // An empty q matches every name: no filter at all.
    if (filter.q) args.pattern = likePattern(filter.q);
    if (filter.status !== undefined) args.status = filter.status;
    const variant = this.variant(
      args.clientId !== undefined,
      args.pattern !== undefined,
      args.status !== undefined,
    );
    const rows = await variant.page.all(args);
    // A short page that is not past the end already tells the total; no count needed.
    if (rows.length < limit && (rows.length > 0 || offset === 0))
      return { rows, total: offset + rows.length };
    const counted = await variant.count.first(args);
    return { rows, total: counted ? num(counted.n) : 0 };
  }

  private variant(byClient: boolean, byName: boolean, byStatus: boolean): Variant {
    const key = `${+byClient}${+byName}${+byStatus}`;
    let variant = this.variants.get(key);
    if (!variant) {
      variant = this.prepare(byClient, byName, byStatus);
      this.variants.set(key, variant);
    }
    return variant;
  }

  private prepare(byClient: boolean, byName: boolean, byStatus: boolean): Variant {
    const { db } = this.database;
    const matching = (p: (name: keyof Args & string) => string) =>
      db
        .selectFrom('projects')
        .where('org_id', '=', p('orgId'))
        .$if(byClient, (qb) => qb.where('org_client_id', '=', p('clientId')))
        .$if(byStatus, (qb) => qb.where('status', '=', p('status')))
        // The same backslash escape on both engines; PostgreSQL's LIKE is case-sensitive and
        // SQLite's is not beyond ASCII, so both sides are folded in JS instead.
        .$if(byName, (qb) => qb.where(sql<SqlBool>`name_lower like ${p('pattern')} escape '\\'`));
    // Placeholders stand for numbers bound at run time; the builder only sees their marks.
    const page = prepareQuery<Args, ProjectRow>(this.database, (p) =>
      matching(p)
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p('limit') as unknown as number)
        .offset(p('offset') as unknown as number),
    );
    const count = prepareQuery<Args, { n: number | string }>(this.database, (p) =>
      matching(p).select((eb) => eb.fn.countAll<number | string>().as('n')),
    );
    return { page, count };
  }
}
