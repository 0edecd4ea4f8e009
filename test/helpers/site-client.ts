// A real HTTP client for published sites: node's http.request, because fetch cannot set Host.
import { request } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';

export interface SiteResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function fetchSite(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<SiteResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let body = Buffer.concat(chunks);
        if (res.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        if (res.headers['content-encoding'] === 'br') body = brotliDecompressSync(body);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
