// Places the builtin generator recognises in a prompt, and the conventions of their country: the
// currency prices are written in, how a phone number and a time of day are written. A place it
// does not know keeps the name the prompt gave and no country: then no currency is shown at all.

export interface Country {
  code: string;
  name: string;
  /** Writes an amount: `£4`, `4 €`, `¥800`. */
  currency: { symbol: string; before: boolean; code: string };
  /** An example of how a phone number is written there, for the placeholder that asks for one. */
  phoneExample: string;
  /** 24-hour times ("09:00–17:30") or 12-hour ones ("9am–5:30pm"). */
  clock: 12 | 24;
}

const eur = { symbol: '€', before: false, code: 'EUR' };
export const COUNTRIES: Record<string, Country> = {
  GB: { code: 'GB', name: 'United Kingdom', currency: { symbol: '£', before: true, code: 'GBP' }, phoneExample: '0113 496 0000', clock: 24 },
  IE: { code: 'IE', name: 'Ireland', currency: { symbol: '€', before: true, code: 'EUR' }, phoneExample: '01 555 0100', clock: 24 },
  US: { code: 'US', name: 'United States', currency: { symbol: '$', before: true, code: 'USD' }, phoneExample: '(555) 010-0100', clock: 12 },
  CA: { code: 'CA', name: 'Canada', currency: { symbol: '$', before: true, code: 'CAD' }, phoneExample: '(555) 010-0100', clock: 12 },
  AU: { code: 'AU', name: 'Australia', currency: { symbol: '$', before: true, code: 'AUD' }, phoneExample: '(02) 5550 0100', clock: 12 },
  NZ: { code: 'NZ', name: 'New Zealand', currency: { symbol: '$', before: true, code: 'NZD' }, phoneExample: '09 555 0100', clock: 12 },
  FR: { code: 'FR', name: 'France', currency: eur, phoneExample: '01 23 45 67 89', clock: 24 },
  DE: { code: 'DE', name: 'Germany', currency: eur, phoneExample: '030 1234567', clock: 24 },
  AT: { code: 'AT', name: 'Austria', currency: eur, phoneExample: '01 2345678', clock: 24 },
  IT: { code: 'IT', name: 'Italy', currency: eur, phoneExample: '06 1234 5678', clock: 24 },
  ES: { code: 'ES', name: 'Spain', currency: eur, phoneExample: '912 345 678', clock: 24 },
  PT: { code: 'PT', name: 'Portugal', currency: eur, phoneExample: '21 123 4567', clock: 24 },
  NL: { code: 'NL', name: 'the Netherlands', currency: eur, phoneExample: '020 123 4567', clock: 24 },
  BE: { code: 'BE', name: 'Belgium', currency: eur, phoneExample: '02 123 45 67', clock: 24 },
  CH: { code: 'CH', name: 'Switzerland', currency: { symbol: 'CHF', before: true, code: 'CHF' }, phoneExample: '044 123 45 67', clock: 24 },
  SE: { code: 'SE', name: 'Sweden', currency: { symbol: 'kr', before: false, code: 'SEK' }, phoneExample: '08-123 456 78', clock: 24 },
  DK: { code: 'DK', name: 'Denmark', currency: { symbol: 'kr.', before: false, code: 'DKK' }, phoneExample: '12 34 56 78', clock: 24 },
  NO: { code: 'NO', name: 'Norway', currency: { symbol: 'kr', before: false, code: 'NOK' }, phoneExample: '22 12 34 56', clock: 24 },
  PL: { code: 'PL', name: 'Poland', currency: { symbol: 'zł', before: false, code: 'PLN' }, phoneExample: '22 123 45 67', clock: 24 },
  JP: { code: 'JP', name: 'Japan', currency: { symbol: '¥', before: true, code: 'JPY' }, phoneExample: '03-1234-5678', clock: 24 },
  IN: { code: 'IN', name: 'India', currency: { symbol: '₹', before: true, code: 'INR' }, phoneExample: '022 1234 5678', clock: 12 },
  SG: { code: 'SG', name: 'Singapore', currency: { symbol: 'S$', before: true, code: 'SGD' }, phoneExample: '6123 4567', clock: 12 },
  ZA: { code: 'ZA', name: 'South Africa', currency: { symbol: 'R', before: true, code: 'ZAR' }, phoneExample: '021 123 4567', clock: 24 },
  MX: { code: 'MX', name: 'Mexico', currency: { symbol: '$', before: true, code: 'MXN' }, phoneExample: '55 1234 5678', clock: 12 },
  BR: { code: 'BR', name: 'Brazil', currency: { symbol: 'R$', before: true, code: 'BRL' }, phoneExample: '(11) 1234-5678', clock: 24 },
};

