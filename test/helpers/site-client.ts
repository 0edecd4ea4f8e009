// A real HTTP client for published sites: node's http.request, because fetch cannot set Host.
import { request } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';

export interface SiteResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body's bytes (after any content encoding is undone). */
  bytes: Buffer;
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
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: body.toString('utf8'),
          bytes: body,
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Posts a plain form (urlencoded `body`) to `/_forms/contact` of the site at `host`; answers the status. */
export function postForm(port: number, host: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = {
      host,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
    };
    const req = request(
      { host: '127.0.0.1', port, path: '/_forms/contact', method: 'POST', headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
