// Which engine a query runs on, known by the data layer alone: the database and every transaction
// opened by `Database.transaction` are tagged with it, so no service threads an engine flag down
// to the repos that must write different SQL (row locks, advisory locks, collations).
import type { Executor } from './executor.ts';

export type Engine = 'sqlite' | 'postgres';

const engines = new WeakMap<Executor, Engine>();

export function tagEngine(executor: Executor, engine: Engine): void {
  engines.set(executor, engine);
}

/** The engine of the database or of a transaction opened through `Database.transaction`. */
export function engineOf(executor: Executor): Engine {
  const engine = engines.get(executor);
  // A transaction opened with Kysely's own `db.transaction()` is not tagged: a programming error.
  if (!engine) throw new Error('Open transactions with Database.transaction (db/index.ts)');
  return engine;
}
