// The lists of an organization's records that the spec lets a caller take whole (clients,
// templates, plans, webhooks), made safe at any count. Two ways to read one:
//   page(): one page by limit/offset, with the total (a count only when the page cannot tell it);
//   streamAll(): every record from an offset on, in keyset pages (WHERE (order columns) < last row's),
//           so each page costs the same however deep it is and nothing is held between pages:
//           no connection, no open statement, no snapshot. The caller decides when to read the
//           next page (backpressure).
// The SQL is compiled once per list and only bound per page (db/prepared.ts); on SQLite it runs on
// the read-only connection, which is synchronous: STREAM_PAGE_SIZE keeps one page to a few ms.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from './index.ts';
import { num } from './executor.ts';
import { prepareQuery, type PreparedQuery } from './prepared.ts';

/** Rows per streamed page: ~2 ms of SQLite reading and serializing on this machine, ~125 kB of JSON. */
export const STREAM_PAGE_SIZE = 500;

type OrgTable = 'clients' | 'templates' | 'plans' | 'webhooks';
/** Columns of a total order (the last one unique), all in one direction, so a row value compares. */
export type ListOrder = { columns: readonly string[]; direction: 'asc' | 'desc' };

export interface StreamedRows<Row> {
  /** Pages of rows, never empty; the next page is read only when asked for. */
  pages: AsyncIterable<Row[]>;
  /** Once the pages are exhausted: the number of records in the list as the stream saw it. */
  total(): Promise<number>;
}

type Args = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

export class OrgList<Row extends Record<string, unknown>> {
  private readonly first: PreparedQuery<Args, Row>;
  private readonly after: PreparedQuery<Args, Row>;
  private readonly count: PreparedQuery<Args, { n: number | string }>;
  private readonly columns: readonly string[];

  constructor(database: Database, table: OrgTable, order: ListOrder) {
    // One untyped view of the four tables: each repo names the row type it gets back.
    const db = database.db as unknown as AnyDb;
    const { columns, direction } = order;
    this.columns = columns;
    const ofOrg = (p: (name: string) => string) => db.selectFrom(table).where('org_id', '=', p('orgId'));
    const inOrder = (qb: ReturnType<typeof ofOrg>) =>
      columns.reduce((q, column) => q.orderBy(sql.ref(column), direction), qb).selectAll();
    const limit = (p: (name: string) => string) => p('limit') as unknown as number;

    this.first = prepareQuery<Args, Row>(
      database,
      (p) =>
        inOrder(ofOrg(p))
          .limit(limit(p))
          .offset(p('offset') as unknown as number) as never,
    );
    // The rows strictly beyond the last one sent, in the same order: a row-value comparison,
    // which both engines answer as a range of the (org_id, created_at, id) index (plans: by
    // (org_id, sort_order, created_at)). The last row's values are bound as read; PostgreSQL hands
    // timestamps back as Dates (milliseconds), exact because every timestamp is written by
    // Sitewright with millisecond precision.
    const beyond = sql.raw(direction === 'desc' ? '<' : '>');
    const cols = sql.join(columns.map((c) => sql.ref(c)));
    this.after = prepareQuery<Args, Row>(database, (p) => {
      const keys = sql.join(columns.map((_, i) => p(`k${i}`)));
      return inOrder(ofOrg(p).where(sql<SqlBool>`(${cols}) ${beyond} (${keys})`)).limit(limit(p)) as never;
    });
    this.count = prepareQuery<Args, { n: number | string }>(
      database,
      (p) => ofOrg(p).select((eb) => eb.fn.countAll<number | string>().as('n')) as never,
    );
  }

  /** `limit` records from `offset` on, and how many the list holds. */
  async page(orgId: string, limit: number, offset: number): Promise<{ rows: Row[]; total: number }> {
    const rows = await this.first.all({ orgId, limit, offset });
    // A short page that is not past the end already tells the total; no count needed.
    if (rows.length < limit && (rows.length > 0 || offset === 0))
      return { rows, total: offset + rows.length };
    return { rows, total: await this.total(orgId) };
  }

  /** Every record from `offset` on, page by page; its pages are read once. */
  streamAll(orgId: string, offset: number, pageSize = STREAM_PAGE_SIZE): StreamedRows<Row> {
    let sent = 0;
    let done = false;
    const { first, after, columns } = this;
    async function* pages(): AsyncGenerator<Row[]> {
      let rows = await first.all({ orgId, limit: pageSize, offset });
      while (rows.length > 0) {
        sent += rows.length;
        yield rows;
        if (rows.length < pageSize) break;
        const last = rows[rows.length - 1]!;
        const args: Args = { orgId, limit: pageSize };
        columns.forEach((column, i) => (args[`k${i}`] = last[column]));
        rows = await after.all(args);
      }
      done = true;
    }
    return {
      pages: { [Symbol.asyncIterator]: pages },
      total: async () => {
        if (!done) throw new Error('total() is known once every page has been read');
        // Records were sent: the offset skipped that many before them. None at offset 0: empty.
        return sent > 0 || offset === 0 ? offset + sent : this.total(orgId);
      },
    };
  }

  private async total(orgId: string): Promise<number> {
    const counted = await this.count.first({ orgId });
    return counted ? num(counted.n) : 0;
  }
}
