// The pages' stylesheets and scripts, served by Sitewright itself (no CDN): src/ui/assets/ as
// written, and the builder's bundles from dist/bundles/ (npm run build, bin/bundle.js). Read and compressed once at
// start; the URL carries a hash of the content, so browsers may keep them for a year.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { FastifyPluginAsync } from 'fastify';
import { UI_DIR } from '../dir.ts';

const TYPES: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};
const BUNDLES_DIR = `${UI_DIR}../../dist/bundles/`;

interface Asset {
  body: Buffer;
  gzipped: Buffer;
  type: string;
  url: string;
}

const assets = new Map<string, Asset>();
for (const dir of [`${UI_DIR}assets/`, BUNDLES_DIR]) {
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const body = readFileSync(`${dir}${name}`);
    const ext = name.split('.').pop() ?? '';
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
    assets.set(name, {
      body,
      gzipped: gzipSync(body, { level: 9 }),
      type: TYPES[ext] ?? 'application/octet-stream',
      url: `/assets/${name}?v=${hash}`,
    });
  }
}

/** The versioned URL of an asset, for the layout's <link> and <script>. */
export function assetUrl(name: string): string {
  return assets.get(name)?.url ?? `/assets/${name}`;
}

export function assetRoutes(): FastifyPluginAsync {
  return async (app) => {
    // Browsers and tools that ask for /favicon.ico without reading the page get the same icon.
    app.get('/favicon.ico', async (_request, reply) => {
      const icon = assets.get('favicon.svg')!;
      return reply.type(icon.type).header('cache-control', 'public, max-age=86400').send(icon.body);
    });
    app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
      const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
      reply
        .type(asset.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('vary', 'Accept-Encoding');
      if (gzip) reply.header('content-encoding', 'gzip');
      return reply.send(gzip ? asset.gzipped : asset.body);
    });
  };
}
