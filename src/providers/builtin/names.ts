// The business's name a prompt gives: quoted, after "called", as a run of capitalised words, or
// (in a prompt written in lower case) between "for" and the place or right after it. Never a
// greeting, a kind of business, a time, a colour, a language, a part of an address or a place.
import { findColor } from './colour-words.ts';
import { escapeRegex, KINDS } from './kinds.ts';
import { isKnownPlace, titleCase } from './places.ts';
import { clean } from './prompt-text.ts';
import { ALL_WORDS, kindWordsOf } from './words/index.ts';

// Words that start a sentence or describe rather than name: never a business name on their own.
const NOT_NAMES = new Set(
  `a an the make build create design need want website web site page landing portfolio homepage online official personal please i we my our for with new modern simple one it hi hello dark light
  can could would you me us call email visit contact book order find open show include add use get see a business company small local family independent professional best
  italian french thai indian chinese japanese mexican greek spanish turkish lebanese vietnamese korean british english scottish irish welsh american german portuguese
  monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun uk us usa eu ai seo b2b b2c saas api crm faq
  eine ein einen website webseite homepage seite seiten startseite start für unsere unser wir ich mein meine bitte erstelle erstellen baue brauche
  site pour notre nos mon ma crée créer créez besoin voici accueil sitio página web para nuestra nuestro mi crea necesito inicio
  sito per nostra nostro mio mia crea serve voor onze ons mijn maak nossa nosso minha meu crie cria preciso een um uma un una une ein
  hi hey hello hallo hoi moin servus bonjour salut coucou hola buenas ciao salve buongiorno oi olá ola hiya howdy g'day g’day guten tag bom dia boa buenos días
  abbiamo facciamo gestiamo haben hebben avons tenemos temos gerimos führen betreiben runnen run
  we're we’re i'm i’m we've i've somos soy sono siamo sind bin suis sommes zijn ben sou estamos nous noi wij nós nosotros ik je io yo eu`.split(
    /\s+/,
  ),
);
const KIND_WORDS = new Set(
  [
    ...KINDS.flatMap((k) => [...k.words, ...(k.hints ?? []), ...kindWordsOf(k.id)]),
    ...ALL_WORDS.flatMap((w) => Object.values(w.sectionWords).flat()),
  ].flatMap((w) => w.split(/\s+/)),
);

const isDescription = (words: string[]) =>
  words.every(
    (w) =>
      NOT_NAMES.has(w.toLowerCase()) ||
      KIND_WORDS.has(w.toLowerCase().replace(/(?:'s|s)$/, '')) ||
      KIND_WORDS.has(w.toLowerCase()),
  );

/** An article alone, at the start of a sentence ("Il", "Die", "Het"): never a name. */
const ARTICLE = /^(?:il|lo|la|le|les|el|los|las|der|die|das|de|het|o|os|as)$/i;

/** Capitalised word runs (allowing 's, &, and, of, de …) that can be a business name. */
const NAME_RUN =
  /[\p{Lu}\d][\p{L}\d'’.&-]*(?:\s+(?:(?:&|and|of|de|del|della|dei|di|da|do|dos|das|des|la|le|du|ai|al|the|von|van)(?![\p{L}])|[\p{Lu}\d][\p{L}\d'’.&-]*))*(?<![\s&.])/gu;
/** A connecting word a name does not end with ("… 6am-2pm and"). */
const TRAILING_LINK = /\s+(?:&|and|of|de|del|della|dei|di|da|do|dos|das|des|la|le|du|ai|al|the|von|van)$/u;
/** "'zweite runde'", "‘Bloom’": single quotes around a name (not an apostrophe inside a word). */
const SINGLE_QUOTED = /(?<![\p{L}])['‘]((?:[^'’\s]+\s){0,2}[^'’\s]+)['’](?![\p{L}])/u;
/** A part of an address, never a name: a unit, a street. */
const ADDRESS_PART =
  /^(?:Unit|Suite|Flat|Floor|Level|Building|Block|Room|Apartment|Shop|Stall|Office|No\.?|Number|Rue|Via|Viale|Calle|Avenida|Rua|Travessa|Largo|Piazza|Plaza|Place)\s|\s(?:Lane|Road|Street|St|Avenue|Ave|Way|Drive|Close|Crescent|Terrace|Square|Gardens|Parade|Row|Hill)$|(?:straße|strasse|weg|gasse|platz|allee|laan|straat|gracht|plein|kade)$/iu;
const STYLE_WORDS =
  /(?<![\p{L}])(?:theme|thème|thema|tema|design|style|stil|estilo|stile|stijl|mode|modo|look|colou?rs?|couleurs?|farben?|colores|colori|kleuren|cores)(?![\p{L}])/iu;
/** A prompt in lower case: "website for rise and shine bakery in whitby", "une crêperie à quimper, la crêpe dentelle,". */
const FOR_NAME =
  /(?<![\p{L}])(?:for|für|pour|para|per|voor)\s+(.{3,50}?)\s+(?:in|à|a|en|em|te)\s+PLACE(?![\p{L}])/iu;