/** Cities and regions by the country they are in (lower case; the prompt's own spelling is kept). */
const PLACES: Record<string, string[]> = {
  GB: ['london', 'newcastle upon tyne', 'manchester', 'birmingham', 'leeds', 'bristol', 'liverpool', 'sheffield', 'newcastle', 'nottingham', 'leicester', 'brighton', 'york', 'bath', 'oxford', 'cambridge', 'edinburgh', 'glasgow', 'aberdeen', 'dundee', 'inverness', 'cardiff', 'swansea', 'belfast', 'exeter', 'plymouth', 'norwich', 'southampton', 'portsmouth', 'reading', 'cheltenham', 'harrogate', 'durham', 'canterbury', 'chester', 'coventry', 'derby', 'hull', 'bradford', 'stoke', 'wolverhampton', 'milton keynes', 'stratford-upon-avon', 'kendal', 'whitby', 'cornwall', 'devon', 'yorkshire', 'kent', 'surrey', 'sussex', 'wales', 'scotland', 'england', 'the uk', 'uk', 'united kingdom', 'great britain', 'shoreditch', 'hackney', 'camden', 'islington', 'brixton', 'hebden bridge', 'st ives', 'tunbridge wells', 'st andrews', 'fort william', 'swindon', 'conwy', 'truro', 'lancaster', 'carlisle', 'bournemouth', 'poole', 'salisbury', 'winchester', 'guildford', 'wells', 'penzance', 'falmouth', 'totnes', 'stroud', 'cirencester', 'shrewsbury', 'ludlow', 'worcester', 'hereford', 'gloucester', 'lincoln', 'peterborough', 'ipswich', 'colchester', 'chelmsford', 'luton', 'watford', 'croydon', 'bromley', 'richmond', 'kingston', 'greenwich', 'hove', 'eastbourne', 'hastings', 'margate', 'folkestone', 'dover', 'maidstone', 'sevenoaks', 'northampton', 'bedford', 'stevenage', 'wakefield', 'huddersfield', 'halifax', 'barnsley', 'doncaster', 'rotherham', 'scarborough', 'middlesbrough', 'sunderland', 'gateshead', 'stirling', 'perth', 'portree', 'oban', 'llandudno', 'aberystwyth', 'tenby', 'newport', 'wrexham', 'bangor', 'derry'],
  IE: ['dublin', 'cork', 'galway', 'limerick', 'kilkenny', 'waterford', 'ireland', 'dingle', 'killarney', 'tralee', 'sligo', 'westport', 'athlone', 'drogheda', 'dundalk', 'wexford', 'ennis'],
  US: ['new york', 'nyc', 'brooklyn', 'manhattan', 'los angeles', 'san francisco', 'chicago', 'boston', 'seattle', 'austin', 'portland', 'denver', 'miami', 'atlanta', 'dallas', 'houston', 'phoenix', 'philadelphia', 'nashville', 'new orleans', 'san diego', 'washington', 'minneapolis', 'detroit', 'las vegas', 'brooklyn', 'oakland', 'texas', 'california', 'florida', 'usa', 'the us', 'united states', 'kansas city', 'st louis', 'san jose', 'salt lake city', 'new hampshire', 'new jersey', 'new mexico', 'north carolina', 'north dakota', 'rhode island', 'south carolina', 'south dakota', 'west virginia', 'boise', 'newark', 'queens', 'pittsburgh', 'cleveland', 'columbus', 'cincinnati', 'indianapolis', 'milwaukee', 'memphis', 'louisville', 'charlotte', 'raleigh', 'richmond', 'baltimore', 'sacramento', 'albuquerque', 'tucson', 'omaha', 'tulsa', 'anchorage', 'honolulu', 'savannah', 'charleston', 'asheville', 'madison', 'burlington', 'alabama', 'alaska', 'arizona', 'arkansas', 'colorado', 'connecticut', 'delaware', 'georgia', 'hawaii', 'idaho', 'illinois', 'indiana', 'iowa', 'kansas', 'kentucky', 'louisiana', 'maine', 'maryland', 'massachusetts', 'michigan', 'minnesota', 'mississippi', 'missouri', 'montana', 'nebraska', 'nevada', 'ohio', 'oklahoma', 'oregon', 'pennsylvania', 'tennessee', 'utah', 'vermont', 'virginia', 'wisconsin', 'wyoming'],
  CA: ['toronto', 'vancouver', 'montreal', 'calgary', 'ottawa', 'edmonton', 'quebec', 'canada', 'montréal', 'halifax', 'winnipeg', 'victoria', 'québec'],
  AU: ['sydney', 'melbourne', 'brisbane', 'perth', 'adelaide', 'hobart', 'canberra', 'australia', 'byron bay', 'gold coast', 'ballina', 'darwin', 'cairns', 'newcastle', 'geelong'],
  NZ: ['auckland', 'wellington', 'christchurch', 'queenstown', 'new zealand'],
  FR: ['paris', 'lyon', 'marseille', 'bordeaux', 'toulouse', 'nice', 'nantes', 'lille', 'strasbourg', 'montpellier', 'france', 'le havre', 'aix-en-provence', 'la rochelle', 'colmar', 'chamonix', 'uzès', 'rennes', 'reims', 'saint-étienne', 'toulon', 'grenoble', 'dijon', 'angers', 'nîmes', 'brest', 'tours', 'amiens', 'limoges', 'annecy', 'perpignan', 'metz', 'besançon', 'orléans', 'rouen', 'caen', 'nancy', 'avignon', 'biarritz', 'bayonne', 'pau', 'poitiers', 'quimper', 'saint-malo', 'arles', 'cannes', 'antibes'],
  DE: ['berlin', 'munich', 'münchen', 'hamburg', 'cologne', 'köln', 'frankfurt', 'stuttgart', 'düsseldorf', 'leipzig', 'dresden', 'germany', 'freiburg', 'münster', 'bonn', 'hannover', 'nürnberg', 'nuremberg', 'bremen', 'essen', 'dortmund', 'duisburg', 'bochum', 'wuppertal', 'bielefeld', 'mannheim', 'karlsruhe', 'augsburg', 'wiesbaden', 'mainz', 'kiel', 'lübeck', 'rostock', 'potsdam', 'heidelberg', 'regensburg', 'würzburg', 'erfurt', 'jena', 'göttingen', 'aachen', 'ulm', 'konstanz'],
  AT: ['vienna', 'wien', 'salzburg', 'innsbruck', 'graz', 'austria', 'linz', 'klagenfurt', 'villach', 'bregenz'],
  IT: ['rome', 'roma', 'milan', 'milano', 'florence', 'firenze', 'naples', 'napoli', 'venice', 'bologna', 'turin', 'torino', 'italy', 'reggio emilia', 'palermo', 'verona', 'merano', 'genova', 'genoa', 'bari', 'catania', 'padova', 'padua', 'trieste', 'brescia', 'parma', 'modena', 'perugia', 'pisa', 'siena', 'lucca', 'ferrara', 'ravenna', 'rimini', 'bergamo', 'como', 'trento', 'bolzano', 'cagliari', 'lecce', 'salerno', 'sorrento', 'amalfi'],
  ES: ['madrid', 'barcelona', 'valencia', 'seville', 'sevilla', 'malaga', 'málaga', 'bilbao', 'spain', 'san sebastián', 'las palmas', 'zaragoza', 'granada', 'córdoba', 'cordoba', 'alicante', 'murcia', 'palma', 'valladolid', 'vigo', 'gijón', 'oviedo', 'donostia', 'santander', 'pamplona', 'salamanca', 'toledo', 'cádiz', 'cadiz', 'marbella', 'tarifa', 'ibiza', 'tenerife', 'girona', 'tarragona', 'sitges'],
  PT: ['lisbon', 'lisboa', 'porto', 'portugal', 'lagos', 'braga', 'coimbra', 'faro', 'aveiro', 'évora', 'sintra', 'cascais', 'funchal', 'guimarães'],
  NL: ['amsterdam', 'rotterdam', 'utrecht', 'the hague', 'eindhoven', 'netherlands', 'den haag', 'groningen', 'haarlem', 'leiden', 'delft', 'maastricht', 'nijmegen', 'tilburg', 'breda', 'arnhem', 'zwolle', 'amersfoort', 'alkmaar', 'dordrecht'],
  BE: ['brussels', 'antwerp', 'ghent', 'bruges', 'belgium', 'leuven', 'liège', 'liege', 'gent', 'namur', 'mechelen'],
  CH: ['zurich', 'zürich', 'geneva', 'basel', 'bern', 'lausanne', 'switzerland', 'luzern', 'lucerne', 'lugano', 'st.', 'gallen', 'winterthur', 'zug'],
  SE: ['stockholm', 'gothenburg', 'malmö', 'sweden'],
  DK: ['copenhagen', 'aarhus', 'denmark'],
  NO: ['oslo', 'bergen', 'norway'],
  PL: ['warsaw', 'krakow', 'kraków', 'gdansk', 'poland'],
  JP: ['tokyo', 'osaka', 'kyoto', 'yokohama', 'sapporo', 'japan'],
  IN: ['mumbai', 'delhi', 'bangalore', 'bengaluru', 'chennai', 'kolkata', 'hyderabad', 'pune', 'india'],
  SG: ['singapore'],
  ZA: ['cape town', 'johannesburg', 'durban', 'south africa'],
  MX: ['mexico city', 'guadalajara', 'cancun', 'mexico'],
  BR: ['são paulo', 'sao paulo', 'rio de janeiro', 'brazil', 'belo horizonte', 'porto alegre', 'recife', 'salvador', 'fortaleza', 'curitiba', 'brasília', 'brasilia', 'manaus', 'belém', 'niterói', 'florianópolis'],
};

