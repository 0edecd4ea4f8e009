// An id taken from a page's URL: a malformed one names no record, so it is the same 404 page as
// another organization's id. UUIDs are case-insensitive and stored in lower case.
import { isUuid } from '../lib/ids.ts';
import { notFound } from '../modules/common/errors.ts';

export function idFromUrl(raw: string, what: string): string {
  if (!isUuid(raw)) throw notFound(what);
  return raw.toLowerCase();
}
