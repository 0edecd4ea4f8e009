// Which of the builtin model's languages a prompt wants its site in: one it names ("Die Website
// soll auf Deutsch sein", "in French", "en español"), else the one it is written in (tinyld, among
// the seven only), else English.
import { detectAll } from 'tinyld';
import { KINDS } from './kinds.ts';
import { vocabularyOf, wordsFor } from './words/index.ts';
import { LANGUAGES, type Language } from './words/types.ts';

/** How a prompt names each language, in English and in the language itself. */
const NAMED: Record<Language, RegExp> = {
  en: /\b(?:in english|auf englisch|en anglais|en inglés|in inglese|in het engels|em inglês)\b/i,
  de: /\b(?:in german|auf deutsch|deutschsprachig|en allemand|en alemán|in tedesco|in het duits|em alemão)\b/i,
  fr: /\b(?:in french|auf französisch|en français|francophone|en francés|in francese|in het frans|em francês)(?![\p{L}])/iu,
  es: /\b(?:in spanish|auf spanisch|en espagnol|en español|en castellano|in spagnolo|in het spaans|em espanhol)(?![\p{L}])/iu,
  it: /\b(?:in italian|auf italienisch|en italien|en italiano|in italiano|in het italiaans|em italiano)\b/i,
  nl: /\b(?:in dutch|auf niederländisch|en néerlandais|en neerlandés|in olandese|in het nederlands|em holandês)(?![\p{L}])/iu,
  pt: /\b(?:in portuguese|auf portugiesisch|en portugais|en portugués|in portoghese|in het portugees|em português)(?![\p{L}])/iu,
};

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  nl: 'Dutch',
  pt: 'Portuguese',
};

/** The language a prompt names for its site, if it names one. */
export function namedLanguage(prompt: string): Language | undefined {
  return LANGUAGES.find((l) => NAMED[l].test(prompt));
}

/**
 * Short words each language writes in almost every sentence: on a prompt of a few words the
 * statistical guess alone is unreliable ("salon de coiffure à Paris" came out Portuguese).
 */
const SMALL_WORDS: Record<Language, Set<string>> = {
  en: new Set('the and for with our we a an of in is are my to'.split(' ')),
  de: new Set('der die das und für mit unsere unser wir ein eine ist sind auf im zu'.split(' ')),
  fr: new Set('le la les et pour avec notre nos nous un une des est à au du de'.split(' ')),
  es: new Set('el la los las y para con nuestra nuestro un una es en del de mi'.split(' ')),
  it: new Set('il lo la gli le e per con nostra nostro un una è a di del della mio mia'.split(' ')),
  nl: new Set('de het en voor met onze ons wij we een is in van mijn'.split(' ')),
  pt: new Set('o a os as e para com nossa nosso um uma é em do da de minha meu'.split(' ')),
};

/**
 * Words only one language uses for kinds of business and parts of a site: "Friseursalon.
 * Leistungen: Damenhaarschnitt ..." has no small word, and tinyld read it as Dutch.
 */
const VOCABULARY: Record<Language, Set<string>> = (() => {
  const lists: Record<Language, string[]> = {
    en: [...KINDS.flatMap((k) => k.words), ...Object.values(wordsFor('en').sectionWords).flat()],
    de: vocabularyOf('de'),
    fr: vocabularyOf('fr'),
    es: vocabularyOf('es'),
    it: vocabularyOf('it'),
    nl: vocabularyOf('nl'),
    pt: vocabularyOf('pt'),
  };
  const single = (l: Language) => lists[l].filter((w) => /^\p{L}{4,}$/u.test(w)).map((w) => w.toLowerCase());
  const seen = new Map<string, number>();
  for (const l of LANGUAGES) for (const w of new Set(single(l))) seen.set(w, (seen.get(w) ?? 0) + 1);
  return Object.fromEntries(
    LANGUAGES.map((l) => [l, new Set(single(l).filter((w) => seen.get(w) === 1))]),
  ) as Record<Language, Set<string>>;
})();

/** A word of the language's own vocabulary, or (German, Dutch) a compound ending in one: "Damenhaarschnitt", "hondentrimsalon". */
function inVocabulary(language: Language, word: string): boolean {
  const own = VOCABULARY[language];
  if (own.has(word)) return true;
  if ((language !== 'de' && language !== 'nl') || word.length < 8) return false;
  for (let cut = 3; cut <= word.length - 5; cut++) if (own.has(word.slice(cut))) return true;
  return false;
}

/** The language the prompt is written in (English when unsure). */
export function writtenIn(prompt: string): Language {
  const words = prompt.toLowerCase().match(/\p{L}+/gu) ?? [];
  const guesses = detectAll(prompt, { only: [...LANGUAGES] });
  const score = (l: Language) =>
    (guesses.find((g) => g.lang === l)?.accuracy ?? 0) * 10 +
    words.filter((w) => SMALL_WORDS[l].has(w)).length +
    words.filter((w) => inVocabulary(l, w)).length;
  const ranked = [...LANGUAGES].sort((a, b) => score(b) - score(a));
  // Without a single small word or word of its own, only a confident guess counts ("Luna Rossa" is English).
  const sure =
    words.some((w) => SMALL_WORDS[ranked[0]!].has(w) || inVocabulary(ranked[0]!, w)) ||
    (guesses[0]?.accuracy ?? 0) >= 0.5;
  return sure ? ranked[0]! : 'en';
}

export const languageOf = (prompt: string): Language => namedLanguage(prompt) ?? writtenIn(prompt);
