// GET /projects has the database render each row as JSON text. Materializing 50 rows of 20
// columns as JS objects (better-sqlite3 object mode) and serializing them again cost several
// times the rest of the request; a JSON string per row is cheap on both engines. The expression
// is derived from the Project schema, so the list cannot disagree with GET /projects/{id} (which
// maps rows in JS) on the fields; the suite checks both against the OpenAPI document.
import { sql, type RawBuilder } from 'kysely';
import type { Engine } from '../../db/engine.ts';
import { Project } from './schema.ts';

type Kind = 'text' | 'bool' | 'json' | 'time';

function kindOf(schema: { type?: string | string[]; format?: string }): Kind {
  const types = [schema.type ?? []].flat();
  if (types.includes('boolean')) return 'bool';
  if (types.includes('array')) return 'json';
  return schema.format === 'date-time' ? 'time' : 'text';
}

function value(engine: Engine, column: string, kind: Kind): RawBuilder<unknown> {
  const ref = sql.ref(column);
  if (engine === 'postgres') {
    if (kind === 'json') return sql`${ref}::json`;
    // The same text as Date.toISOString(), which GET /projects/{id} uses.
    if (kind === 'time') return sql`to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    return sql`${ref}`;
  }
  if (kind === 'json') return sql`json(${ref})`;
  // SQLite keeps booleans as 0/1 and timestamps as the ISO text they were written as.
  if (kind === 'bool') return sql`json(iif(${ref}, 'true', 'false'))`;
  return sql`${ref}`;
}

/** One project row as the JSON text of a Project record. */
export function projectJson(engine: Engine): RawBuilder<string> {
  const pairs = Object.entries(Project.properties).map(
    ([name, schema]) => sql`${sql.lit(name)}, ${value(engine, name, kindOf(schema as { type?: string; format?: string }))}`,
  );
  return engine === 'postgres' ? sql<string>`json_build_object(${sql.join(pairs)})::text` : sql<string>`json_object(${sql.join(pairs)})`;
}
