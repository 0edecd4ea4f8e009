// The parts of a site a prompt asks for, in any of the seven languages: sections it mentions
// ("add a gallery", "Leistungen") and pages of their own ("an about page", "Teamseite", "une page tarifs").
import { escapeRegex, SECTION_IDS, type SectionId } from './kinds.ts';
import { ALL_WORDS } from './words/index.ts';

/** What each section is called in a prompt ("an about page", "add a gallery"). */
export const SECTION_WORDS: Record<SectionId, RegExp> = {
  services: /\bservices?\b|\bwhat we do\b|\btreatments\b/,
  features: /\bfeatures?\b/,
  menu: /\bmenus?\b|\bdrinks list\b|\bwine list\b/,
  products: /\bproducts?\b|\bshop page\b|\bcatalog(?:ue)?\b|\brooms\b|\blistings\b/,
  gallery: /\bgallery\b|\bportfolio\b|\bphotos\b|\bour work\b/,
  timetable: /\btimetable\b|\bschedule\b|\bclass times\b|\bclasses\b/,
  pricing: /\bpricing\b|\bprices\b|\bprice list\b|\brates\b|\bfees\b|\bplans\b|\btiers\b|\bpackages\b/,
  team: /\bteam\b|\bstaff\b|\bteachers\b|\bcoaches\b|\bour people\b/,
  about: /\babout\b|\bour story\b/,
  area: /\bservice area\b|\bareas? (?:we )?cover(?:ed)?\b/,
  emergency: /\bemergency\b|\bcall[- ]outs?\b/,
  events: /\bevents?\b|\bgigs?\b|\btour dates\b|\bwhat'?s on\b/,
  hours: /\bopening hours\b|\bopening times\b|\bhours\b/,
  booking: /\bbooking\b|\bbook(?:ings)? form\b|\breservations?\b|\bappointments?\b/,
  signup: /\bsign[- ]?up\b|\bnewsletter\b|\bwaiting list\b|\bwaitlist\b|\bfree trial\b/,
  donate: /\bdonat(?:e|ions?)\b/,
  faq: /\bfaqs?\b|\bquestions\b/,
  reviews: /\breviews?\b|\btestimonials?\b/,
  contact: /\bcontact\b|\bget in touch\b|\benquir(?:y|ies)\b|\bform\b/,
};

/** How a prompt in any of the other languages names each section ("Leistungen", "tarifs"). */
const OTHER_SECTION_WORDS = Object.fromEntries(
  SECTION_IDS.map((s) => {
    const words = [...new Set(ALL_WORDS.slice(1).flatMap((w) => w.sectionWords[s]))].sort(
      (a, b) => b.length - a.length,
    );
    return [s, new RegExp(`(?<![\\p{L}])(?:${words.map(escapeRegex).join('|')})(?![\\p{L}])`, 'u')];
  }),
) as Record<SectionId, RegExp>;

/** Sections a prompt mentions, in the site's order. */
export function sectionsMentioned(text: string): SectionId[] {
  const lower = text.toLowerCase();
  return SECTION_IDS.filter((s) => SECTION_WORDS[s].test(lower) || OTHER_SECTION_WORDS[s].test(lower));
}

/** "page" in the seven languages, singular and plural. */
const PAGE = "(?:pages?|seiten?|unterseiten?|páginas?|pagine|pagina(?:'s)?|paginas)";
/** Words between "page" and what it is for: "page for", "Seite für die", "página de", "pagina over ons". */
const PAGE_LINK =
  '(?:\\s+(?:for|about|on|with|of|our|the|für|über|mit|die|der|das|den|unsere[nr]?|de|du|des|la|le|les|sur|avec|pour|nos|notre|del|los|las|el|con|sobre|para|nuestr[oa]s?|di|della|delle|per|sui|sulla|over|met|voor|ons|onze|com|sobre|a|o|os|as|da|do|nossa|nosso))*';
