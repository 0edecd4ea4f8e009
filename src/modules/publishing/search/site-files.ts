// A site made ready to go live at publish time: placeholders left out (../placeholders.ts), every
// HTML page given what its head lacks for search and sharing (page-head.ts), and the deployment
// given `sitemap.xml` (every indexable page, with when it last changed) and `robots.txt`
// (pointing at the sitemap), unless the site's own files provide them.
import type { SiteSettings } from '../../site-settings/schema.ts';
import { decoratePage, type PageFacts } from './page-head.ts';
import { structuredData } from './structured-data.ts';
import { planPlaceholders, type PlaceholderPlan } from '../placeholders.ts';
import { imageSizes, responsiveImages } from '../../images/responsive.ts';
import type { SiteNotes } from './site-notes.ts';

export const SITEMAP = 'sitemap.xml';
export const ROBOTS = 'robots.txt';
const NOT_FOUND_PAGE = '404.html';

/** What publishing knows about the site as a whole. */
export interface SearchSite {
  /** The live site's address, with its trailing slash: the custom domain when verified. */
  baseUrl: string;
  settings: SiteSettings;
  /** What the generator noted about the site, when it made it. */
  notes: SiteNotes;
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
    // A link to the site shared says what the owner says the site is.
    shareDescription: path === 'index.html' ? settings.description : null,
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
  remove(path: string): Promise<void>;
}

/** What publishing leaves out of a site: each placeholder's text by page, and pages that go whole. */
export interface LeftOut {
  placeholders: { page: string; text: string }[];
  pages: string[];
}

/**
 * Makes the deployment's files ready to go live through `io`: placeholders left out
 * (placeholders.ts), each page decorated, sitemap.xml and robots.txt added unless the site has
 * its own. `lastModified`: when a page last changed (ISO time). Answers what was left out.
 */
export async function makeReadyToGoLive(
  site: Omit<SearchSite, 'hasFile'>,
  io: DeploymentFilesIo,
  lastModified: (path: string) => string,
): Promise<LeftOut> {
  const present = new Set(io.paths);
  const pagePaths = io.paths.filter(isPage);
  // One page in memory at a time: an archive's site may be large.
  const text = async (path: string) => utf8(await io.read(path));
  const plan = await planPlaceholders(pagePaths, text, NOT_FOUND_PAGE);
  for (const path of plan.pages) {
    present.delete(path);
    await io.remove(path);
  }
  const full: SearchSite = { ...site, hasFile: (path) => present.has(path) };
  const sizeOf = imageSizes(async (path) => (present.has(path) ? io.read(path) : undefined));
  const pages: { path: string; lastModified: string }[] = [];
  for (const path of pagePaths) {
    if (!present.has(path)) continue;
    const html = await text(path);
    // A page that is not UTF-8 is published as it is: decoding it would corrupt it.
    if (html === null) {
      if (path !== NOT_FOUND_PAGE) pages.push({ path, lastModified: lastModified(path) });
      continue;
    }
    const page = decorate(full, path, plan.page(path, html));
    // The generator's pages get responsive images; a page by hand keeps its own (images/responsive.ts).
    if (site.notes.generated) page.html = await responsiveImages(page.html, path, sizeOf);
    if (page.html !== html) await io.write(path, Buffer.from(page.html));
    if (page.indexable) pages.push({ path, lastModified: lastModified(path) });
  }
  if (!present.has(SITEMAP)) await io.write(SITEMAP, Buffer.from(sitemapXml(full, pages)));
  if (!present.has(ROBOTS)) await io.write(ROBOTS, Buffer.from(robotsTxt(full)));
  return { placeholders: plan.placeholders, pages: plan.pages };
}

/** What publishing the pages in `sources` leaves out (builder's Publish tab, previews). */
export async function leftOutOf(sources: ReadonlyMap<string, string>): Promise<PlaceholderPlan> {
  return planPlaceholders([...sources.keys()], async (path) => sources.get(path) ?? null, NOT_FOUND_PAGE);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The text of a page, or null when it is not UTF-8. */
export function utf8(content: Buffer): string | null {
  try {
    return decoder.decode(content);
  } catch {
    return null;
  }
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
