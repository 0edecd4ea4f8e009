// Text into HTML and back, for the pages the server writes itself (form replies, edited sites).

/** Escapes the five characters that matter in text and attribute values, as numeric references. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Undoes numeric references and the common named ones. */
export const unescapeHtml = (html: string): string =>
  html
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
