// The shape of a kind of business the builtin generator knows (kinds.ts lists them), apart from
// the list so that the words of each language can name it.
import type { FontId } from './fonts.ts';
import type { MotifId } from './art.ts';

export const SECTION_IDS = [
  'services',
  'features',
  'menu',
  'products',
  'gallery',
  'timetable',
  'pricing',
  'team',
  'about',
  'area',
  'emergency',
  'events',
  'hours',
  'booking',
  'signup',
  'donate',
  'faq',
  'reviews',
  'contact',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export interface Kind {
  id: string;
  label: string;
  /** Words that name the business itself ("photographer"): they decide the kind. */
  words: string[];
  /** Words that only hint at it ("wedding", "bread"): they count when nothing names the business. */
  hints?: string[];
  primary: string;
  accent: string;
  font: FontId;
  motif: MotifId;
  headline: string;
  tagline: string;
  /** The main call to action and the section it leads to. */
  cta: [string, SectionId];
  sections: SectionId[];
  /** What the business offers: the heading of that section and its cards. */
  offerTitle: string;
  offers: [string, string][];
  about: string;
  /** Menu groups, product ranges, pricing tiers, team title, timetable classes: where the kind has them. */
  menu?: string[];
  products?: string[];
  tiers?: string[];
  team?: string;
  classes?: string[];
  faq?: string[];
}
