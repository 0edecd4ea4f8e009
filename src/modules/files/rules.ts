// The limits every write of site files obeys, whatever writes them (the files API, a generation,
// a publish with builtFiles): checked before anything is stored, so a refused write changes nothing.
import { InvalidInputError, TooLargeError, invalid } from '../common/errors.ts';
import { checkImage } from '../images/checks.ts';
import { sha256 } from './content.ts';
import { normalisePath, PathError } from './paths.ts';

export interface FileLimits {
  maxFileBytes: number;
  maxProjectBytes: number;
  maxProjectFiles: number;
  /** The largest picture (width times height) a raster image file may hold. */
  maxImagePixels: number;
}

/** A file as providers and publishing hand it over: text as a string, binary as a Buffer. */
export interface SiteFile {
  /** Normalised relative path: `index.html`, `assets/site.css`. */
  path: string;
  content: string | Buffer;
}

const mib = (bytes: number) => `${+(bytes / 1_048_576).toFixed(2)} MiB`;

/** A path from a request, normalised, or refused naming what is wrong with it. */
export function validPath(raw: string, field = 'path'): string {
  try {
    return normalisePath(raw);
  } catch (error) {
    if (error instanceof PathError)
      throw new InvalidInputError(`${field} '${raw.slice(0, 300)}' ${error.message}`);
    throw error;
  }
}

export function checkFileSize(path: string, size: number, limits: FileLimits): void {
  if (size > limits.maxFileBytes) {
    throw new TooLargeError(
      `File '${path}' is ${size} bytes; the limit is FILE_MAX_BYTES = ${limits.maxFileBytes} (${mib(limits.maxFileBytes)})`,
    );
  }
}

export function checkProjectTotals(files: number, bytes: number, limits: FileLimits): void {
  if (files > limits.maxProjectFiles) {
    throw invalid(
      `A project may hold at most PROJECT_MAX_FILES = ${limits.maxProjectFiles} files; this would make ${files}`,
    );
  }
  if (bytes > limits.maxProjectBytes) {
    throw new TooLargeError(
      `A project may hold at most PROJECT_MAX_BYTES = ${limits.maxProjectBytes} (${mib(limits.maxProjectBytes)}); this would make ${bytes} bytes`,
    );
  }
}

/**
 * A whole file set checked against the rules: each path valid and given once, each file and the
 * set within the limits. `field` names the paths in messages (`path`, `builtFiles path`).
 */
export function checkFileSet(files: SiteFile[], limits: FileLimits, field = 'path'): Map<string, Buffer> {
  const byPath = new Map<string, Buffer>();
  let bytes = 0;
  for (const file of files) {
    const path = validPath(file.path, field);
    if (byPath.has(path)) throw invalid(`${field} '${path}' appears twice once normalised`);
    const content = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
    checkFileSize(path, content.length, limits);
    bytes += content.length;
    byPath.set(path, content);
  }
  checkProjectTotals(byPath.size, bytes, limits);
  return byPath;
}

/**
 * The raster images among `files` checked for what they hold (images/checks.ts: the format their
 * name says, at most IMAGE_MAX_PIXELS). `stored`: the sha256 already at each path, whose bytes
 * were checked when written (or stored before the check) and pass as they are.
 */
export async function checkImages(
  files: Iterable<readonly [string, Buffer]>,
  limits: FileLimits,
  stored?: ReadonlyMap<string, string>,
): Promise<void> {
  for (const [path, content] of files) {
    if (stored?.get(path) === sha256(content)) continue;
    await checkImage(path, content, limits.maxImagePixels);
  }
}
