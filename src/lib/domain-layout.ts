// Whether the sites share the dashboard's registrable domain (by the Public Suffix List): then a
// site's script can set cookies for the parent domain that the dashboard receives. Sitewright
// works that way, but warns at start-up; the production layout (docs/operations.md) gives sites a
// registrable domain of their own.
import { getDomain } from 'tldts';

/** The registrable domain both share, or null when they are apart (or either has none, as localhost). */
export function sharedRegistrableDomain(publicUrl: string, sitesDomain: string): string | null {
  const dashboard = getDomain(new URL(publicUrl).hostname);
  const sites = getDomain(sitesDomain.replace(/:\d+$/, ''));
  return dashboard && dashboard === sites ? dashboard : null;
}
