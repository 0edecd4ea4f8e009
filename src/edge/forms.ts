// Form posts from published sites, on the raw request: any <form> posting to the site's own
// /_forms/{name} is read here (a body over FORM_MAX_BYTES is refused as it streams in) and handed
// to the forms service, which limits, stores and records the event. Answers are pages for
// browsers, JSON for scripts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FormSite, FormsService } from '../modules/forms/service.ts';
import { escapeHtml } from '../lib/html.ts';
import { readBody } from './read-body.ts';
import { sameSitePath } from './same-site.ts';
import { asEdgeError, EdgeError, htmlPage, sendHtml, sendJson } from './respond.ts';

export const FORM_PATH = /^\/_forms\/([A-Za-z0-9_-]{1,64})(\/thanks)?\/?$/;
// Layout only, and a font for a site without a stylesheet: the site's own stylesheets, linked after
// it, give the page the site's type and colours.
const THANKS_STYLE =
  'body{font-family:system-ui,sans-serif;margin:0}main.thanks{display:grid;place-content:center;gap:.5rem;min-height:90vh;max-width:34rem;margin:0 auto;padding:1rem;text-align:center}';

export async function handleForm(
  req: IncomingMessage,
  res: ServerResponse,
  match: RegExpExecArray,
  site: FormSite,
  ip: string,
  deps: { forms: FormsService; maxBytes: number; page?: (path: string) => Promise<string | null> },
): Promise<void> {
  const form = match[1]!;
  if (match[2]) {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return refusalPage(res, new EdgeError(405, 'Method not allowed', { allow: 'GET, HEAD' }));
    const back = sameSitePath(new URL(req.url!, 'http://x').searchParams.get('back'));
    return thankYou(
      res,
      back,
      (await deps.page?.(back).catch(() => null)) ?? (await deps.page?.('/').catch(() => null)) ?? '',
    );
  }
  if (req.method !== 'POST')
    return refusalPage(res, new EdgeError(405, 'Forms accept POST only', { allow: 'POST' }));
  const wantsJson =
    /application\/json/.test(String(req.headers.accept ?? '')) ||
    /application\/json/.test(String(req.headers['content-type'] ?? ''));
  try {
    await deps.forms.admit(site, ip);
    const body = await readBody(req, deps.maxBytes, `The form is too large (at most ${deps.maxBytes} bytes)`);
    const page = pageOf(req.headers.referer, req.headers.host);
    await deps.forms.submit(site, form, parseEntries(String(req.headers['content-type'] ?? ''), body), page);
    if (wantsJson) return sendJson(res, 200, { ok: true, message: 'Thank you! Your message has been sent.' });
    res
      .writeHead(303, {
        location: `/_forms/${form}/thanks${page ? `?back=${encodeURIComponent(page)}` : ''}`,
      })
      .end();
  } catch (error) {
    const refusal = asEdgeError(error);
    if (wantsJson) return sendJson(res, refusal.status, { error: refusal.message }, refusal.headers);
    refusalPage(res, refusal);
  }
}

