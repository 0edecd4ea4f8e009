// The words of a builtin site in its language, and a kind's copy in it (English: kinds.ts).
import type { Kind } from '../kind-shape.ts';
import { BUSINESS, OUR_BUSINESS } from './business.ts';
import { de, deKinds } from './de.ts';
import { en } from './en.ts';
import { es, esKinds } from './es.ts';
import { fr, frKinds } from './fr.ts';
import { it, itKinds } from './it.ts';
import { nl, nlKinds } from './nl.ts';
import { pt, ptKinds } from './pt.ts';
import type { KindCopy, KindText, Language, Words } from './types.ts';

export { LANGUAGES, type Language, type Words } from './types.ts';

const WORDS: Record<Language, Words> = { en, de, fr, es, it, nl, pt };
const KIND_COPY: Record<Exclude<Language, 'en'>, Record<string, KindCopy>> = {
  de: deKinds,
  fr: frKinds,
  es: esKinds,
  it: itKinds,
  nl: nlKinds,
  pt: ptKinds,
};

export const wordsFor = (language: Language): Words => WORDS[language];

/** The kind with its copy in `language` (what is not words, as its sections and palette, unchanged). */
export function kindIn(kind: Kind, language: Language): Kind {
  if (language === 'en') return kind;
  const copy: (Partial<KindCopy> & KindText) | undefined =
    KIND_COPY[language][kind.id] ?? (kind.id === 'business' ? BUSINESS[language] : undefined);
  if (!copy) return kind;
  // A list a translation leaves out (none should) stays the English one.
  const { words: _words, cta, ...text } = copy;
  return { ...kind, ...text, cta: [cta, kind.cta[1]] };
}

/** Every language's words naming a kind (lower case), by kind id: a prompt in any of them finds it. */
export function kindWordsOf(id: string): string[] {
  return Object.values(KIND_COPY).flatMap((copies) => copies[id]?.words ?? []);
}

/** "Our business": the name of a site whose prompt gives none (and no project name either). */
export const ourBusiness = (language: Language) =>
  language === 'en' ? 'Our business' : OUR_BUSINESS[language];

/** A language's own words for kinds of business and parts of a site ("friseursalon", "leistungen"). */
export function vocabularyOf(language: Exclude<Language, 'en'>): string[] {
  return [
    ...Object.values(KIND_COPY[language]).flatMap((c) => c.words ?? []),
    ...Object.values(WORDS[language].sectionWords).flat(),
  ];
}

/** Every language's words for each section, for reading a prompt. */
export const ALL_WORDS: Words[] = Object.values(WORDS);

/** Lower-casing a word for the middle of a sentence, where the language does (German nouns keep their capital). */
export function midSentence(language: Language, word: string): string {
  if (language === 'de' || /^[\p{Lu}\d]{2,}/u.test(word)) return word;
  return word[0]!.toLowerCase() + word.slice(1);
}