const COUNTRY_OF = new Map<string, string>(Object.entries(PLACES).flatMap(([code, names]) => names.map((n) => [n, code] as [string, string])));
/** Names of whole countries (and the UK's nations), as opposed to cities and regions. */
const COUNTRY_NAMES = new Set(['the uk', 'uk', 'united kingdom', 'great britain', 'england', 'scotland', 'wales', 'ireland', 'usa', 'the us', 'united states', 'canada', 'australia', 'new zealand', 'france', 'germany', 'austria', 'italy', 'spain', 'portugal', 'netherlands', 'belgium', 'switzerland', 'sweden', 'denmark', 'norway', 'poland', 'japan', 'india', 'singapore', 'south africa', 'mexico', 'brazil']);
/** Known place names, longest first, so "new york" wins over "york". */
const KNOWN = [...COUNTRY_OF.keys()].sort((a, b) => b.length - a.length);

/** Any known place of four letters or more, as a whole word: one pattern, compiled once. */
const ANYWHERE = new RegExp(`(?<![\\p{L}])(?:${KNOWN.filter((k) => k.length >= 4).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}])`, 'u');

/** "France", "Bristol": a place this model knows, never a business's name on its own. */
export const isKnownPlace = (text: string) => COUNTRY_OF.has(text.toLowerCase());

