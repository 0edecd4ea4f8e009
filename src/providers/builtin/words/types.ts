// The words a builtin site is written in, per language. `en.ts` is the source; each other
// language's file (de, fr, es, it, nl, pt) gives the same keys. Templates: {name} the business,
// {place} its town, {inPlace} the language's "in {place}" (or nothing), {x} a word of the site
// (as the language writes it mid-sentence), {X} the same at the start, {phone}, {example}.
import type { Kind, SectionId } from '../kind-shape.ts';

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The words of a kind (kinds.ts holds the English, and what is not words). */
export type KindText = Pick<
  Kind,
  | 'label'
  | 'headline'
  | 'tagline'
  | 'offerTitle'
  | 'offers'
  | 'about'
  | 'menu'
  | 'products'
  | 'tiers'
  | 'team'
  | 'classes'
  | 'faq'
> & {
  /** The main call to action's label. */
  cta: string;
};

/** A kind of business's own copy in a language. */
export interface KindCopy extends KindText {
  /** Words of this language (lower case) that name such a business: "bäckerei", "boulangerie". */
  words: string[];
}

export interface Words {
  /** " in {place}": after the name or the kind ("Bakery in York"). */
  inPlace: string;
  home: string;
  skip: string;
  mainNav: string;
  backToTop: string;
  notFound: string;
  notFoundText: string;
  backTo: string;
  /** What each section is called (navigation, headings); the kind may name some itself. */
  titles: {
    features: string;
    menu: string;
    drinks: string;
    shop: string;
    rooms: string;
    properties: string;
    portfolio: string;
    gallery: string;
    timetable: string;
    pricing: string;
    prices: string;
    team: string;
    about: string;
    area: string;
    emergency: string;
    tourDates: string;
    events: string;
    hours: string;
    book: string;
    getStarted: string;
    signUp: string;
    donate: string;
    faq: string;
    reviews: string;
    contact: string;
  };
  /** Lines for the business's own offers that claim nothing: {X}/{x} is the offer. */
  describe: [string, string, string, string];
  menuIntro: string;
  menuMore: string;
  menuGroupTodo: string;
  menuDefault: string;
  productsDefault: string;
  productsTodo: string;
  galleryTodo: string;
  photo: string;
  classesDefault: string;
  timetableHead: [string, string, string];
  addDayAndTime: string;
  addName: string;
  tiersDefault: [string, string];
  addPrice: string;
  addIncluded: string;
  teamRole: string;
  aboutTitle: string;
  aboutStory: string;
  areaText: string;
  areaTodo: string;
  emergencyText: string;
  callPhone: string;
  emergencyTodo: string;
  forExample: string;
  eventsTodo: string;
  hoursTodo: string;
  bookingText: string;
  labelName: string;
  labelEmail: string;
  labelPhoneOptional: string;
  labelDate: string;
  labelAnything: string;
  labelMessage: string;
  signupTextProduct: string;
  signupText: string;
  donateText: string;
  donateTodo: string;
  volunteer: string;
  faqDefault: [string, string];
  addAnswer: string;
  reviewTodo: string;
  reviewWho: string;
  phoneTodo: string;
  emailTodo: string;
  addressTodo: string;
  addressInTodo: string;
  contactTitle: string;
  contactText: string;
  send: string;
  honeypot: string;
  /** Words (lower case) by which a prompt in this language names each section or page. */
  sectionWords: Record<SectionId, string[]>;
  /** Colour words (lower case, as a prompt writes them) and the English colour each means (colors.ts). */
  colorWords: Record<string, string>;
}
