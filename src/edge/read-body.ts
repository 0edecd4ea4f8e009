// Reads a small request body on the raw Node request (site forms, the page-view beacon), refusing
// one over `max` bytes as soon as its declared length or its bytes say so.
import type { IncomingMessage } from 'node:http';

export function readBody(req: IncomingMessage, max: number, tooLarge: () => Error): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        reject(tooLarge());
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
