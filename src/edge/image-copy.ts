// Raster images of sites are sent as copies (modules/images): the width a page asks for with the
// documented `?w=` (rounded up to the next of COPY_WIDTHS), in the best format the browser's
// `Accept` names, without the original's metadata. The original stays with the owner (files API).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { keyOf } from '../modules/images/copies.ts';
import { rasterFormatOf } from '../modules/images/formats.ts';
import type { ServedFile, SitesService } from '../modules/publishing/sites.ts';
import { sendText } from './respond.ts';

/** The width a URL's `?w=` asks for; undefined when it asks none, null when `w` is no width. */
export function requestedWidth(url: string): number | undefined | null {
  const at = url.indexOf('?');
  if (at < 0) return undefined;
  const w = new URLSearchParams(url.slice(at + 1)).get('w');
  if (w === null) return undefined;
  return /^[1-9][0-9]{0,4}$/.test(w) ? Number(w) : null;
}

const BAD_WIDTH_MESSAGE = 'w must be a width in whole pixels (1 to 99999)';
const BUSY_MESSAGE = 'This picture is being prepared; try again in a few seconds';

/**
 * Answers what imageOrFile refused: a `w` that is no width (400), or a copy not made yet while
 * too many visitors wait for copies (503, Retry-After).
 */
export function sendNoCopy(res: ServerResponse, refused: null | 'busy'): void {
  if (refused === null) sendText(res, 400, BAD_WIDTH_MESSAGE);
  else sendText(res, 503, BUSY_MESSAGE, { 'retry-after': '5' });
}

/** A copy made once and kept: by its key, in the edge's file cache (undefined: none). */
export type CopyCache = (
  key: string,
  make: () => Promise<ServedFile | 'busy' | undefined>,
) => Promise<ServedFile | 'busy' | undefined>;

/**
 * What to send for the file at `path` that `req` asked for: the copy of an image, or the file as it
 * is; null when `?w=` of an image is no width (a 400); `busy` when the copy is not made yet and too
 * many visitors wait for copies (a 503).
 */
export async function imageOrFile(
  sites: SitesService,
  req: IncomingMessage,
  path: string,
  file: ServedFile,
  cache?: CopyCache,
): Promise<ServedFile | 'busy' | null> {
  if (!rasterFormatOf(path)) return file;
  const width = requestedWidth(req.url ?? '/');
  if (width === null) return null;
  const plan = await sites.imageCopyPlan(path, file, width, req.headers.accept);
  if (!plan) return file;
  const make = () => sites.imageCopy(path, file, plan);
  return (await (cache ? cache(keyOf(plan), make) : make())) ?? file;
}