export interface Place {
  /** As a person writes it: the prompt's capitalisation, or title case when it wrote it in lower case. */
  name: string;
  country: string | null;
}

/** A name written in lower case, as a person writes it: "Newcastle upon Tyne", "Rise and Shine". */
export const titleCase = (text: string) =>
  text.replace(/(^|[\s-])(\p{Ll})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase()).replace(/([\s-])(And|Of|The|De|La|Le|Du|Upon|On|Sur)(?=[\s-])/g, (w) => w.toLowerCase());

/** Words after "in" or "at" that are no place: an address's unit, a language or a people. */
const NOT_PLACES =
  /^(?:Unit|Suite|Flat|Floor|Level|Building|Block|Room|Apartment|Shop|Stall|Office|No|Number|English|French|German|Spanish|Italian|Dutch|Portuguese|Flemish|Deutsch|Englisch|Französisch|Français|Anglais|Allemand|Español|Inglés|Francés|Italiano|Inglese|Nederlands|Engels|Português|Inglês)\b/u;
/** Lower-case words after "in", "à", "a" … that are no place: "in person", "a domicilio", "à emporter". */
const LOWER_NOT_PLACES = new Set(
  'person persona casa home town city centre center emporter domicile domicilio domicílio house haus hause stock total general advance anticipo voraus vorkasse'.split(' '),
);

