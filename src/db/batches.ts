import type { Executor } from './executor.ts';
import type { DB } from './schema.ts';

/** Rows per INSERT: SQLite allows a limited number of bound parameters per statement. */
const BATCH = 50;

/** Inserts many rows in bounded batches, inside the caller's transaction. */
export async function insertInBatches<T extends keyof DB & string>(
  trx: Executor,
  table: T,
  rows: readonly object[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are typed by their callers
    const batch = rows.slice(i, i + BATCH) as any;
    await trx.insertInto(table).values(batch).execute();
  }
}
