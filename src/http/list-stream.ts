// A list answered whole (the spec's "no parameters: every record") without ever holding it whole:
// the JSON body is written page by page as the connection takes it. Each record goes through the
// route's serializer for its schema, so the bytes are those of the same list answered in one
// piece: `{"<key>":[record,...],"total":N}`, the order the response schema declares.
//
// Between pages the work yields to the event loop (other requests run), and the next page is read
// only when the socket has taken the previous one (backpressure through the stream), so memory
// stays at about one page whatever the count and a slow reader costs nothing but its socket.
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Type, type TArray, type TInteger, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ListPage, StreamedList } from '../modules/common/paging.ts';
import { principal } from './caller.ts';
import type { Principal } from '../modules/access/principal.ts';

export async function sendStreamed<T>(
  reply: FastifyReply,
  key: string,
  record: TSchema,
  list: StreamedList<T>,
): Promise<FastifyReply> {
  const serialize = reply.compileSerializationSchema(record as Record<string, unknown>) as (
    input: T,
  ) => string;
  const pages = list.pages[Symbol.asyncIterator]();
  // The first page is read before the status is sent: a failure there is still a clean 500.
  let page = await pages.next();

  async function* body(): AsyncGenerator<string> {
    try {
      yield `{${JSON.stringify(key)}:[`;
      let separator = '';
      while (!page.done) {
        let chunk = '';
        for (const item of page.value) {
          chunk += separator + serialize(item);
          separator = ',';
        }
        yield chunk;
        await nextTurn();
        page = await pages.next();
      }
      yield `],"total":${await list.total()}}`;
    } finally {
      // The client went away (or a page failed, which cuts the body short: invalid JSON, never a
      // truncated list passed off as whole): let the stream go.
      if (!page.done) await pages.return?.();
    }
  }

  return reply.type('application/json; charset=utf-8').send(Readable.from(body(), { objectMode: false }));
}

/** What the OpenAPI document says of every list that can be taken whole. */
export const WHOLE_LIST_DOC =
  "Without `limit`, every record from `offset` on (the spec's contract), sent as the body is read, so any count is safe; `total` is then the number of records the list held as it was read (records created while the answer is being sent are not in it). With `limit` (at most 100), one page; `total` counts every record: keep requesting while `offset + limit < total`.";

/** The 200 body of such a list: `{"<key>": [record], "total": n}`. */
export function wholeListBody<K extends string, S extends TSchema>(key: K, record: S) {
  return Type.Object(
    { [key]: Type.Array(record), total: Type.Integer({ minimum: 0 }) } as { [P in K]: TArray<S> } & {
      total: TInteger;
    },
    { additionalProperties: false },
  );
}

/** A service whose list can be taken in pages or whole. */
export interface WholeListService<T> {
  list(principal: Principal, limit: number, offset: number): Promise<ListPage<T>>;
  streamAll(principal: Principal, offset: number): StreamedList<T>;
}

/** The handler of such a list: one page with `limit`, else every record from `offset` on, streamed. */
export function wholeListHandler<K extends string, T>(key: K, record: TSchema, service: WholeListService<T>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { limit, offset = 0 } = request.query as { limit?: number; offset?: number };
    const asking = principal(request);
    if (limit === undefined) return sendStreamed(reply, key, record, service.streamAll(asking, offset));
    const { records, total } = await service.list(asking, limit, offset);
    return { [key]: records, total } as { [P in K]: T[] } & { total: number };
  };
}
