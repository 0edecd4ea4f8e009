// The pages' stylesheet and script, served by Sitewright itself (no CDN). Read once at start;
// the URL carries a hash of the content, so browsers may keep them for a year.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { UI_DIR } from '../dir.ts';

const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', svg: 'image/svg+xml' };

interface Asset {
  body: Buffer;
  type: string;
  url: string;
}

const assets = new Map<string, Asset>();
for (const name of readdirSync(`${UI_DIR}assets`)) {
  const body = readFileSync(`${UI_DIR}assets/${name}`);
  const ext = name.split('.').pop() ?? '';
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  assets.set(name, { body, type: TYPES[ext] ?? 'application/octet-stream', url: `/assets/${name}?v=${hash}` });
}

/** The versioned URL of an asset, for the layout's <link> and <script>. */
export function assetUrl(name: string): string {
  return assets.get(name)?.url ?? `/assets/${name}`;
}

export function assetRoutes(): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
      return reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').send(asset.body);
    });
  };
}