/** The place a prompt names ("in Leeds", "based in new york", "Bristol bakery"), if any. */
/** The words before a place in the other languages ("à Lyon", "en Sevilla", "a Napoli", "em Lisboa", "aus Köln"). */
const PLACE_WORDS: Record<string, string> = { de: 'aus|bei|nahe', fr: 'à|au|près de', es: 'en|cerca de', it: 'a|ad|vicino a', nl: 'bij|uit', pt: 'em|perto de' };

/** "München-Schwabing. Die Website ...": a place ends with its sentence (an abbreviation's stop is kept: "St. Ives"). */
const endOfSentence = (words: string) => words.replace(/(?<!\b(?:St|Ste|Mt|Ft))\.\s[\s\S]*$/u, '');

/** Words that say where the business is, before any other "in": "Based in Conwy" wins over "elopements in Snowdonia". */
const BASED = String.raw`based in|located in|situated in|we(?:'re| are) in|mit sitz in|ansässig in|basée? à|installée? à|située? à|basad[oa] en|ubicad[oa] en|situad[oa] en|con sede (?:a|in)|gevestigd in|sediad[oa] em|localizad[oa] em|(?:au )?(?:centre|cœur) de|en el centro de|nel centro di|in centro a|im zentrum von|mitten in|in het centrum van|no centro de`;

/**
 * A place after one of `words`, capitalised or not ("Based in Conwy"); the words after keep their
 * case, which says what is a name: "Newcastle upon Tyne", "Stratford-on-Avon", "Frankfurt am
 * Main"; not "Portree on the Isle of Skye".
 */
function placeAfter(words: string): RegExp {
  const intro = words.replace(/(^|\|)(\p{Ll})/gu, (_m, sep: string, c: string) => `${sep}[${c}${c.toUpperCase()}]`);
  return new RegExp(String.raw`(?<![\p{L}])(?:${intro})\s+((?:the\s+)?[\p{L}][\p{L}'’.-]*(?:(?:[\s-]+(?:upon|de|la|le|sur|the|of|en|am|an|im)|-on)*[\s-]+[\p{Lu}][\p{L}'’.-]*)*)`, 'gu');
}
const AFTER_BASED = placeAfter(BASED);
const GENERAL = 'in|from|near|outside|serving|around|across|at';
/** English's place words and the language's own ("à", "en", "a", "em", "bei"), compiled once per language. */
const AFTER_WORD = new Map([['en', placeAfter(GENERAL)], ...Object.entries(PLACE_WORDS).map(([l, w]) => [l, placeAfter(`${GENERAL}|${w}`)] as [string, RegExp])]);
const afterPlaceWord = (language: string) => AFTER_WORD.get(language) ?? AFTER_WORD.get('en')!;

