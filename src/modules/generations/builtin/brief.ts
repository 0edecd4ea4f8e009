// The builtin generator's understanding of a site: what it renders, and what it keeps in
// `.sitewright/builtin-brief.json` (builtin/notes.ts) so that a follow-up prompt can change it reliably.
import { GENERIC, KINDS, kindById } from './kinds.ts';
import { NAMED_COLORS, parseHex } from './colors.ts';

export const SECTIONS = ['services', 'about', 'testimonials', 'pricing', 'faq', 'contact'] as const;
export type Section = (typeof SECTIONS)[number];
export const DEFAULT_SECTIONS: Section[] = ['services', 'about', 'testimonials', 'contact'];

export interface Brief {
  name: string;
  kind: string;
  place: string | null;
  /** Brand colour as #rrggbb; null: the kind's own. */
  primary: string | null;
  dark: boolean;
  headline: string | null;
  tagline: string | null;
  sections: Section[];
}

const NOT_NAMES = new Set(['a', 'an', 'the', 'make', 'build', 'create', 'website', 'site', 'web', 'page', 'landing', 'please', 'i', 'we', 'my', 'our', 'for', 'need', 'want', 'new', 'modern', 'simple', 'one', 'it']);

/** Capitalised word runs (allowing 's, &, and, of, de) that can be a business or place name. */
const NAME_RUN = /(?:[A-Z0-9][\w'’.-]*)(?:\s+(?:&|and|of|de|la|le|du|the|[A-Z0-9][\w'’.-]*))*(?<![\s&])/g;

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/^[\s,.;:'"“”]+|[\s,.;:'"“”!?]+$/g, '').slice(0, 80);
}

function quoted(prompt: string): string | undefined {
  const m = /["“]([^"”]{2,80})["”]/.exec(prompt);
  return m ? clean(m[1]!) : undefined;
}

function findKind(text: string): string {
  const lower = text.toLowerCase();
  let best: { id: string; at: number } | undefined;
  for (const kind of KINDS) {
    for (const word of kind.words) {
      const at = lower.search(new RegExp(`\\b${word}`));
      if (at >= 0 && (!best || at < best.at)) best = { id: kind.id, at };
    }
  }
  return best?.id ?? GENERIC.id;
}

function findPlace(prompt: string): string | null {
  const m = /\b(?:in|based in|located in|from|near)\s+((?:[A-Z][\w'’-]*)(?:[\s-]+(?:[A-Z][\w'’-]*|upon|on|de|la|le|sur))*)/.exec(prompt);
  return m ? clean(m[1]!) : null;
}

function findName(prompt: string, place: string | null): string | undefined {
  const q = quoted(prompt);
  if (q) return q;
  const after = /\b(?:called|named|for|name is|is)\s+((?:[A-Z0-9][\w'’&.-]*)(?:\s+(?:&|and|of|[A-Z0-9][\w'’&.-]*))*)/.exec(prompt);
  if (after && !NOT_NAMES.has(after[1]!.toLowerCase())) return clean(after[1]!);
  for (const m of prompt.matchAll(NAME_RUN)) {
    const words = m[0].split(/\s+/);
    while (words.length && NOT_NAMES.has(words[0]!.toLowerCase())) words.shift();
    const candidate = clean(words.join(' '));
    if (candidate.length >= 2 && candidate !== place && !NOT_NAMES.has(candidate.toLowerCase())) return candidate;
  }
  return undefined;
}

/** A colour the prompt names: a #hex or a colour word. */
export function findColor(prompt: string): string | undefined {
  const hex = /#[0-9a-f]{6}\b|#[0-9a-f]{3}\b/i.exec(prompt);
  if (hex && parseHex(hex[0])) return hex[0].toLowerCase();
  const lower = prompt.toLowerCase();
  const word = Object.keys(NAMED_COLORS).find((c) => new RegExp(`\\b${c}\\b`).test(lower));
  return word ? NAMED_COLORS[word] : undefined;
}

export function sectionsMentioned(text: string): Section[] {
  const lower = text.toLowerCase();
  const found: Section[] = [];
  const words: Record<Section, RegExp> = {
    services: /\bservices?\b/, about: /\babout\b/, testimonials: /\b(testimonials?|reviews?)\b/, pricing: /\b(pricing|prices|price list|rates)\b/,
    faq: /\b(faq|questions)\b/, contact: /\b(contact|form)\b/,
  };
  for (const s of SECTIONS) if (words[s].test(lower)) found.push(s);
  return found;
}

/** A first prompt understood as a brief. */
export function understand(prompt: string): Brief {
  const place = findPlace(prompt);
  const kind = findKind(prompt);
  const name = findName(prompt, place) ?? `${place ? place + ' ' : ''}${kindById(kind).label}`;
  const extra = sectionsMentioned(prompt).filter((s) => !DEFAULT_SECTIONS.includes(s));
  const sections = SECTIONS.filter((s) => DEFAULT_SECTIONS.includes(s) || extra.includes(s));
  return {
    name,
    kind,
    place,
    primary: findColor(prompt) ?? null,
    dark: /\bdark\b/i.test(prompt),
    headline: null,
    tagline: null,
    sections,
  };
}

export function parseBrief(text: string): Brief | undefined {
  try {
    const b = JSON.parse(text) as Partial<Brief>;
    if (typeof b.name !== 'string' || typeof b.kind !== 'string' || !Array.isArray(b.sections)) return undefined;
    return {
      name: b.name,
      kind: b.kind,
      place: typeof b.place === 'string' ? b.place : null,
      primary: typeof b.primary === 'string' && parseHex(b.primary) ? b.primary : null,
      dark: b.dark === true,
      headline: typeof b.headline === 'string' ? b.headline : null,
      tagline: typeof b.tagline === 'string' ? b.tagline : null,
      sections: SECTIONS.filter((s) => b.sections!.includes(s)),
    };
  } catch {
    return undefined;
  }
}
