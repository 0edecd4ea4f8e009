// The shape of the builtin generator's understanding of a site (brief.ts reads it from a prompt),
// apart from the readers so that each of them can name it.
import type { FontId } from './fonts.ts';
import type { SectionId } from './kind-shape.ts';
import type { Language } from './words/types.ts';

export type Density = 'compact' | 'comfortable' | 'spacious';

export interface Brief {
  /** 1: made by the first builtin generator, whose pages this one cannot reproduce. */
  version: 1 | 2;
  /** The language every word of the site is written in. */
  language: Language;
  name: string;
  kind: string;
  place: string | null;
  /** ISO 3166 code of the place's country; null: unknown, and then no currency is shown. */
  country: string | null;
  /** Brand colour as #rrggbb; null: the kind's own. */
  primary: string | null;
  /** A second colour as #rrggbb ("navy and gold": gold), for decoration only; null: the kind's own. */
  accent: string | null;
  /**
   * The page's tone as #rrggbb ("cream and gold": cream; "black background"); null: white, or the
   * dark theme's own. A light tone on a dark theme tints its text instead (render.ts palette).
   */
  background: string | null;
  dark: boolean;
  /** null: the kind's own. */
  font: FontId | null;
  density: Density;
  headline: string | null;
  tagline: string | null;
  /** The sections of the site, in order, after the hero. */
  sections: SectionId[];
  /** Sections that have a page of their own (`about.html` …) instead of a place on the home page. */
  pages: SectionId[];
  /** What the business offers, in the prompt's own words; null: the kind's. */
  offers: string[] | null;
  contact: { phone: string | null; email: string | null; address: string | null };
  /** Opening hours as the prompt gave them, one line each. */
  hours: string[];
  /** Prices the prompt gave. */
  prices: { item: string; price: string }[];
  /** Texts changed after generation (in the builder or by a prompt), by the key of their element. */
  texts: Record<string, string>;
  /**
   * Texts changed after generation in elements without a key (a navigation link, a button, a
   * label): every element of that tag and class that renders `from` says `to` instead, in order.
   */
  replaced: ReplacedText[];
  /** The project's own images the site shows (gallery, products, hero), as they were when it was rendered. */
  images: string[];
  /** Images the person placed (a prompt on a selected picture), by slot: 'hero', 'about', 'gallery.2', 'products.0'. */
  pictures: Record<string, string>;
}

export interface ReplacedText {
  tag: string;
  /** Its class attribute ('' for none), without a placeholder's `todo`. */
  className: string;
  from: string;
  to: string;
}
