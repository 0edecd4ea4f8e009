// What the builtin generator knows about kinds of business: the words that name them, the sections
// a site of that kind needs (a restaurant's menu and opening hours, a photographer's gallery, a
// software product's features and pricing tiers …), its palette, font, illustration and copy.
// The copy states no facts (no years, ratings, prices, reviews or addresses): those come from the
// prompt, or the site shows a placeholder asking for them. {name} and {inPlace} are filled in.
import type { FontId } from './fonts.ts';
import type { MotifId } from './art.ts';
import { kindWordsOf } from './words/index.ts';

export const SECTION_IDS = ['services', 'features', 'menu', 'products', 'gallery', 'timetable', 'pricing', 'team', 'about', 'area', 'emergency', 'events', 'hours', 'booking', 'signup', 'donate', 'faq', 'reviews', 'contact'] as const;
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

const kind = (k: Kind): Kind => k;

export const KINDS: Kind[] = [
  kind({
    id: 'bakery', label: 'Bakery', words: ['bakery', 'baker', 'bakers', 'patisserie', 'boulangerie', 'cake shop', 'cake maker'], hints: ['bread', 'sourdough', 'pastry', 'pastries', 'cakes', 'croissant'],
    primary: '#9a3412', accent: '#f59e0b', font: 'rounded', motif: 'bread',
    headline: 'Baked fresh, by hand', tagline: 'Bread, pastries and cakes from {name}{inPlace}.', cta: ['See what we bake', 'menu'],
    sections: ['services', 'menu', 'about', 'hours', 'contact'],
    offerTitle: 'What we bake', offers: [['Bread', 'Loaves and rolls with a proper crust, baked on the premises.'], ['Pastries', 'Buttery, flaky and best eaten the same morning.'], ['Cakes to order', 'Birthday and celebration cakes made for you.']],
    about: '{name} is an independent bakery{inPlace}. Good flour, real butter and patience: that is the whole recipe.',
    menu: ['Bread', 'Pastries', 'Cakes'],
    faq: ['Do you take cake orders?', 'Do you have gluten-free options?'],
  }),
  kind({
    id: 'restaurant', label: 'Restaurant', words: ['restaurant', 'bistro', 'trattoria', 'brasserie', 'diner', 'pizzeria', 'eatery', 'steakhouse', 'osteria', 'taverna', 'sushi bar', 'ramen'], hints: ['sushi', 'pizza', 'tapas', 'dining', 'cuisine', 'italian food'],
    primary: '#7f1d1d', accent: '#d97706', font: 'serif', motif: 'plate',
    headline: 'Good food, warm welcome', tagline: 'Seasonal cooking and a table waiting for you{inPlace}.', cta: ['Book a table', 'booking'],
    sections: ['menu', 'about', 'hours', 'booking', 'contact'],
    offerTitle: 'What we serve', offers: [['Lunch', 'A short, seasonal menu for the middle of the day.'], ['Dinner', 'Our full menu, from starters to desserts.'], ['Private dining', 'Celebrations and group dinners, planned with you.']],
    about: '{name} cooks what is in season and serves it generously{inPlace}.',
    menu: ['Starters', 'Mains', 'Desserts'],
    faq: ['Do you cater for allergies?', 'Can we book for a large group?'],
  }),
  kind({
    id: 'cafe', label: 'Café', words: ['cafe', 'café', 'coffee shop', 'coffee house', 'tea room', 'tearoom', 'roastery', 'coffee bar'], hints: ['coffee', 'espresso', 'brunch'],
    primary: '#78350f', accent: '#10b981', font: 'rounded', motif: 'cup',
    headline: 'Good coffee, slow mornings', tagline: 'Coffee, breakfast and cake at {name}{inPlace}.', cta: ['See the menu', 'menu'],
    sections: ['menu', 'about', 'hours', 'contact'],
    offerTitle: 'What we serve', offers: [['Coffee', 'Espresso, filter and everything in between, made with care.'], ['Breakfast & brunch', 'Simple plates done well, all morning.'], ['Cakes', 'Something sweet to go with your cup.']],
    about: '{name} is a café{inPlace} for people who like their coffee good and their mornings unhurried.',
    menu: ['Coffee & tea', 'Breakfast', 'Cakes'],
  }),
  kind({
    id: 'bar', label: 'Bar', words: ['bar', 'pub', 'wine bar', 'cocktail bar', 'taproom', 'brewery', 'brewpub', 'gastropub'], hints: ['cocktails', 'craft beer', 'beer'],
    primary: '#4c1d95', accent: '#f59e0b', font: 'sans', motif: 'glass',
    headline: 'Pull up a stool', tagline: 'Drinks, good company and a warm welcome at {name}{inPlace}.', cta: ['See the drinks', 'menu'],
    sections: ['menu', 'events', 'about', 'hours', 'contact'],
    offerTitle: 'What we pour', offers: [['Drinks', 'A changing list, chosen by people who care.'], ['Food', 'Good things to eat alongside.'], ['Events', 'Quiz nights, music and the odd celebration.']],
    about: '{name} is a neighbourhood bar{inPlace}.',
    menu: ['On tap', 'Wine', 'Cocktails', 'Snacks'],
  }),
  kind({
    id: 'photographer', label: 'Photography', words: ['photographer', 'photography', 'photo studio', 'videographer'], hints: ['photos', 'portraits'],
    primary: '#1f2937', accent: '#e11d48', font: 'serif', motif: 'camera',
    headline: 'Moments, beautifully kept', tagline: 'Photography by {name}{inPlace}.', cta: ['Check availability', 'booking'],
    sections: ['gallery', 'services', 'about', 'booking', 'contact'],
    offerTitle: 'What I photograph', offers: [['Weddings', 'The whole day, told quietly and honestly.'], ['Portraits', 'Relaxed sessions, at home, outdoors or in the studio.'], ['Events', 'Parties, launches and gatherings, documented.']],
    about: '{name} is a photographer{inPlace} with an eye for natural light and unposed moments.',
    faq: ['How far do you travel?', 'When will we see the photos?'],
  }),
  kind({
    id: 'artist', label: 'Art', words: ['artist', 'painter', 'illustrator', 'sculptor', 'ceramicist', 'potter', 'art studio', 'art gallery', 'printmaker'], hints: ['paintings', 'artwork', 'ceramics', 'art', 'gallery'],
    primary: '#be185d', accent: '#0ea5e9', font: 'serif', motif: 'palette',
    headline: 'Original work, made by hand', tagline: 'The work of {name}{inPlace}.', cta: ['See the work', 'gallery'],
    sections: ['gallery', 'about', 'events', 'contact'],
    offerTitle: 'Work', offers: [['Originals', 'One-off pieces, each made by hand.'], ['Commissions', 'A piece made for you, talked through together.'], ['Prints', 'Editions of selected work.']],
    about: '{name} is an artist{inPlace}.',
  }),
  kind({
    id: 'dentist', label: 'Dental practice', words: ['dentist', 'dental', 'dental clinic', 'dental practice', 'dental surgery', 'orthodontist', 'orthodontics'], hints: ['teeth', 'smile'],
    primary: '#0f766e', accent: '#38bdf8', font: 'sans', motif: 'tooth',
    headline: 'Gentle dental care for the whole family', tagline: 'Check-ups, hygiene and treatment at {name}{inPlace}.', cta: ['Book an appointment', 'booking'],
    sections: ['services', 'team', 'about', 'hours', 'booking', 'contact'],
    offerTitle: 'Treatments', offers: [['Check-ups & hygiene', 'Regular care that keeps problems small.'], ['Cosmetic dentistry', 'Whitening and straightening, talked through first.'], ['Urgent care', 'When it hurts, call us and we will find a time.']],
    about: '{name} is a dental practice{inPlace} where nervous patients are welcome and every treatment is explained first.',
    team: 'Our dentists', faq: ['Are you taking new patients?', 'What if I am nervous?'],
  }),
  kind({
    id: 'clinic', label: 'Clinic', words: ['clinic', 'doctor', 'gp', 'medical practice', 'physiotherapist', 'physiotherapy', 'physio', 'chiropractor', 'osteopath', 'optician', 'pharmacy', 'health centre', 'health center'], hints: ['health', 'medical'],
    primary: '#0e7490', accent: '#22c55e', font: 'sans', motif: 'cross',
    headline: 'Care that puts you first', tagline: 'Appointments, advice and treatment at {name}{inPlace}.', cta: ['Book an appointment', 'booking'],
    sections: ['services', 'team', 'about', 'hours', 'booking', 'contact'],
    offerTitle: 'Services', offers: [['Consultations', 'Time to listen, examine and explain.'], ['Treatment', 'A plan made with you, reviewed as you go.'], ['Follow-up', 'We stay with you until you are better.']],
    about: '{name} is a clinic{inPlace}.',
    team: 'Our team', faq: ['Do I need a referral?', 'How do I book?'],
  }),
  kind({
    id: 'therapist', label: 'Therapy', words: ['therapist', 'therapy', 'counsellor', 'counselor', 'counselling', 'counseling', 'psychotherapist', 'psychologist', 'massage therapist', 'massage'], hints: ['wellbeing', 'mental health'],
    primary: '#4d7c0f', accent: '#a78bfa', font: 'serif', motif: 'leaf',
    headline: 'A calm space to talk', tagline: 'Confidential support from {name}{inPlace}.', cta: ['Book a first session', 'booking'],
    sections: ['services', 'about', 'booking', 'faq', 'contact'],
    offerTitle: 'How I can help', offers: [['One-to-one sessions', 'A confidential hour, at your pace.'], ['Couples', 'Space for both of you to be heard.'], ['Online sessions', 'The same care, from wherever you are.']],
    about: '{name} offers therapy{inPlace}.',
    faq: ['What happens in a first session?', 'Is it confidential?'],
  }),
  kind({
    id: 'vet', label: 'Veterinary practice', words: ['vet', 'vets', 'veterinary', 'veterinarian', 'animal hospital'], hints: [],
    primary: '#0369a1', accent: '#f97316', font: 'rounded', motif: 'paw',
    headline: 'Caring for the animals you love', tagline: 'Veterinary care at {name}{inPlace}.', cta: ['Book an appointment', 'booking'],
    sections: ['services', 'team', 'hours', 'emergency', 'booking', 'contact'],
    offerTitle: 'Care', offers: [['Check-ups & vaccinations', 'Routine care for cats, dogs and small pets.'], ['Surgery', 'Planned procedures, explained before and after.'], ['Urgent care', 'Call us first when something is wrong.']],
    about: '{name} is a veterinary practice{inPlace}.',
    team: 'Our vets',
  }),
  kind({
    id: 'pets', label: 'Pet care', words: ['dog grooming', 'dog groomer', 'groomer', 'grooming', 'dog walker', 'dog walking', 'pet sitter', 'pet sitting', 'kennels', 'cattery', 'doggy daycare'], hints: ['dogs', 'puppies', 'pets'],
    primary: '#7c2d12', accent: '#14b8a6', font: 'rounded', motif: 'paw',
    headline: 'Happy pets, happy owners', tagline: 'Pet care by {name}{inPlace}.', cta: ['Book a visit', 'booking'],
    sections: ['services', 'pricing', 'about', 'hours', 'booking', 'contact'],
    offerTitle: 'Services', offers: [['Full groom', 'Bath, dry, cut and nails, at your pet’s pace.'], ['Tidy-up', 'A quick freshen-up between full grooms.'], ['Puppy introduction', 'A gentle first visit to build confidence.']],
    about: '{name} looks after pets{inPlace}, calmly and kindly.',
    tiers: ['Small dogs', 'Medium dogs', 'Large dogs'],
  }),
  kind({
    id: 'salon', label: 'Salon', words: ['salon', 'hairdresser', 'hair salon', 'barber', 'barbershop', 'beauty salon', 'nail salon', 'nails', 'beautician', 'spa', 'lash', 'brow bar'], hints: ['haircut', 'hair', 'beauty'],
    primary: '#9d174d', accent: '#f59e0b', font: 'serif', motif: 'scissors',
    headline: 'Look good, feel better', tagline: 'Hair and beauty at {name}{inPlace}.', cta: ['Book an appointment', 'booking'],
    sections: ['services', 'pricing', 'team', 'hours', 'booking', 'contact'],
    offerTitle: 'Services', offers: [['Cut & style', 'A cut that suits you and is easy to live with.'], ['Colour', 'From a subtle gloss to a whole new look.'], ['Treatments', 'Care for hair, skin and nails.']],
    about: '{name} is a salon{inPlace}.',
    tiers: ['Cuts', 'Colour', 'Treatments'], team: 'Our stylists',
  }),
  kind({
    id: 'gym', label: 'Gym', words: ['gym', 'fitness', 'personal trainer', 'crossfit', 'boxing', 'bootcamp', 'martial arts', 'karate', 'jiu-jitsu', 'climbing wall'], hints: ['workout', 'training', 'strength'],
    primary: '#b91c1c', accent: '#facc15', font: 'sans', motif: 'dumbbell',
    headline: 'Get stronger, every week', tagline: 'Training and classes at {name}{inPlace}.', cta: ['Start training', 'signup'],
    sections: ['services', 'timetable', 'pricing', 'team', 'hours', 'signup', 'contact'],
    offerTitle: 'Training', offers: [['Open gym', 'Space and kit to train your way.'], ['Classes', 'Coached group sessions for every level.'], ['Personal training', 'One-to-one coaching towards your goal.']],
    about: '{name} is a gym{inPlace}.',
    tiers: ['Pay as you go', 'Monthly', 'Personal training'], team: 'Our coaches', classes: ['Strength', 'Conditioning', 'Mobility'],
  }),
  kind({
    id: 'studio', label: 'Studio', words: ['yoga', 'pilates', 'yoga studio', 'dance studio', 'dance school', 'meditation', 'barre', 'tai chi'], hints: ['mindfulness', 'stretch'],
    primary: '#6d28d9', accent: '#14b8a6', font: 'rounded', motif: 'lotus',
    headline: 'Move, breathe, slow down', tagline: 'Classes for every body at {name}{inPlace}.', cta: ['See the timetable', 'timetable'],
    sections: ['services', 'timetable', 'pricing', 'team', 'signup', 'contact'],
    offerTitle: 'Classes', offers: [['Beginners', 'A gentle start: the basics, at your pace.'], ['All levels', 'Flowing classes with options for everyone.'], ['Workshops', 'Longer sessions to go deeper.']],
    about: '{name} is a studio{inPlace}.',
    tiers: ['Drop-in class', 'Class pass', 'Monthly membership'], team: 'Our teachers', classes: ['Beginners', 'All levels', 'Slow flow'],
  }),
  kind({
    id: 'trades', label: 'Trade services', words: ['plumber', 'plumbing', 'electrician', 'electrical contractor', 'builder', 'builders', 'roofer', 'roofing', 'carpenter', 'joiner', 'decorator', 'handyman', 'locksmith', 'heating engineer', 'gas engineer', 'boiler', 'tiler', 'plasterer', 'glazier', 'hvac', 'contractor'], hints: ['repairs', 'renovation'],
    primary: '#1d4ed8', accent: '#f97316', font: 'sans', motif: 'wrench',
    headline: 'Work done properly, first time', tagline: 'Reliable, tidy work from {name}{inPlace}.', cta: ['Get a quote', 'contact'],
    sections: ['services', 'emergency', 'area', 'about', 'contact'],
    offerTitle: 'What we do', offers: [['Repairs', 'Fixed properly, with the cause explained.'], ['Installations', 'New work, planned with you and finished tidily.'], ['Maintenance', 'Regular checks that prevent bigger problems.']],
    about: '{name} is a local trade business{inPlace}. We turn up when we say, explain the work and leave the place clean.',
    faq: ['Do you give free quotes?', 'Do you take emergency call-outs?'],
  }),
  kind({
    id: 'cleaning', label: 'Cleaning', words: ['cleaner', 'cleaners', 'cleaning', 'window cleaner', 'carpet cleaning', 'housekeeping'], hints: [],
    primary: '#0369a1', accent: '#22d3ee', font: 'rounded', motif: 'sparkle',
    headline: 'Come home to clean', tagline: 'Cleaning by {name}{inPlace}.', cta: ['Get a quote', 'contact'],
    sections: ['services', 'area', 'pricing', 'about', 'contact'],
    offerTitle: 'Services', offers: [['Regular cleans', 'Weekly or fortnightly, by the same people.'], ['Deep cleans', 'Top to bottom, for a fresh start.'], ['End of tenancy', 'Ready for the inventory check.']],
    about: '{name} is a cleaning company{inPlace}.',
    tiers: ['Regular clean', 'Deep clean', 'End of tenancy'],
  }),
  kind({
    id: 'garden', label: 'Gardening', words: ['gardener', 'gardening', 'landscaper', 'landscaping', 'garden design', 'tree surgeon', 'lawn care'], hints: ['garden', 'gardens'],
    primary: '#166534', accent: '#eab308', font: 'serif', motif: 'leaf',
    headline: 'Gardens worth spending time in', tagline: 'Garden design and care by {name}{inPlace}.', cta: ['Ask for a visit', 'contact'],
    sections: ['services', 'gallery', 'area', 'about', 'contact'],
    offerTitle: 'What we do', offers: [['Design', 'A plan that suits the space, the light and you.'], ['Landscaping', 'Paths, beds, lawns and planting, built to last.'], ['Maintenance', 'Regular visits through the seasons.']],
    about: '{name} designs and looks after gardens{inPlace}.',
  }),
  kind({
    id: 'garage', label: 'Garage', words: ['garage', 'mechanic', 'car repair', 'auto repair', 'mot', 'body shop', 'tyre', 'tire shop', 'car wash', 'motorbike', 'auto shop'], hints: ['cars', 'car'],
    primary: '#1e3a8a', accent: '#ef4444', font: 'sans', motif: 'car',
    headline: 'Keeping you on the road', tagline: 'Servicing and repairs at {name}{inPlace}.', cta: ['Book your car in', 'booking'],
    sections: ['services', 'pricing', 'hours', 'booking', 'contact'],
    offerTitle: 'Services', offers: [['Servicing', 'Regular servicing to keep your car reliable.'], ['Repairs', 'Diagnosed properly and explained before we start.'], ['Tyres & brakes', 'Checked, replaced and balanced.']],
    about: '{name} is an independent garage{inPlace}.',
    tiers: ['Interim service', 'Full service', 'Repairs'],
  }),
  kind({
    id: 'software', label: 'Software', words: ['saas', 'software', 'startup', 'start-up', 'devtool', 'developer tool', 'analytics tool', 'crm'], hints: ['platform', 'api', 'dashboard', 'analytics', 'product', 'b2b', 'automation', 'ai'],
    primary: '#4338ca', accent: '#06b6d4', font: 'sans', motif: 'chart',
    headline: 'Understand your product in minutes', tagline: '{name} gives your team the answers it needs, without the busywork.', cta: ['Start free', 'signup'],
    sections: ['features', 'pricing', 'faq', 'signup', 'contact'],
    offerTitle: 'Features', offers: [['Set up in minutes', 'Connect your data and see results the same day.'], ['Answers, not charts', 'Ask a question in plain words and get a clear answer.'], ['Built for teams', 'Share, comment and decide together.']],
    about: '{name} is a software company building tools people enjoy using.',
    tiers: ['Starter', 'Team', 'Enterprise'], faq: ['Is there a free trial?', 'Where is our data stored?'],
  }),
  kind({
    id: 'app', label: 'App', words: ['mobile app', 'app', 'iphone app', 'android app', 'ios app'], hints: [],
    primary: '#7c3aed', accent: '#f472b6', font: 'rounded', motif: 'phone',
    headline: 'Everything you need, in your pocket', tagline: '{name}: simple, fast and made for everyday life.', cta: ['Get the app', 'signup'],
    sections: ['features', 'pricing', 'faq', 'signup'],
    offerTitle: 'Features', offers: [['Simple', 'Does one thing well, without the clutter.'], ['Fast', 'Opens instantly and works offline.'], ['Private', 'Your data stays yours.']],
    about: '{name} is an app made by a small team.',
    tiers: ['Free', 'Plus'], faq: ['Which phones does it run on?', 'Is it free?'],
  }),
  kind({
    id: 'agency', label: 'Agency', words: ['agency', 'marketing agency', 'design agency', 'digital agency', 'creative agency', 'branding', 'web design', 'seo', 'studio for brands'], hints: ['marketing', 'advertising'],
    primary: '#0f172a', accent: '#22d3ee', font: 'sans', motif: 'spark',
    headline: 'Ideas that move people', tagline: '{name} helps brands{inPlace} stand out and grow.', cta: ['Start a project', 'contact'],
    sections: ['services', 'gallery', 'about', 'contact'],
    offerTitle: 'What we do', offers: [['Strategy', 'Where you are, where you want to be, and how to get there.'], ['Design', 'Brands and websites people remember.'], ['Growth', 'Campaigns measured by what they bring in.']],
    about: '{name} is an agency{inPlace}.',
  }),
  kind({
    id: 'consultant', label: 'Consulting', words: ['consultant', 'consultancy', 'consulting', 'coach', 'coaching', 'advisor', 'adviser', 'freelancer', 'mentor'], hints: ['business advice'],
    primary: '#115e59', accent: '#f59e0b', font: 'serif', motif: 'compass',
    headline: 'Clear advice, real progress', tagline: '{name} helps you decide and move forward{inPlace}.', cta: ['Book a call', 'booking'],
    sections: ['services', 'about', 'booking', 'contact'],
    offerTitle: 'How I help', offers: [['Advice', 'A clear view of the options and what they cost.'], ['Projects', 'Hands-on help to get it done.'], ['Coaching', 'Regular sessions to keep momentum.']],
    about: '{name} works with people and organisations{inPlace}.',
  }),
  kind({
    id: 'law', label: 'Law firm', words: ['lawyer', 'lawyers', 'law firm', 'solicitor', 'solicitors', 'attorney', 'attorneys', 'legal', 'notary', 'barrister'], hints: [],
    primary: '#1e293b', accent: '#b45309', font: 'serif', motif: 'scales',
    headline: 'Clear legal advice you can act on', tagline: 'Practical, plain-spoken advice from {name}{inPlace}.', cta: ['Book a consultation', 'booking'],
    sections: ['services', 'team', 'about', 'booking', 'contact'],
    offerTitle: 'Practice areas', offers: [['Family law', 'Separation, children and finances, handled with care.'], ['Property', 'Buying, selling and leases, without surprises.'], ['Business', 'Contracts, disputes and company matters.']],
    about: '{name} is a law firm{inPlace}.',
    team: 'Our lawyers',
  }),
  kind({
    id: 'accounting', label: 'Accountancy', words: ['accountant', 'accountants', 'accounting', 'accountancy', 'bookkeeper', 'bookkeeping', 'tax advisor', 'tax adviser', 'payroll'], hints: ['tax', 'taxes'],
    primary: '#065f46', accent: '#3b82f6', font: 'sans', motif: 'chart',
    headline: 'Numbers handled, time back', tagline: 'Accounts, tax and advice from {name}{inPlace}.', cta: ['Book a free call', 'booking'],
    sections: ['services', 'pricing', 'about', 'booking', 'contact'],
    offerTitle: 'Services', offers: [['Accounts', 'Year-end accounts, prepared and filed on time.'], ['Tax returns', 'Personal and business tax, done right.'], ['Bookkeeping', 'Your books kept tidy every month.']],
    about: '{name} is an accountancy practice{inPlace}.',
    tiers: ['Sole traders', 'Small companies', 'Growing businesses'],
  }),
  kind({
    id: 'realestate', label: 'Estate agency', words: ['estate agent', 'estate agents', 'real estate', 'realtor', 'property management', 'letting agent', 'lettings', 'property agent'], hints: ['property', 'properties', 'homes for sale'],
    primary: '#1e40af', accent: '#10b981', font: 'sans', motif: 'house',
    headline: 'The right home, the right move', tagline: 'Sales and lettings with {name}{inPlace}.', cta: ['Book a valuation', 'booking'],
    sections: ['services', 'products', 'area', 'team', 'booking', 'contact'],
    offerTitle: 'Services', offers: [['Sales', 'Honest valuations and a plan to sell well.'], ['Lettings', 'Finding good tenants and looking after them.'], ['Management', 'Your property cared for, hands-off for you.']],
    about: '{name} is an estate agency{inPlace}.',
    products: ['For sale', 'To let'], team: 'Our team',
  }),
  kind({
    id: 'hotel', label: 'Hotel', words: ['hotel', 'b&b', 'bed and breakfast', 'guest house', 'guesthouse', 'inn', 'hostel', 'holiday cottage', 'holiday let', 'lodge', 'campsite', 'glamping'], hints: ['rooms', 'stay'],
    primary: '#134e4a', accent: '#f59e0b', font: 'serif', motif: 'bed',
    headline: 'Stay a while', tagline: 'Comfortable rooms and a warm welcome at {name}{inPlace}.', cta: ['Check availability', 'booking'],
    sections: ['products', 'gallery', 'about', 'booking', 'contact'],
    offerTitle: 'Your stay', offers: [['Rooms', 'Quiet, comfortable and cared for.'], ['Breakfast', 'A good start to the day.'], ['Local tips', 'We will tell you where to go.']],
    about: '{name} is a place to stay{inPlace}.',
    products: ['Double room', 'Twin room', 'Family room'],
  }),
  kind({
    id: 'florist', label: 'Florist', words: ['florist', 'flower shop', 'flowers', 'floral design'], hints: ['bouquets'],
    primary: '#be123c', accent: '#65a30d', font: 'serif', motif: 'flower',
    headline: 'Flowers for every moment', tagline: 'Bouquets and arrangements by {name}{inPlace}.', cta: ['Order flowers', 'contact'],
    sections: ['products', 'services', 'about', 'hours', 'contact'],
    offerTitle: 'Services', offers: [['Bouquets', 'Hand-tied with the best of the season.'], ['Weddings', 'Flowers for the whole day, planned with you.'], ['Subscriptions', 'Fresh flowers, regularly.']],
    about: '{name} is a florist{inPlace}.',
    products: ['Bouquets', 'Plants', 'Arrangements'],
  }),
  kind({
    id: 'bookshop', label: 'Bookshop', words: ['bookshop', 'bookstore', 'book shop', 'booksellers', 'library'], hints: ['books'],
    primary: '#7c2d12', accent: '#0d9488', font: 'serif', motif: 'book',
    headline: 'A good book is waiting', tagline: 'New and well-loved books at {name}{inPlace}.', cta: ['Visit us', 'contact'],
    sections: ['products', 'events', 'about', 'hours', 'contact'],
    offerTitle: 'In the shop', offers: [['New books', 'Chosen by people who read them.'], ['Orders', 'Anything in print, ordered for you.'], ['Events', 'Readings, signings and book clubs.']],
    about: '{name} is an independent bookshop{inPlace}.',
    products: ['Fiction', 'Non-fiction', 'Children’s books'],
  }),
  kind({
    id: 'shop', label: 'Shop', words: ['shop', 'store', 'boutique', 'online shop', 'online store', 'ecommerce', 'e-commerce', 'deli', 'wine shop', 'gift shop', 'jeweller', 'jeweler', 'grocer', 'butcher', 'market stall'], hints: ['products', 'sell', 'selling', 'clothing', 'jewellery', 'jewelry', 'wine'],
    primary: '#0f766e', accent: '#f472b6', font: 'sans', motif: 'bag',
    headline: 'Things worth having', tagline: 'Chosen with care by {name}{inPlace}.', cta: ['Browse the shop', 'products'],
    sections: ['products', 'about', 'hours', 'contact'],
    offerTitle: 'Why shop with us', offers: [['Chosen with care', 'Every item picked by us.'], ['Gift ready', 'Wrapped and ready to give.'], ['Friendly advice', 'Ask us anything.']],
    about: '{name} is an independent shop{inPlace}.',
    products: ['New in', 'Favourites', 'Gifts'],
  }),
  kind({
    id: 'events', label: 'Events', words: ['wedding planner', 'event planner', 'events company', 'event venue', 'venue', 'festival', 'conference', 'caterer', 'catering', 'party planner', 'wedding venue'], hints: ['wedding', 'weddings', 'party', 'parties', 'events'],
    primary: '#9f1239', accent: '#eab308', font: 'serif', motif: 'calendar',
    headline: 'Days to remember', tagline: 'Events planned and run by {name}{inPlace}.', cta: ['Check your date', 'booking'],
    sections: ['services', 'gallery', 'events', 'booking', 'contact'],
    offerTitle: 'What we do', offers: [['Planning', 'From the first idea to the final detail.'], ['On the day', 'We run it so you can enjoy it.'], ['Suppliers', 'People we trust, booked for you.']],
    about: '{name} plans and runs events{inPlace}.',
  }),
  kind({
    id: 'music', label: 'Music', words: ['band', 'musician', 'singer', 'dj', 'orchestra', 'choir', 'composer', 'rapper', 'music teacher', 'record label'], hints: ['music', 'gigs', 'album'],
    primary: '#111827', accent: '#a855f7', font: 'sans', motif: 'note',
    headline: 'Music, live and loud', tagline: 'The official site of {name}{inPlace}.', cta: ['See the dates', 'events'],
    sections: ['events', 'gallery', 'about', 'signup', 'contact'],
    offerTitle: 'Listen', offers: [['Live', 'Shows and festivals.'], ['Recordings', 'Albums, singles and sessions.'], ['Bookings', 'Private events and collaborations.']],
    about: '{name} makes music{inPlace}.',
  }),
  kind({
    id: 'school', label: 'Education', words: ['school', 'tutor', 'tutoring', 'tuition', 'academy', 'language school', 'driving school', 'driving instructor', 'nursery', 'preschool', 'daycare', 'childcare', 'college'], hints: ['course', 'courses', 'lessons', 'learn', 'teaching', 'students', 'kids'],
    primary: '#1d4ed8', accent: '#f59e0b', font: 'rounded', motif: 'cap',
    headline: 'Learning that sticks', tagline: 'Lessons and courses with {name}{inPlace}.', cta: ['Book a first lesson', 'booking'],
    sections: ['services', 'timetable', 'pricing', 'team', 'booking', 'contact'],
    offerTitle: 'What we teach', offers: [['Lessons', 'One-to-one or small groups, at the right pace.'], ['Courses', 'A clear path from start to finish.'], ['Exam preparation', 'Practice and confidence before the day.']],
    about: '{name} teaches{inPlace}.',
    tiers: ['Single lesson', 'Block of lessons', 'Course'], team: 'Our teachers', classes: ['Beginners', 'Intermediate', 'Advanced'],
  }),
  kind({
    id: 'nonprofit', label: 'Charity', words: ['charity', 'nonprofit', 'non-profit', 'foundation', 'ngo', 'volunteer', 'volunteers', 'community group', 'food bank', 'shelter', 'association', 'church', 'mosque', 'temple', 'club'], hints: ['community', 'donate', 'cause'],
    primary: '#15803d', accent: '#f59e0b', font: 'sans', motif: 'heart',
    headline: 'Together we can do more', tagline: '{name} brings people together{inPlace}.', cta: ['Support us', 'donate'],
    sections: ['services', 'events', 'about', 'donate', 'contact'],
    offerTitle: 'What we do', offers: [['Support', 'Practical help for the people who need it.'], ['Community', 'Bringing neighbours together.'], ['Volunteering', 'Ways to give your time.']],
    about: '{name} is a community organisation{inPlace}.',
  }),
  kind({
    id: 'architect', label: 'Architecture', words: ['architect', 'architects', 'architecture', 'interior designer', 'interior design', 'interiors'], hints: ['extensions', 'buildings'],
    primary: '#334155', accent: '#f97316', font: 'sans', motif: 'building',
    headline: 'Spaces designed around you', tagline: 'Architecture and design by {name}{inPlace}.', cta: ['Start a conversation', 'contact'],
    sections: ['gallery', 'services', 'about', 'contact'],
    offerTitle: 'Services', offers: [['Homes', 'Extensions, renovations and new builds.'], ['Interiors', 'Rooms that work and feel right.'], ['Planning', 'Drawings and applications handled.']],
    about: '{name} is an architecture practice{inPlace}.',
  }),
];

