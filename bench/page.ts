// The page the serving benchmarks publish: 10 KB of plain HTML, written to a fresh directory (nginx
// serves it from there; the Sitewright servers publish its content).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function writeTenKbPage(prefix: string): { dir: string; file: string; html: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const paragraph = '<p>Fresh sourdough, pastries and celebration cakes, baked by hand every morning.</p>\n';
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title></head><body>\n${paragraph.repeat(Math.ceil(10_240 / paragraph.length))}</body></html>\n`.slice(
      0,
      10_240,
    );
  const file = join(dir, 'index.html');
  writeFileSync(file, html);
  return { dir, file, html };
}