/** The posted fields as (name, value) pairs, from a urlencoded or JSON body. */
function parseEntries(contentType: string, body: string): [string, unknown][] {
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    const grouped = new Map<string, string[]>();
    for (const [k, v] of new URLSearchParams(body)) grouped.set(k, [...(grouped.get(k) ?? []), v]);
    return [...grouped].map(([k, vs]) => [k, vs.join(', ')]);
  }
  if (/^application\/json/i.test(contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new EdgeError(400, 'The form body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new EdgeError(400, 'The form body must be a JSON object');
    return Object.entries(parsed);
  }
  throw new EdgeError(415, 'Send the form as application/x-www-form-urlencoded or application/json');
}

/** The path of the posting page, when the Referer is on this very site. */
function pageOf(referer: string | undefined, host: string | undefined): string | null {
  if (!referer || !host) return null;
  try {
    const url = new URL(referer);
    return url.host.toLowerCase() === host.toLowerCase() ? url.pathname : null;
  } catch {
    return null;
  }
}

/** A refusal as a page, for a browser that posted a plain form. */
function refusalPage(res: ServerResponse, refusal: EdgeError): void {
  sendHtml(
    res,
    refusal.status,
    htmlPage(refusal.message, '<p><a href="/">Back to the site</a></p>'),
    refusal.headers,
  );
}

/** The thank-you page, in the language and with the stylesheets of the page the form was on. */
function thankYou(res: ServerResponse, back: string, sitePage: string): void {
  const look = lookOf(sitePage, back);
  const words = THANKS[look.lang.slice(0, 2).toLowerCase()] ?? THANKS.en!;
  const links = look.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('');
  const head = `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(words.title)}${look.name ? ` · ${escapeHtml(look.name)}` : ''}</title><style>${THANKS_STYLE}</style>${links}`;
  const body = `<main class="thanks"><h1>${escapeHtml(words.title)}</h1><p>${escapeHtml(words.sent)}</p><p><a href="${escapeHtml(back)}">${escapeHtml(words.back)}</a></p></main>`;
  sendHtml(
    res,
    200,
    `<!doctype html><html lang="${escapeHtml(look.lang)}"><head>${head}</head><body>${body}</body></html>\n`,
  );
}

/** A site page's language, name and own stylesheets (same-site paths only, at most four). */
export function lookOf(page: string, back = '/'): { lang: string; name: string; stylesheets: string[] } {
  // The head is near the start; the patterns stop at the next '<' so that no tag left open makes
  // them scan the rest of a large page again and again.
  const html = page.slice(0, 65_536);
  const lang = /<html\b[^<>]*\blang=["']?([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?)/i.exec(html)?.[1] ?? 'en';
  const name = (/<title[^<>]*>([^<]{1,120})<\/title>/i.exec(html)?.[1] ?? '').trim();
  const stylesheets = [...html.matchAll(/<link\b[^<>]*>/gi)]
    .map((m) => m[0])
    .filter((tag) => /\brel=["']?stylesheet\b/i.test(tag))
    .map((tag) => /\bhref=["']([^"']+)["']/i.exec(tag)?.[1] ?? '')
    .filter((href) => /^\/(?!\/)[^\s\\]*$/.test(href) || /^(?![a-z][a-z0-9+.-]*:|\/\/)[\w./-]+$/i.test(href))
    // A relative stylesheet is relative to the page the form was on.
    .map((href) => new URL(href, `http://site${back}`).pathname)
    .slice(0, 4);
  return { lang, name: decodeEntities(name), stylesheets };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** The thank-you page's words in the languages sites are most often written in; English otherwise. */
const THANKS: Record<string, { title: string; sent: string; back: string }> = {
  en: {
    title: 'Thank you!',
    sent: 'Your message has been sent. We will get back to you soon.',
    back: 'Back to the page',
  },
  de: {
    title: 'Vielen Dank!',
    sent: 'Ihre Nachricht wurde gesendet. Wir melden uns bald bei Ihnen.',
    back: 'Zurück zur Seite',
  },
  fr: {
    title: 'Merci !',
    sent: 'Votre message a bien été envoyé. Nous vous répondrons rapidement.',
    back: 'Retour à la page',
  },
  es: {
    title: '¡Gracias!',
    sent: 'Tu mensaje se ha enviado. Te responderemos pronto.',
    back: 'Volver a la página',
  },
  it: {
    title: 'Grazie!',
    sent: 'Il tuo messaggio è stato inviato. Ti risponderemo presto.',
    back: 'Torna alla pagina',
  },
  nl: {
    title: 'Bedankt!',
    sent: 'Je bericht is verstuurd. We nemen snel contact met je op.',
    back: 'Terug naar de pagina',
  },
  pt: {
    title: 'Obrigado!',
    sent: 'A sua mensagem foi enviada. Responderemos em breve.',
    back: 'Voltar à página',
  },
  sv: {
    title: 'Tack!',
    sent: 'Ditt meddelande har skickats. Vi hör av oss snart.',
    back: 'Tillbaka till sidan',
  },
  da: { title: 'Tak!', sent: 'Din besked er sendt. Vi vender snart tilbage.', back: 'Tilbage til siden' },
  pl: {
    title: 'Dziękujemy!',
    sent: 'Twoja wiadomość została wysłana. Wkrótce się odezwiemy.',
    back: 'Wróć do strony',
  },
  ja: {
    title: 'ありがとうございます',
    sent: 'メッセージを送信しました。近日中にご連絡いたします。',
    back: 'ページに戻る',
  },
};
