// The copy of a site whose kind of business the prompt does not say (kinds.ts GENERIC), per language.
import type { KindText } from './types.ts';

type Other = 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt';

/** "Our business": the name of a site whose prompt gives none (and no project name either). */
export const OUR_BUSINESS: Record<Other, string> = {
  de: 'Unser Unternehmen',
  fr: 'Notre entreprise',
  es: 'Nuestra empresa',
  it: 'La nostra attività',
  nl: 'Ons bedrijf',
  pt: 'A nossa empresa',
};

export const BUSINESS: Record<Other, KindText> = {
  de: {
    label: 'Unternehmen',
    headline: 'Für Sie da',
    tagline: '{name}{inPlace}: freundlich, professionell und gut erreichbar.',
    cta: 'Kontakt aufnehmen',
    offerTitle: 'Was wir tun',
    offers: [
      ['Beratung', 'Wir hören erst zu und schlagen dann vor, was passt.'],
      ['Service', 'Sorgfältige Arbeit, pünktlich erledigt.'],
      ['Betreuung', 'Auch nach dem Auftrag für Sie da.'],
    ],
    about: '{name} ist ein Unternehmen{inPlace}.',
  },
  fr: {
    label: 'Entreprise',
    headline: 'À votre service',
    tagline: '{name}{inPlace} : à l’écoute, professionnels et faciles à joindre.',
    cta: 'Nous contacter',
    offerTitle: 'Ce que nous faisons',
    offers: [
      ['Conseil', 'Nous écoutons d’abord, puis proposons ce qui vous convient.'],
      ['Service', 'Un travail soigné, fait dans les temps.'],
      ['Suivi', 'Toujours là une fois le travail terminé.'],
    ],
    about: '{name} est une entreprise{inPlace}.',
  },
  es: {
    label: 'Empresa',
    headline: 'Aquí para ayudarte',
    tagline: '{name}{inPlace}: cercanos, profesionales y fáciles de contactar.',
    cta: 'Contáctanos',
    offerTitle: 'Lo que hacemos',
    offers: [
      ['Asesoramiento', 'Primero escuchamos y después te proponemos lo que encaja.'],
      ['Servicio', 'Trabajo cuidadoso y a tiempo.'],
      ['Apoyo', 'Seguimos aquí cuando el trabajo está hecho.'],
    ],
    about: '{name} es una empresa{inPlace}.',
  },
  it: {
    label: 'Attività',
    headline: 'Qui per aiutarti',
    tagline: '{name}{inPlace}: cordiali, professionali e facili da raggiungere.',
    cta: 'Contattaci',
    offerTitle: 'Cosa facciamo',
    offers: [
      ['Consulenza', 'Prima ascoltiamo, poi ti proponiamo ciò che fa per te.'],
      ['Servizio', 'Lavoro accurato e nei tempi.'],
      ['Assistenza', 'Ci siamo anche a lavoro finito.'],
    ],
    about: '{name} è un’attività{inPlace}.',
  },
  nl: {
    label: 'Bedrijf',
    headline: 'Wij helpen je graag',
    tagline: '{name}{inPlace}: vriendelijk, professioneel en goed bereikbaar.',
    cta: 'Neem contact op',
    offerTitle: 'Wat we doen',
    offers: [
      ['Advies', 'We luisteren eerst en stellen dan voor wat past.'],
      ['Service', 'Zorgvuldig werk, op tijd klaar.'],
      ['Ondersteuning', 'Ook na de klus staan we voor je klaar.'],
    ],
    about: '{name} is een bedrijf{inPlace}.',
  },
  pt: {
    label: 'Empresa',
    headline: 'Aqui para ajudar',
    tagline: '{name}{inPlace}: próximos, profissionais e fáceis de contactar.',
    cta: 'Fale connosco',
    offerTitle: 'O que fazemos',
    offers: [
      ['Aconselhamento', 'Primeiro ouvimos, depois propomos o que faz sentido.'],
      ['Serviço', 'Trabalho cuidado e dentro do prazo.'],
      ['Apoio', 'Continuamos aqui depois do trabalho feito.'],
    ],
    about: '{name} é uma empresa{inPlace}.',
  },
};