/** The kind used when no other fits: it names its services with the prompt's own words. */
export const GENERIC: Kind = kind({
  id: 'business', label: 'Business', words: [],
  primary: '#0f766e', accent: '#f59e0b', font: 'sans', motif: 'spark',
  headline: 'Here to help', tagline: '{name}{inPlace}: friendly, professional and easy to reach.', cta: ['Get in touch', 'contact'],
  sections: ['services', 'about', 'contact'],
  offerTitle: 'What we do', offers: [['Advice', 'We listen first, then suggest what fits.'], ['Service', 'Work done carefully and on time.'], ['Support', 'Here after the job is done too.']],
  about: '{name} is a business{inPlace}.',
});

/** Kinds of sites made before the generator knew more kinds. */
const FORMER: Record<string, string> = { plumber: 'trades', electrician: 'trades', lawyer: 'law', fitness: 'gym' };

export function kindById(id: string): Kind {
  const wanted = FORMER[id] ?? id;
  return KINDS.find((k) => k.id === wanted) ?? GENERIC;
}

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every word and hint, to the kind it names (a naming word wins over a hint of another kind). */
const WORDS = new Map<string, { kind: string; weight: number }>();
for (const k of KINDS) {
  for (const w of k.hints ?? []) if (!WORDS.has(w)) WORDS.set(w, { kind: k.id, weight: 1 });
  for (const w of k.words) if (WORDS.get(w)?.weight !== 2) WORDS.set(w, { kind: k.id, weight: 2 });
}
// The other languages' words naming each kind (words/): an English word keeps its kind.
for (const k of KINDS) for (const w of kindWordsOf(k.id)) if (!WORDS.has(w)) WORDS.set(w, { kind: k.id, weight: 2 });
// One pattern for all of them, longest first so "dog grooming" wins over "grooming" where both
// start, compiled once and matched against the lower-cased prompt (case-insensitive Unicode
// patterns cost V8 far more to compile).
const ANY_WORD = new RegExp(`(?<![\\p{L}])(${[...WORDS.keys()].sort((a, b) => b.length - a.length).map(escapeRegex).join('|')})(?:s|es)?(?![\\p{L}])`, 'gu');

/**
 * The kind a prompt describes. A word naming the business ("photographer") beats a hint ("wedding");
 * among equals, the longer phrase ("dog grooming" over "grooming"), then the one written last in
 * its phrase ("a wedding photographer": the photographer) — the head of an English noun phrase.
 */
export function findKind(text: string): Kind {
  let best: { kind: string; weight: number; length: number; at: number } | undefined;
  for (const m of text.toLowerCase().matchAll(ANY_WORD)) {
    const word = WORDS.get(m[1]!)!;
    const candidate = { ...word, length: m[1]!.length, at: m.index };
    if (!best || candidate.weight > best.weight || (candidate.weight === best.weight && (candidate.length > best.length || (candidate.length === best.length && candidate.at > best.at)))) best = candidate;
  }
  return best ? kindById(best.kind) : GENERIC;
}