/** "a site for the drowsy heron, it's a little cafe": the name, then what it is. */
const FOR_THEN_WHAT =
  /(?<![\p{L}])(?:for|für|pour|para|per|voor)\s+((?:the\s+)?[\p{L}][\p{L}'’ -]{2,40}?),\s+(?:it's|it’s|it is|we're|we’re|we are|a|an|our|c'est|es|è|het is|é)\s/iu;
const AFTER_PLACE =
  /(?<![\p{L}])PLACE,\s+([\p{L}][\p{L}'’ -]{2,40}?)(?=\s*(?:[,.!;:(]|\p{Extended_Pictographic}|$))/u;

export function findName(prompt: string, placeName: string | null): string | undefined {
  const quoted = /["“„«»]\s?([^"”“«»]{2,80}?)\s?["”“«»]/.exec(prompt) ?? SINGLE_QUOTED.exec(prompt);
  if (quoted && !isDescription(quoted[1]!.split(/\s+/))) return clean(quoted[1]!);
  // "called rise and shine", "named Luna": any case, to the end of the phrase.
  const called =
    /(?<![\p{L}])(?:called|named|name is|business name is|brand is|namens|heißt|genannt|s'appelle|appelée?|nommée?|llamad[oa]|se llama|chiamat[oa]|si chiama|genaamd|heet|chamad[oa]|se chama)\s+(.{2,80}?)(?=\s+(?:in|at|for|with|which|that|based|located|near|who|and we|we)\b|[,.;:!?\n(]|$)/iu.exec(
      prompt,
    );
  if (called && !isDescription(called[1]!.split(/\s+/))) {
    const name = clean(called[1]!.split(/\p{Extended_Pictographic}/u)[0]!);
    return name === name.toLowerCase() ? titleCase(name) : name;
  }
  const place = placeName?.toLowerCase();
  if (place && (prompt.match(/\p{Lu}/gu)?.length ?? 0) < 3) {
    // In lower case a name has no capitals to find it by: the words between "for" and the place, or right after the place.
    const at = (pattern: RegExp) =>
      new RegExp(pattern.source.replace('PLACE', escapeRegex(place)), 'iu').exec(prompt)?.[1];
    for (const [candidate, afterKind] of [
      [at(FOR_NAME), true],
      [FOR_THEN_WHAT.exec(prompt)?.[1], true],
      [at(AFTER_PLACE), false],
    ] as const) {
      const words = candidate
        ?.split(/\p{Extended_Pictographic}/u)[0]!
        .replace(
          /^(?:my|our|mein\w*|unser\w*|mon|ma|mes|notre|nos|mi|mis|nuestr[oa]s?|il mio|la mia|mio|mia|mijn|onze|m'n|o meu|a minha|meu|minha)\s+/iu,
          '',
        )
        .trim()
        .split(/\s+/);
      // "barbershop Fade Factory": the kind before the name is not part of it.
      while (
        afterKind &&
        words &&
        words.length > 1 &&
        !ARTICLE.test(words[0]!) &&
        KIND_WORDS.has(words[0]!.toLowerCase())
      )
        words.shift();
      // "à paris, thème sombre": the look of the site, not its name.
      if (
        words?.length &&
        words.length <= 5 &&
        !isDescription(words) &&
        !STYLE_WORDS.test(words.join(' ')) &&
        !findColor(words.join(' ')) &&
        !words.some(
          (w) =>
            NOT_NAMES.has(w.toLowerCase()) && !ARTICLE.test(w) && !/^(?:and|of|de|la|le|du|the)$/.test(w),
        )
      )
        return titleCase(words.join(' '));
    }
  }
  for (const m of prompt.matchAll(NAME_RUN)) {
    // "#1e40af" is a colour.
    if (prompt[m.index - 1] === '#') continue;
    // A run ends at an emoji ("Bar Nuvola ☕🍋 facciamo ...") and at a sentence's full stop ("Therapy. Sports"; not "Dr." or "St.").
    const words = m[0]
      .split(/\p{Extended_Pictographic}/u)[0]!
      .trim()
      .split(/\s+/);
    const stop = words.findIndex(
      (w, i) =>
        i < words.length - 1 &&
        w.endsWith('.') &&
        !/^(?:\p{Lu}\p{Ll}{0,2}|Ltd|Inc|Bros|Mrs|\p{Lu})\.$/u.test(w),
    );
    if (stop !== -1) words.splice(stop + 1);
    // "Nia Pritchard and I shoot ...": the person, not "and I".
    while (
      words.length > 1 &&
      (NOT_NAMES.has(words.at(-1)!.toLowerCase()) || /^(?:&|and|und|et|y|e|en)$/i.test(words.at(-1)!))
    )
      words.pop();
    // A run that starts a sentence may start with a word like "Make" or "Website": drop those
    // (but "The" of "The Velvet Hours" belongs to the name).
    while (
      words.length &&
      NOT_NAMES.has(words[0]!.toLowerCase()) &&
      !(words[0] === 'The' && words.length > 1 && !isDescription(words.slice(1)))
    )
      words.shift();
    const candidate = clean(words.join(' ').replace(TRAILING_LINK, ''));
    // "6am-2pm", "70er-style": a lone token that starts with a digit is a time or a number; "Unit 4", "Mill Lane": an address.
    if (
      /^\d\S*$/u.test(candidate) ||
      !words.some((w) => /^\p{L}{2}/u.test(w)) ||
      ADDRESS_PART.test(candidate)
    )
      continue;
    if (
      candidate.length < 2 ||
      !/\p{L}{2}/u.test(candidate) ||
      ARTICLE.test(candidate) ||
      isDescription(words) ||
      isKnownPlace(candidate) ||
      (place && place.split(/[\s-]+/).includes(candidate.toLowerCase()))
    )
      continue;
    // "Luna Bakery in Bristol" keeps the bakery; a run that is only the place is not a name.
    if (
      place &&
      candidate.toLowerCase().endsWith(` ${place}`) &&
      isDescription(words.slice(0, -place.split(' ').length))
    )
      continue;
    return candidate;
  }
  return undefined;
}
