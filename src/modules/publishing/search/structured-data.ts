// The home page's JSON-LD: the business (LocalBusiness, or the schema.org type of the kind of
// site the generator made) when the owner gave any of its facts, else the WebSite. Only what the
// owner gave is written: a fact not given is absent, never guessed.
import type { LocalBusiness, Organization, WebSite, WithContext } from 'schema-dts';

type BusinessType = Exclude<LocalBusiness, string>['@type'] | Exclude<Organization, string>['@type'];
import type { Facts } from '../../site-settings/schema.ts';

/**
 * The schema.org type of kinds of site the builtin generator makes (providers/builtin/kinds.ts);
 * any other is a LocalBusiness. Only types every schema.org vocabulary in use has (clinics and
 * vets stay LocalBusiness: MedicalClinic and VeterinaryCare are newer than some checkers).
 */
const KIND_TYPES: Record<string, BusinessType> = {
  bakery: 'Bakery',
  restaurant: 'Restaurant',
  cafe: 'CafeOrCoffeeShop',
  bar: 'BarOrPub',
  photographer: 'ProfessionalService',
  dentist: 'Dentist',
  salon: 'BeautySalon',
  gym: 'ExerciseGym',
  studio: 'SportsActivityLocation',
  trades: 'HomeAndConstructionBusiness',
  cleaning: 'ProfessionalService',
  garage: 'AutoRepair',
  agency: 'ProfessionalService',
  consultant: 'ProfessionalService',
  law: 'LegalService',
  accounting: 'AccountingService',
  realestate: 'RealEstateAgent',
  hotel: 'Hotel',
  florist: 'Florist',
  bookshop: 'BookStore',
  shop: 'Store',
  nonprofit: 'NGO',
};
/** Types that are organizations but not places of business: no opening hours. */
const NOT_PLACES = new Set(['NGO']);

const DAY = '(?:Mo|Tu|We|Th|Fr|Sa|Su)';
const DAYS = `${DAY}(?:-${DAY})?`;
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d';
/** One rule in schema.org's own form: `Mo-Fr 09:00-17:00`, `Sa,Su 10:00-14:00`. */
const SCHEMA_HOURS = new RegExp(`^${DAYS}(?:,${DAYS})* ${TIME}-(?:${TIME}|24:00)$`);

export interface SiteIdentity {
  name: string;
  url: string;
  description: string | null;
  language: string | null;
  image: string | null;
  /** The generator's kind of site (`bakery`), when it made the site. */
  kind: string | null;
  facts: Facts;
}

export function structuredData(site: SiteIdentity): WithContext<LocalBusiness | Organization | WebSite> {
  const { facts } = site;
  const given = Object.values(facts).some((value) => value !== null);
  const common = {
    name: site.name,
    url: site.url,
    ...(site.description ? { description: site.description } : {}),
  };
  if (!given) {
    const website: WithContext<WebSite> = {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      ...common,
      ...(site.language ? { inLanguage: site.language } : {}),
    };
    return website;
  }
  const type = (site.kind && KIND_TYPES[site.kind]) || 'LocalBusiness';
  const hours = (facts.opening_hours ?? '')
    .split(/\r?\n|;/)
    .map((line) => line.trim())
    .filter((line) => SCHEMA_HOURS.test(line));
  const business = {
    '@context': 'https://schema.org',
    '@type': type,
    ...common,
    ...(site.image ? { image: site.image } : {}),
    ...(facts.address ? { address: facts.address } : {}),
    ...(facts.phone ? { telephone: facts.phone } : {}),
    ...(facts.email ? { email: facts.email } : {}),
    ...(hours.length > 0 && !NOT_PLACES.has(type) ? { openingHours: hours } : {}),
  } as WithContext<LocalBusiness>;
  return business;
}
