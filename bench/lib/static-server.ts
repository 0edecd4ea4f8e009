// A tiny static HTTP server for a directory of generated files, as a plain host would serve them:
// `/` answers index.html, `dir/` answers dir/index.html (`dir` redirects there), content types by extension, 404 (with
// the site's own 404.html when it has one) for anything else. Nothing outside the directory and
// nothing under a dot directory (`.sitewright/` holds the generator's notes) is served.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { onCleanup } from './cleanup.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** The file a request path names inside `root`, `{ redirect }` for a directory named without its slash, or undefined when it names none it may serve. */
async function fileFor(root: string, urlPath: string): Promise<string | { redirect: string } | undefined> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (path.endsWith('/')) path += 'index.html';
  if (path.split('/').some((part) => part.startsWith('.'))) return undefined;
  const file = resolve(root, '.' + path);
  if (!file.startsWith(root + sep)) return undefined;
  try {
    const found = await stat(file);
    if (found.isFile()) return file;
    if (found.isDirectory() && (await stat(join(file, 'index.html')).catch(() => undefined))?.isFile())
      return { redirect: urlPath + '/' };
    return undefined;
  } catch {
    return undefined;
  }
}

export async function serveDirectory(dir: string): Promise<StaticServer> {
  const root = resolve(dir);
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const file = await fileFor(root, path);
      if (!file) {
        const notFound = await readFile(join(root, '404.html')).catch(() => undefined);
        res.writeHead(404, { 'content-type': notFound ? TYPES['.html']! : 'text/plain; charset=utf-8' });
        res.end(notFound ?? 'Not found');
        return;
      }
      if (typeof file !== 'string') {
        res.writeHead(301, { location: file.redirect });
        res.end();
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as { port: number };
  const close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  const unregister = onCleanup(close);
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      unregister();
      await close();
    },
  };
}