export function findPlace(prompt: string, language = 'en'): Place | null {
  const lower = prompt.toLowerCase();
  // A prompt written all in lower case names its place in lower case too ("à quimper, ...").
  const casual = (prompt.match(/\p{Lu}/gu)?.length ?? 0) < 3;
  let lowerCase: Place | undefined;
  // A place after "based in" first, then after "in", "from", "near" …: a known one in any case, or a capitalised name.
  for (const after of [AFTER_BASED, afterPlaceWord(language)]) {
    for (const m of prompt.matchAll(after)) {
      const words = endOfSentence(m[1]!);
      const known = KNOWN.find((k) => words.toLowerCase().startsWith(k) && /^(?:$|[\s,.;:!?)])/.test(words.slice(k.length)));
      // "shipped anywhere in the UK": a country the business serves, not where it is.
      if (known && COUNTRY_NAMES.has(known) && /\b(?:anywhere|across|throughout|all over|everywhere)\s+(?:in\s+)?$/i.test(prompt.slice(0, m.index + m[0].length - words.length))) return { name: '', country: COUNTRY_OF.get(known)! };
      if (known) return { name: displayName(words.slice(0, known.length)), country: COUNTRY_OF.get(known)! };
      if (/^at\s/i.test(m[0]) && !/^[\p{Lu}]/u.test(words)) continue;
      // "at Unit 7", "in French": an address or a language, not a place.
      if (NOT_PLACES.test(words)) continue;
      if (/^[\p{Lu}]/u.test(words) && !/^(?:The|A|An|My|Our)$/.test(words)) return { name: words.replace(/[.,;:!?]+$/, ''), country: null };
      // In lower case, only when no place it knows stands anywhere ("a mezzanotte" is a time, "au levain" bread).
      const single = casual && !/^(?:at|au)\s/i.test(m[0]) ? /^(\p{Ll}[\p{Ll}'’-]{2,}(?:\s\p{Ll}[\p{Ll}'’-]{2,})?)(?=\s*(?:[,.;:!?(]|$))/u.exec(prompt.slice(m.index + m[0].length - m[1]!.length)) : null;
      if (single && !LOWER_NOT_PLACES.has(single[1]!) && !lowerCase) lowerCase = { name: titleCase(single[1]!), country: null };
    }
  }
  // A known place anywhere else ("a Bristol bakery").
  const anywhere = ANYWHERE.exec(lower);
  if (anywhere) return { name: displayName(prompt.slice(anywhere.index, anywhere.index + anywhere[0].length)), country: COUNTRY_OF.get(anywhere[0])! };
  return lowerCase ?? null;
}

function displayName(written: string): string {
  if (/^(?:uk|usa|nyc)$/i.test(written)) return written.toUpperCase();
  if (/^the (?:uk|us)$/i.test(written)) return written.replace(/\b(uk|us)\b/i, (w) => w.toUpperCase());
  return written === written.toLowerCase() ? titleCase(written) : written;
}

/** An amount in the country's currency; just the number when the country is not known. */
export function money(amount: string, country: string | null): string {
  const c = country ? COUNTRIES[country] : undefined;
  if (!c) return amount;
  return c.currency.before ? `${c.currency.symbol}${amount}` : `${amount} ${c.currency.symbol}`;
}

export function countryOf(code: string | null): Country | undefined {
  return code ? COUNTRIES[code] : undefined;
}
