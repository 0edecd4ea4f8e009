// A page's query string as its routes read it: one string per parameter. The parser hands a
// parameter sent twice (`?q=a&q=b`) over as a list, which a route taking text would pass on to a
// service as it is (a 500); and a NUL in a value reached the database, which on PostgreSQL cannot
// hold one (a 500 too). Checked once per request for every route of routes/index.ts, as form fields
// are checked by forms.ts.
import { hasNul } from '../web/nul-check.ts';
import type { FastifyRequest } from 'fastify';
import { invalid } from '../modules/common/errors.ts';

type Query = Record<string, string | string[] | undefined>;

/** An `onRequest` hook: a NUL anywhere is a 400 page naming the parameter; a list becomes its first value. */
export async function plainQuery(request: FastifyRequest): Promise<void> {
  const query = request.query as Query | undefined;
  if (!query) return;
  for (const [name, value] of Object.entries(query)) {
    if (hasNul(name)) throw invalid('A query parameter name must not contain a NUL character');
    const values = Array.isArray(value) ? value : [value];
    if (values.some((one) => one !== undefined && hasNul(one)))
      throw invalid(`${name}: must not contain a NUL character`);
    if (Array.isArray(value)) query[name] = value[0];
  }
}