/** A clause of what a page is for ends at a sentence, a bracket or a colon (prices follow one). */
const CLAUSE = '([^.;:!?()\\n]{1,90})';
/** A page word and what follows it ("page for events", "página de carta"); not "landing page", "home page". */
const PAGE_FOR = new RegExp(
  `(?<!\\p{L})(?<!(?:landing|home|one|single|web|start)[- ]?)${PAGE}${PAGE_LINK}\\s*:?\\s+(?=${CLAUSE})`,
  'gu',
);
/** Separate page, in the seven languages: "(página aparte)", "numa página própria", "own page". */
const OWN_PAGE = new RegExp(
  `(?:(?:separate|own|eigenen?|aparte|propia|própria|propria|séparée|apart(?:e)?|eigen)\\s+${PAGE}|${PAGE}\\s+(?:aparte|propia|própria|propria|à part|séparée|separata|a parte|apart|eigene))`,
  'gu',
);

/**
 * Pages a prompt asks for, in any of the languages: "an about page", "pages: about, gallery",
 * "separate pages for Services, Prices and Contact", "Teamseite und FAQ-Seite", "une page équipe",
 * "páginas de servicios, equipo y contacto", "una pagina galleria", "een contactpagina", "a ementa
 * numa página própria".
 */
export function pagesMentioned(text: string): SectionId[] {
  const asked = new Set<SectionId>();
  for (const sentence of text.toLowerCase().split(/[.!?\n]/)) {
    const here = new Set<SectionId>();
    const add = (words: string) => sectionsMentioned(words).forEach((s) => here.add(s));
    // "an about page", "the menu and gallery pages".
    for (const m of sentence.matchAll(/\b((?:[\w'-]+\s+){0,2}[\w'-]+)\s+pages?\b/g)) add(m[1]!);
    // "Teamseite", "FAQ-Seite", "Preisseite", "contactpagina", "boekingspagina" (a linking s, a plural e).
    for (const m of sentence.matchAll(/(\p{L}{3,})-?(?:seite|pagina)(?!\p{L})/gu))
      add(`${m[1]} ${m[1]!.replace(/s$/, '')} ${m[1]}e`);
    // "page équipe", "pagina galleria", "página de carta y otra de reservas", "pages for X, Y and Z":
    // what follows a page word, to the end of its clause (read ahead, so that "a menu page and a
    // page for events" reads both). Not the site itself ("a landing page for
    // Metricly"), nor a list that goes on ("a menu page and a booking form").
    for (const m of sentence.matchAll(PAGE_FOR)) {
      if (!/^(?:and|or|und|oder|et|ou|y|o|e|en|of|that|which|where)\b/.test(m[1]!)) add(m[1]!);
    }
    // "galería (página aparte)", "a ementa numa página própria": the words just before.
    for (const m of sentence.matchAll(OWN_PAGE)) {
      const before = sentence
        .slice(Math.max(0, m.index - 40), m.index)
        .split(/[,;:]|\s(?:and|und|et|y|e|en)\s/)
        .pop()!;
      add(before.split(/\s+/).slice(-3).join(' '));
    }
    // A list that asks for pages makes a page of each short item in it: "een tarievenpagina en een FAQ".
    if (here.size > 0) {
      for (const item of sentence.split(/,|\s(?:and|und|et|y|e|en|or|oder|ou|o)\s/)) {
        // "con una galería de fotos": the item after its preposition and article.
        const bare =
          /^\s*(?:(?:with|mit|avec|con|com|met|and)\s+)?(?:a|an|the|een|het|de|eine?n?|une?|la|le|les|una?|el|il|uma?|o)?\s*([\p{L}-]+(?:\s[\p{L}-]+){0,2})\s*$/u.exec(
            item,
          );
        if (
          bare &&
          !/form|formul|section|sektion|abschnitt|sezione|sección|secção|sectie|^(?:for|für)\s/.test(bare[1]!)
        )
          add(bare[1]!);
      }
    }
    here.forEach((s) => asked.add(s));
  }
  return SECTION_IDS.filter((s) => asked.has(s));
}
