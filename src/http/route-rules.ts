// Rules a route file states in its own options, so that a route is exactly what its file shows:
//   schema: { querystring: NoQuery, ... }   a route that takes no query parameters refuses any
//                                            (a typo such as ?limt=5 is never silently ignored)
//   { ...pagedList, schema: ... }            a list's `limit` and `offset` checked as written
//   { ...noBody, schema: ... }               a write without a body schema refuses any field
// test/http/route-rules.test.ts fails when a route of /api/v1 forgets one.
import { Type } from '@sinclair/typebox';
import { refuseUnexpectedBody } from './api-guard.ts';
import { checkPaging } from './paging.ts';

/** The query of a route that takes no parameters: any one is a 400 naming it. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

/**
 * For a list route: `limit` and `offset` are checked as they were written, before validation
 * coerces them (paging.ts).
 */
export const pagedList = { preValidation: checkPaging } as const;

/**
 * For a write that takes no body (a DELETE, or an action allowed without one): a body that comes
 * is refused by its first field, like an unknown field anywhere else, instead of being ignored.
 */
export const noBody = { preValidation: refuseUnexpectedBody } as const;
