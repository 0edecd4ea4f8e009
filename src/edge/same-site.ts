// The `back` link of a form's thank-you page comes from the query string, so anyone can craft it.
// Browsers read a link the WHATWG way (`\` as `/`, tabs and newlines dropped, `//` naming a host),
// so a prefix check on the raw text lets `/\evil.example` through. It is parsed here the way the
// browser will parse it, against a stand-in origin, and only a path on that same origin is kept.

const SITE = 'https://site.invalid';

/** `raw` as a normalised path (with query and fragment) on the same site, or `/`. */
export function sameSitePath(raw: string | null): string {
  if (!raw) return '/';
  let url: URL;
  try {
    url = new URL(raw, `${SITE}/`);
  } catch {
    return '/';
  }
  if (url.origin !== SITE) return '/';
  // `/.//evil.example` normalises to the path `//evil.example`, which as a link names a host.
  const path = '/' + `${url.pathname}${url.search}${url.hash}`.replace(/^\/+/, '');
  // The text written into the page must read back as the same same-site path.
  try {
    const again = new URL(path, `${SITE}/`);
    return again.origin === SITE && again.pathname + again.search + again.hash === path ? path : '/';
  } catch {
    return '/';
  }
}
