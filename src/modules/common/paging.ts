// One definition of `limit` and `offset` for every list of the API: every list takes the same
// values and refuses every other one with the same message, naming the parameter.
import { Type } from '@sinclair/typebox';

/** The spec's page size bound (projects), applied to every list. */
export const MAX_LIMIT = 100;
/**
 * An offset past any real collection, within a 32-bit signed integer: both engines take it as
 * is, and anything larger (1e23, Infinity) is refused before it reaches the database.
 */
export const MAX_OFFSET = 2_147_483_647;

export const PAGING_RANGES = {
  limit: { minimum: 1, maximum: MAX_LIMIT },
  offset: { minimum: 0, maximum: MAX_OFFSET },
} as const;

export type PagingParam = keyof typeof PAGING_RANGES;

/** The one message for any refused `limit` or `offset`, whatever was wrong with it. */
export function pagingMessage(name: PagingParam): string {
  const { minimum, maximum } = PAGING_RANGES[name];
  return `query parameter '${name}' must be a whole number from ${minimum} to ${maximum}, written in decimal digits`;
}

/**
 * The `limit` and `offset` query properties of a list. With `defaultLimit` the list is paged by
 * default (projects, deliveries...); without, an absent `limit` means every record.
 */
export function pagingParams(defaultLimit?: number) {
  return {
    // Optional, so the document does not mark them required; validation fills in the defaults.
    limit: Type.Optional(
      Type.Integer({
        ...PAGING_RANGES.limit,
        ...(defaultLimit === undefined ? {} : { default: defaultLimit }),
        description:
          defaultLimit === undefined ? 'Page size; absent: every record from `offset` on' : 'Page size',
      }),
    ),
    offset: Type.Optional(
      Type.Integer({ ...PAGING_RANGES.offset, default: 0, description: 'Records to skip' }),
    ),
  };
}

/** Every record of a list, read a page at a time when the consumer asks for the next one. */
export interface StreamedList<T> {
  /** Pages of records, never empty. */
  pages: AsyncIterable<T[]>;
  /** Once the pages are exhausted: how many records the list holds, as the stream saw it. */
  total(): Promise<number>;
}

/** The same stream with each row turned into its API record. */
export function mapStreamed<Row, T>(list: StreamedList<Row>, toRecord: (row: Row) => T): StreamedList<T> {
  return {
    pages: {
      async *[Symbol.asyncIterator]() {
        for await (const rows of list.pages) yield rows.map(toRecord);
      },
    },
    total: () => list.total(),
  };
}

/** One page of a list and how many records the list holds. */
export interface ListPage<T> {
  records: T[];
  total: number;
}

/** The query of a list the spec lets a caller take whole: no `limit` is every record. */
export const WholeListQuery = Type.Object(pagingParams(), { additionalProperties: false });
