// Prices a prompt gives, as item and price, in the seven languages: "full groom £45, bath and
// brush £25", "Damenhaarschnitt ab 39 €", "Demi-journée 1 400 €", "Starter € 49 p/m",
// "degustazione in cantina 25 € a persona", "Elopement (900 €)". The price keeps the prompt's own
// words around the amount ("ab", "from", "per night"); the item is what stands before it, back to
// the list's last comma, colon or sentence. Nothing is a price without a currency, except a bare
// number after a word that says it is one ("haircuts for 25").

export interface GivenPrice {
  item: string;
  price: string;
}

const CURRENCY = String.raw`(?:R\$|US\$|A\$|C\$|€|£|\$|¥|₹|CHF|Fr\.|kr|zł|eur(?:os?)?|gbp|usd|dollars?|pounds?|reais)`;
// "1 400", "1.400", "1,200.50", "9,50", "42,50", "15.000"
const NUMBER = String.raw`\d{1,3}(?:[ .,\u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
const FROM = String.raw`(?:from|starting at|only|ab|à partir de|dès|desde|a partir de|da|a partire da|vanaf|vana)`;
const UNIT = String.raw`(?:m|mo|month|monat|mois|mes|mês|mese|maand|h|hr|hour|stunde|std|heure|hora|ora|uur|night|nacht|nuit|noche|notte|noite|person|persona|pessoa|personne|persoon|pers|session|sessão|sesión|séance|sitzung|seduta|lesson|les|lezione|week|woche|semaine|semana|settimana|day|tag|jour|día|dia|giorno|dag|kg|year|jahr|an|año|ano|anno|jaar)`;
const PER = String.raw`(?:\s*(?:/|p/|per|pro|par|por|al|a|la|le|à|o|ao|each|each)\s*${UNIT}\.?(?![\p{L}]))?`;
/** An amount with its currency, the words before ("ab") and after ("p/m", "a night") that belong to it. */
export const AMOUNT = new RegExp(
  String.raw`(?:${FROM}\s+)?(?:${CURRENCY}\s?(?:${NUMBER})|(?:${NUMBER})\s?${CURRENCY}(?![\p{L}]))${PER}`,
  'giu',
);

/** Words that join a list's items or introduce one: not part of an item's name. */
const LEADING =
  /^(?:and|und|et|y|e|en|plus|also|auch|aussi|también|anche|ook|também|with|mit|avec|con|com|met|a|an|the|our|prices?|price list|tarifs?|preise|precios|prezzi|prijzen|preços|formules|pakete|packages)\s+/iu;
/** A word that starts a list mid-sentence ("a groomer in Leeds offering full groom £45"): the first item follows it. */
const INTRO =
  /^.*\b(?:offering|offers|we offer|we do|providing|provides|selling|serving|speciali[sz]ing in|including|such as|bietet|bieten|anbieten|proposant|propose|proposons|ofrece|ofrecemos|offriamo|offre|biedt|bieden|oferece|oferecemos)\s+/iu;
const TRAILING =
  /\s+(?:is|are|at|for|costs?|cost|kostet|kosten|coûte|cuesta|costa|kost|custa|from|ab|à partir de|desde|da|vanaf|a partir de|:|-|–)$/iu;

/** The item before an amount: back to the last delimiter (or the previous amount). */
function itemBefore(prompt: string, end: number, floor: number): string | undefined {
  let text = prompt.slice(floor, end);
  // "Elopement (900 €)": the amount in brackets prices what stands before them.
  if (/\(\s*$/.test(text)) text = text.replace(/\(\s*$/, '');
  const lastCut = (upTo: string) =>
    Math.max(...[',', ';', ':', '.', '\n', '!', '?', '·', '|', '•'].map((d) => lastDelimiter(upTo, d)));
  let cut = lastCut(text);
  // "fritti (frittatina, montanara) da 3 €": a comma inside brackets ends no item.
  while (text.slice(cut + 1).split(')').length > text.slice(cut + 1).split('(').length) {
    const open = text.lastIndexOf('(', cut);
    if (open === -1) break;
    cut = lastCut(text.slice(0, open));
  }
  let item = text.slice(cut + 1).trim();
  for (let i = 0; i < 3; i++) item = item.replace(LEADING, '').replace(TRAILING, '').trim();
  item = item.replace(INTRO, '').replace(LEADING, '');
  item = item
    .replace(/^[-–—*•]\s*/, '')
    .replace(/[\s(–—-]+$/, '')
    .trim();
  if (item.length < 2 || !/\p{L}{2}/u.test(item) || item.split(/\s+/).length > 7) return undefined;
  return item[0]!.toUpperCase() + item.slice(1);
}

/** The last delimiter `d` in `text` that ends a clause ("incl. first hour" keeps its dot; "9.50" is no delimiter). */
function lastDelimiter(text: string, d: string): number {
  for (let at = text.lastIndexOf(d); at !== -1; at = text.lastIndexOf(d, at - 1)) {
    if (d === '.' && /\d/.test(text[at - 1] ?? '') && /\d/.test(text[at + 1] ?? '')) continue;
    if (
      d === '.' &&
      /(?:^|\s)(?:incl|approx|ca|z\.b|e\.g|i\.e|St|Dr|Mr|Mrs|Nr|No|p)$/i.test(text.slice(0, at))
    )
      continue;
    if (d === ',' && /\d/.test(text[at - 1] ?? '') && /\d/.test(text[at + 1] ?? '')) continue;
    return at;
  }
  return -1;
}

export function pricesIn(prompt: string): GivenPrice[] {
  const out: GivenPrice[] = [];
  let floor = 0;
  for (const m of prompt.matchAll(AMOUNT)) {
    const price = m[0].trim().replace(/[,.]$/, '');
    const item = itemBefore(prompt, m.index, floor);
    floor = m.index + m[0].length;
    // "kids under 12 £14" is an item; "20% off" and a lone number are not prices.
    if (item && /\d/.test(price)) out.push({ item, price });
  }
  // A bare number is a price only after a word that says so ("haircuts for 25", "a lesson costs
  // 40"), and never when a word follows ("find us at 2 lock side", "a table for 4 people").
  const bare =
    /([\p{L}][\p{L}'’ &-]{1,40}?)\s+(?:costs?|for|at|are|is)\s+((?:from\s+)?\d{1,6}(?:[.,]\d{1,2})?)(?![\d%:]|\s*(?:am|pm|h|years?|min|people|guests|km|miles|€|£|\$|eur|euros?)\b|\s+(?!(?:each|per|a|an|pp|pro|par|por|à|al)\b)\p{L})/giu;
  for (const m of prompt.matchAll(bare)) {
    if (out.some((p) => p.price.includes(m[2]!))) continue;
    const item = m[1]!.replace(LEADING, '').trim();
    // "We open at 9", "tables for 4": a time or a number of people, not a price.
    if (
      /\b(?:opens?|opening|close[sd]?|closing|starts?|begins?|finish(?:es)?|ends?|doors|tables?|seats?|sleeps|groups?|party|parties)$/i.test(
        item,
      )
    )
      continue;
    if (item.length >= 2 && !/^(?:from|only|just)$/i.test(item))
      out.push({ item: item[0]!.toUpperCase() + item.slice(1), price: m[2]!.trim() });
  }
  return out.slice(0, 30);
}

/** Whether `text` holds an amount with its currency. */
const ANY_AMOUNT = new RegExp(AMOUNT.source, 'iu');
export const hasAmount = (text: string) => ANY_AMOUNT.test(text);

/** An offer without the price the prompt wrote after it ("Damenhaarschnitt ab 39 €": "Damenhaarschnitt"). */
export function withoutPrice(offer: string): string {
  return offer
    .replace(AMOUNT, '')
    .replace(/\(\s*\)/g, '')
    .replace(/[\s(–—:-]+$/, '')
    .trim();
}
