import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.ts';

/** The database or an open transaction: repo functions run on either. */
export type Executor = Kysely<DB> | Transaction<DB>;

/** Row values to API values: SQLite hands booleans back as 0/1 and bigints may come as strings. */
export const bool = (v: boolean | number): boolean => v === true || v === 1;
export const num = (v: number | string): number => (typeof v === 'number' ? v : Number(v));
