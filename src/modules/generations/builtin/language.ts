// Which of the builtin model's languages a prompt wants its site in: one it names ("Die Website
// soll auf Deutsch sein", "in French", "en español"), else the one it is written in (tinyld, among
// the seven only), else English.
import { detectAll } from 'tinyld';
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

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'German', fr: 'French', es: 'Spanish', it: 'Italian', nl: 'Dutch', pt: 'Portuguese' };

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

/** The language the prompt is written in (English when unsure). */
export function writtenIn(prompt: string): Language {
  const words = prompt.toLowerCase().match(/\p{L}+/gu) ?? [];
  const guesses = detectAll(prompt, { only: [...LANGUAGES] });
  const score = (l: Language) => (guesses.find((g) => g.lang === l)?.accuracy ?? 0) * 10 + words.filter((w) => SMALL_WORDS[l].has(w)).length;
  const ranked = [...LANGUAGES].sort((a, b) => score(b) - score(a));
  // Without a single small word, only a confident guess counts ("Bäckerei Luna" was Portuguese).
  const sure = words.some((w) => SMALL_WORDS[ranked[0]!].has(w)) || (guesses[0]?.accuracy ?? 0) >= 0.5;
  return sure ? ranked[0]! : 'en';
}

export const languageOf = (prompt: string): Language => namedLanguage(prompt) ?? writtenIn(prompt);
