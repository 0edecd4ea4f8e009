// Search and sharing at publish time: every HTML page gets what its head lacks (page-head.ts),
// and the deployment gets `sitemap.xml` (every indexable page, with when it last changed) and
// `robots.txt` (pointing at the sitemap), unless the site's own files provide them.
import type { SiteSettings } from '../../site-settings/schema.ts';
import { decoratePage, type PageFacts } from './page-head.ts';
import { structuredData } from './structured-data.ts';

export const SITEMAP = 'sitemap.xml';
export const ROBOTS = 'robots.txt';
const NOT_FOUND_PAGE = '404.html';

/** What publishing knows about the site as a whole. */
export interface SearchSite {
  /** The live site's address, with its trailing slash: the custom domain when verified. */
  baseUrl: string;
  settings: SiteSettings;
  /** What the generator noted about the site, when it made it. */
  notes: { name: string | null; kind: string | null };
  /** Whether the deployment has a file (a setting may name one deleted since). */
  hasFile: (path: string) => boolean;
}

export const isPage = (path: string): boolean => /\.html?$/i.test(path);

/** The address a page is served at: `index.html` at its directory, any other at its own path. */
export function pageUrl(baseUrl: string, path: string): string {
  return baseUrl + (path === 'index.html' ? '' : path.replace(/(^|\/)index\.html$/, '$1'));
}

/** One page made ready for search and sharing; `indexable` false when it asks not to be indexed. */
export function decorate(site: SearchSite, path: string, html: string): { html: string; indexable: boolean } {
  const { settings } = site;
  const name = settings.site_name ?? site.notes.name;
  const image = settings.social_image && site.hasFile(settings.social_image) ? settings.social_image : null;
  const favicon = settings.favicon && site.hasFile(settings.favicon) ? settings.favicon : null;
  const url = pageUrl(site.baseUrl, path);
  const facts: PageFacts = {
    url,
    siteName: name,
    description: settings.description,
    language: settings.language,
    image: image && site.baseUrl + image,
    favicon,
    notFound: path === NOT_FOUND_PAGE,
    structuredData:
      path === 'index.html'
        ? (title) =>
            structuredData({
              name: name ?? title,
              url: site.baseUrl,
              description: settings.description,
              language: settings.language,
              image: image && site.baseUrl + image,
              kind: site.notes.kind,
              facts: settings.facts,
            })
        : null,
  };
  const page = decoratePage(html, facts);
  return { html: page.html, indexable: page.indexable && path !== NOT_FOUND_PAGE };
}

export function sitemapXml(site: SearchSite, pages: { path: string; lastModified: string }[]): string {
  const entries = [...pages]
    .sort((a, b) =>
      a.path === 'index.html' ? -1 : b.path === 'index.html' ? 1 : a.path.localeCompare(b.path),
    )
    .map(
      (page) =>
        `  <url>\n    <loc>${escapeXml(pageUrl(site.baseUrl, page.path))}</loc>\n    <lastmod>${page.lastModified}</lastmod>\n  </url>`,
    );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(site: SearchSite): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${site.baseUrl}${SITEMAP}\n`;
}

/** Reads and writes a deployment's files while it is made. */
export interface DeploymentFilesIo {
  paths: readonly string[];
  read(path: string): Promise<Buffer>;
  write(path: string, content: Buffer): Promise<void>;
}

/**
 * Makes the deployment's files ready for search and sharing through `io`: each page decorated,
 * sitemap.xml and robots.txt added unless the site has its own. `lastModified`: when a page
 * last changed (ISO time).
 */
export async function makeSearchReady(
  site: Omit<SearchSite, 'hasFile'>,
  io: DeploymentFilesIo,
  lastModified: (path: string) => string,
): Promise<void> {
  const present = new Set(io.paths);
  const full: SearchSite = { ...site, hasFile: (path) => present.has(path) };
  const pages: { path: string; lastModified: string }[] = [];
  for (const path of io.paths) {
    if (!isPage(path)) continue;
    const before = await io.read(path);
    const page = decorate(full, path, before.toString('utf8'));
    const after = Buffer.from(page.html);
    if (!after.equals(before)) await io.write(path, after);
    if (page.indexable) pages.push({ path, lastModified: lastModified(path) });
  }
  if (!present.has(SITEMAP)) await io.write(SITEMAP, Buffer.from(sitemapXml(full, pages)));
  if (!present.has(ROBOTS)) await io.write(ROBOTS, Buffer.from(robotsTxt(full)));
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
