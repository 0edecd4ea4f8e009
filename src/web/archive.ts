// A site sent as one archive (zip, tar, or gzip-compressed tar), read as it arrives: each file is
// handed on as soon as it is complete, so an upload holds one file in memory, never the archive.
// Limits are checked while reading, before anything grows past them: the archive's own size, and
// each file's size as it is decompressed (a small archive that inflates to gigabytes stops at the
// first file past FILE_MAX_BYTES). Folders are skipped; links and devices are refused.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { extract } from 'tar-stream';
import { DomainError, invalid, TooLargeError } from '../modules/common/errors.ts';
import { checkFileSize, type FileLimits } from '../modules/files/rules.ts';
import type { ArchiveFile } from '../modules/publishing/archive-upload.ts';

export type ArchiveFormat = 'zip' | 'tar';

/** The media types an archive may be sent as, and the format each one names. */
export const ARCHIVE_TYPES: Record<string, ArchiveFormat> = {
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'application/x-tar': 'tar',
  'application/gzip': 'tar',
  'application/x-gzip': 'tar',
};

/** The files of archive `body` in `format`, one at a time; `maxBytes` bounds the archive itself. */
export async function* archiveFiles(
  body: Readable,
  format: ArchiveFormat,
  limits: FileLimits & { maxBytes: number },
): AsyncGenerator<ArchiveFile> {
  const counted = countBytes(body, limits.maxBytes);
  try {
    yield* format === 'zip' ? zipFiles(counted, limits) : tarFiles(counted, limits);
  } finally {
    // A refusal stops reading; Node discards the rest of the request body once the answer is sent.
    body.unpipe();
  }
}

/** The body's chunks, refused past `maxBytes`. */
async function* countBytes(body: Readable, maxBytes: number): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    seen += chunk.length;
    if (seen > maxBytes)
      throw new TooLargeError(`The archive is larger than the ${maxBytes} bytes a publish may send`);
    yield chunk;
  }
}

const ZIP_MAGIC = [0x50, 0x4b];
const GZIP_MAGIC = [0x1f, 0x8b];
const startsWith = (chunk: Buffer, magic: number[]) => magic.every((byte, i) => chunk[i] === byte);

async function* zipFiles(chunks: AsyncGenerator<Buffer>, limits: FileLimits): AsyncGenerator<ArchiveFile> {
  const ready: ArchiveFile[] = [];
  let failure: Error | undefined;
  let files = 0;
  const unzip = new Unzip((file: UnzipFile) => {
    // A folder has no data of its own: its files carry their whole path.
    if (file.name.endsWith('/')) return;
    files += 1;
    if (file.compression !== 0 && file.compression !== 8) {
      failure ??= invalid(`archive file '${file.name}' uses a compression other than deflate`);
      return;
    }
    const pieces: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, data, final) => {
      if (failure) return;
      if (error) {
        failure = invalid(`archive file '${file.name}' could not be read: ${error.message}`);
        return;
      }
      size += data.length;
      try {
        checkFileSize(file.name, size, limits);
      } catch (tooLarge) {
        failure = tooLarge as Error;
        file.terminate();
        return;
      }
      pieces.push(data);
      if (final) ready.push({ path: file.name, content: Buffer.concat(pieces) });
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  let first = true;
  for await (const chunk of chunks) {
    if (first && !startsWith(chunk, ZIP_MAGIC)) throw invalid('The body is not a zip archive');
    first = false;
    unzip.push(chunk);
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  }
  unzip.push(new Uint8Array(0), true);
  if (failure) throw failure;
  yield* ready;
  if (first) throw invalid('The archive is empty');
  if (files === 0 && ready.length === 0) throw invalid('The body is not a zip archive, or it holds no files');
}

async function* tarFiles(chunks: AsyncGenerator<Buffer>, limits: FileLimits): AsyncGenerator<ArchiveFile> {
  const head = await chunks.next();
  if (head.done) throw invalid('The archive is empty');
  const gzipped = startsWith(head.value, GZIP_MAGIC);
  async function* whole() {
    yield head.value as Buffer;
    yield* chunks;
  }
  const reader = extract();
  const feeding = (gzipped ? pipeline(whole(), createGunzip(), reader) : pipeline(whole(), reader)).catch(
    (error: unknown) => reader.destroy(error as Error),
  );
  try {
    for await (const entry of reader) {
      const { name, type, size } = entry.header;
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file')
        throw invalid(
          `archive entry '${name}' is a ${type ?? 'special file'}; an archive may hold only files`,
        );
      checkFileSize(name, size ?? 0, limits);
      const pieces: Buffer[] = [];
      for await (const piece of entry) pieces.push(piece as Buffer);
      yield { path: name, content: Buffer.concat(pieces) };
    }
  } catch (error) {
    if (error instanceof Error && !(error instanceof DomainError))
      throw invalid(`The body is not a readable tar archive: ${error.message}`);
    throw error;
  } finally {
    // Not awaited: the feeding ends (caught) once the body's current read returns.
    reader.destroy();
    void feeding;
  }
}
