// What the builtin generator knows about kinds of business: the words that name them, a fitting
// palette, and copy for each section. Copy uses {name} and {place}, filled in at render time.

export interface Kind {
  id: string;
  /** Lower-case words or phrases that identify the kind in a prompt. */
  words: string[];
  label: string;
  primary: string;
  accent: string;
  headline: string;
  tagline: string;
  cta: string;
  services: [string, string][];
  about: string;
  testimonials: [string, string][];
  /** Pricing tiers: name, price, what is included. */
  pricing: [string, string, string][];
  faq: [string, string][];
}

const testimonial = (who: string, what: string): [string, string] => [what, who];

export const KINDS: Kind[] = [
  {
    id: 'bakery', words: ['bakery', 'baker', 'patisserie', 'pastry', 'boulangerie', 'bread', 'cake'], label: 'Bakery',
    primary: '#9a3412', accent: '#f59e0b',
    headline: 'Baked fresh every morning', tagline: 'Sourdough, pastries and celebration cakes made by hand{inPlace}.', cta: 'Order a cake',
    services: [['Artisan bread', 'Slow-fermented sourdough and baguettes, out of the oven before 7 am.'], ['Pastries', 'Croissants, pains au chocolat and seasonal tarts, laminated in-house.'], ['Celebration cakes', 'Birthday and wedding cakes designed with you and baked to order.']],
    about: '{name} is a neighbourhood bakery{inPlace}. We use stone-ground flour, real butter and long, patient fermentation, because good bread takes time.',
    testimonials: [testimonial('Claire M.', 'The best sourdough I have had outside Paris. We come every Saturday.'), testimonial('Tom R.', 'They made our wedding cake and every guest asked where it came from.'), testimonial('Aisha K.', 'Warm croissants, friendly faces, fair prices. A real local gem.')],
    pricing: [['Daily loaf', '€4', 'One sourdough loaf, reserved for pick-up'], ['Weekend box', '€18', 'Bread, four pastries and a tart for the weekend'], ['Custom cake', 'from €45', 'Designed with you, serves 10 to 60']],
    faq: [['Do you take orders?', 'Yes: order cakes at least 48 hours ahead with the form below.'], ['Do you have gluten-free options?', 'We bake a gluten-free loaf on Fridays; ask us about allergens.']],
  },
  {
    id: 'restaurant', words: ['restaurant', 'bistro', 'trattoria', 'brasserie', 'diner', 'pizzeria', 'eatery', 'sushi', 'steakhouse'], label: 'Restaurant',
    primary: '#7f1d1d', accent: '#d97706',
    headline: 'Seasonal food, made with care', tagline: 'A warm table and a menu that follows the market{inPlace}.', cta: 'Book a table',
    services: [['Lunch & dinner', 'A short menu that changes with the seasons and the best of the market.'], ['Private dining', 'Celebrate with up to 30 guests in our private room.'], ['Catering', 'Our kitchen at your event, from office lunches to weddings.']],
    about: '{name} started with a simple idea: cook what is in season, source it close by and serve it generously{inPlace}.',
    testimonials: [testimonial('Marco B.', 'Every dish was a small surprise. The staff made our anniversary special.'), testimonial('Julia S.', 'Fresh, honest cooking and a wine list with real character.'), testimonial('Dev P.', 'Our team dinner was perfect from start to finish.')],
    pricing: [['Lunch menu', '€19', 'Two courses and coffee, weekdays'], ['Tasting menu', '€55', 'Six courses from the chef'], ['Private room', 'on request', 'Set menus for groups of 10 to 30']],
    faq: [['Do you cater for allergies?', 'Yes. Tell us when you book and the kitchen will adapt.'], ['Can I bring a group?', 'Groups of more than 8 please book by the form below.']],
  },
  {
    id: 'cafe', words: ['cafe', 'café', 'coffee', 'coffee shop', 'tea room', 'roastery'], label: 'Café',
    primary: '#78350f', accent: '#10b981',
    headline: 'Great coffee, slow mornings', tagline: 'Specialty coffee, homemade cakes and a seat by the window{inPlace}.', cta: 'Visit us',
    services: [['Specialty coffee', 'Single-origin beans roasted in small batches and brewed with care.'], ['Breakfast & brunch', 'Eggs, granola, toasties and cakes baked every morning.'], ['Beans to go', 'Take our roasts home, ground for your coffee maker.']],
    about: '{name} is a small café{inPlace} for people who like their coffee good and their mornings unhurried.',
    testimonials: [testimonial('Nina L.', 'My favourite flat white in town, and the banana bread is unreal.'), testimonial('Sam O.', 'Quiet, friendly, great wifi. My second office.'), testimonial('Priya D.', 'Lovely brunch spot with real attention to detail.')],
    pricing: [['Coffee card', '€30', 'Ten drinks of your choice'], ['Brunch for two', '€32', 'Two brunch plates and two drinks'], ['Beans subscription', '€16/month', '250 g of our roast of the month']],
    faq: [['Do you have plant milks?', 'Oat, almond and soy, at no extra charge.'], ['Is there wifi?', 'Yes, and plenty of sockets.']],
  },
  {
    id: 'plumber', words: ['plumber', 'plumbing', 'heating', 'boiler', 'gas engineer'], label: 'Plumbing',
    primary: '#1d4ed8', accent: '#f97316',
    headline: 'Fast, reliable plumbing', tagline: 'Leaks, boilers and bathrooms fixed properly, with upfront prices{inPlace}.', cta: 'Get a free quote',
    services: [['Emergency repairs', 'Burst pipes and leaks handled fast, day and night.'], ['Boilers & heating', 'Servicing, repairs and new installations by certified engineers.'], ['Bathrooms', 'Complete bathroom fitting, from design to the last tile.']],
    about: '{name} is a local, fully insured plumbing team{inPlace}. We turn up on time, explain the work and leave the place clean.',
    testimonials: [testimonial('Gareth W.', 'Came out within the hour for a burst pipe. Calm, quick, fairly priced.'), testimonial('Helen T.', 'New boiler fitted in a day and everything explained clearly.'), testimonial('Omar F.', 'Honest advice that saved us money. Highly recommended.')],
    pricing: [['Call-out', '£65', 'First hour of diagnosis and repair'], ['Boiler service', '£90', 'Annual service and safety check'], ['Bathroom fit', 'from £3,500', 'Full installation, fixed quote']],
    faq: [['Do you offer emergency call-outs?', 'Yes, 24 hours a day, 7 days a week.'], ['Are you insured?', 'Fully insured and certified for gas work.']],
  },
  {
    id: 'electrician', words: ['electrician', 'electrical', 'electric'], label: 'Electrical services',
    primary: '#1e3a8a', accent: '#eab308',
    headline: 'Safe, certified electrical work', tagline: 'From a new socket to a full rewire, done right the first time{inPlace}.', cta: 'Request a quote',
    services: [['Rewiring', 'Full and partial rewires with minimal disruption.'], ['Inspections', 'Electrical safety certificates for landlords and buyers.'], ['EV chargers', 'Home charging points, installed and certified.']],
    about: '{name} is a team of qualified electricians{inPlace} who care about safety, tidy work and clear prices.',
    testimonials: [testimonial('Laura P.', 'Rewired our flat in three days and left it spotless.'), testimonial('Ben C.', 'Quick response and very knowledgeable.'), testimonial('Fatima Z.', 'Our EV charger was installed perfectly.')],
    pricing: [['Small jobs', '£60', 'Up to one hour on site'], ['Safety inspection', '£150', 'Full report and certificate'], ['EV charger', 'from £799', 'Supplied and installed']],
    faq: [['Are you certified?', 'Yes, all our work is certified and guaranteed.'], ['Do you work weekends?', 'For urgent jobs, yes.']],
  },
  {
    id: 'dentist', words: ['dentist', 'dental', 'orthodontist', 'teeth'], label: 'Dental care',
    primary: '#0f766e', accent: '#38bdf8',
    headline: 'Gentle dental care for the whole family', tagline: 'Check-ups, hygiene and confident smiles{inPlace}.', cta: 'Book an appointment',
    services: [['Check-ups & hygiene', 'Thorough, gentle check-ups and cleaning for every age.'], ['Cosmetic dentistry', 'Whitening, veneers and invisible aligners.'], ['Emergency care', 'Same-day appointments when it hurts.']],
    about: '{name} is a modern practice{inPlace} where nervous patients are welcome and every treatment is explained first.',
    testimonials: [testimonial('Emma J.', 'I used to dread the dentist. Not any more.'), testimonial('Raj N.', 'Kind staff and my kids actually enjoy coming.'), testimonial('Sofia G.', 'Professional, modern and on time.')],
    pricing: [['Check-up', '€60', 'Exam and X-rays if needed'], ['Hygiene', '€80', 'Scale and polish'], ['Whitening', 'from €350', 'Professional whitening']],
    faq: [['Do you take new patients?', 'Yes, adults and children.'], ['What about emergencies?', 'Call us: we keep slots free every day.']],
  },
  {
    id: 'lawyer', words: ['lawyer', 'law firm', 'attorney', 'solicitor', 'legal', 'notary'], label: 'Legal services',
    primary: '#1f2937', accent: '#b45309',
    headline: 'Clear legal advice you can act on', tagline: 'Practical counsel for people and businesses{inPlace}.', cta: 'Book a consultation',
    services: [['Business law', 'Contracts, company formation and disputes.'], ['Family law', 'Separation, custody and estates handled with discretion.'], ['Property', 'Conveyancing, leases and landlord matters.']],
    about: '{name} is an independent practice{inPlace}. We explain your options in plain language and agree fees up front.',
    testimonials: [testimonial('Mark E.', 'Clear advice and a fair outcome in a difficult case.'), testimonial('Ines V.', 'They made our company set-up simple.'), testimonial('Paul K.', 'Responsive, thorough and transparent on costs.')],
    pricing: [['First consultation', 'free', '30 minutes to understand your case'], ['Fixed-fee work', 'from €400', 'Contracts and standard matters'], ['Retainer', 'on request', 'Ongoing counsel for businesses']],
    faq: [['Is the first meeting free?', 'Yes, the first 30 minutes are free.'], ['Do you work remotely?', 'Yes, by video call or in person.']],
  },
  {
    id: 'photographer', words: ['photographer', 'photography', 'photo studio'], label: 'Photography',
    primary: '#111827', accent: '#e11d48',
    headline: 'Photographs that tell your story', tagline: 'Weddings, portraits and brands, captured naturally{inPlace}.', cta: 'Check availability',
    services: [['Weddings', 'Relaxed, documentary coverage of your whole day.'], ['Portraits', 'Individual, family and headshot sessions.'], ['Brand shoots', 'Images for your website, products and social media.']],
    about: '{name} is a photographer{inPlace} with an eye for light and honest moments.',
    testimonials: [testimonial('Anna & Leo', 'Our wedding photos made us cry, in the best way.'), testimonial('Chris D.', 'Our new team headshots look fantastic.'), testimonial('Mei W.', 'So easy to work with and the results are beautiful.')],
    pricing: [['Portrait session', '€180', 'One hour, 20 edited images'], ['Brand shoot', '€650', 'Half day, 80 edited images'], ['Wedding', 'from €1,900', 'Full day coverage']],
    faq: [['How soon do we get the photos?', 'Portraits in a week, weddings within six weeks.'], ['Do you travel?', 'Yes, anywhere.']],
  },
  {
    id: 'fitness', words: ['gym', 'fitness', 'personal trainer', 'yoga', 'pilates', 'crossfit', 'studio'], label: 'Fitness',
    primary: '#b91c1c', accent: '#0ea5e9',
    headline: 'Get stronger, feel better', tagline: 'Classes and coaching for every level{inPlace}.', cta: 'Book a free class',
    services: [['Group classes', 'Strength, HIIT, yoga and mobility all week.'], ['Personal training', 'One-to-one coaching built around your goals.'], ['Nutrition', 'Simple, sustainable plans that fit your life.']],
    about: '{name} is a friendly training space{inPlace} where beginners and athletes train side by side.',
    testimonials: [testimonial('Jess H.', 'I have never stuck with a gym this long. The coaches are brilliant.'), testimonial('Kofi A.', 'Stronger at 50 than at 30.'), testimonial('Lena M.', 'Great community and classes that fit my schedule.')],
    pricing: [['Drop-in', '€15', 'One class'], ['Unlimited', '€79/month', 'All classes, no contract'], ['Personal training', '€55', 'One-hour session']],
    faq: [['I am a beginner. Is that OK?', 'Absolutely: every class has options for every level.'], ['Is there a contract?', 'No, cancel any time.']],
  },
  {
    id: 'salon', words: ['salon', 'hairdresser', 'barber', 'hair', 'beauty', 'spa', 'nails'], label: 'Salon',
    primary: '#9d174d', accent: '#d4a373',
    headline: 'Look good, feel great', tagline: 'Cuts, colour and care by people who listen{inPlace}.', cta: 'Book now',
    services: [['Cut & style', 'Precision cuts for every hair type.'], ['Colour', 'Balayage, highlights and colour correction.'], ['Treatments', 'Nourishing treatments for healthy hair and skin.']],
    about: '{name} is a relaxed salon{inPlace} where every appointment starts with a proper consultation.',
    testimonials: [testimonial('Chloe B.', 'Best colour I have ever had.'), testimonial('Ana R.', 'They actually listen to what you want.'), testimonial('Maya T.', 'A calm, lovely place and great results.')],
    pricing: [['Cut & finish', '€45', 'Consultation, wash, cut and style'], ['Colour', 'from €70', 'Full colour or highlights'], ['Treatment', '€30', 'Deep conditioning ritual']],
    faq: [['Do I need to book?', 'Booking is best; walk-ins when we can.'], ['Do you do patch tests?', 'Yes, 48 hours before any colour.']],
  },
  {
    id: 'agency', words: ['agency', 'marketing', 'design studio', 'consultancy', 'consultant', 'consulting', 'software', 'startup', 'saas'], label: 'Agency',
    primary: '#4338ca', accent: '#06b6d4',
    headline: 'We help ambitious teams grow', tagline: 'Strategy, design and technology that move the numbers{inPlace}.', cta: 'Start a project',
    services: [['Strategy', 'Workshops and research that turn goals into a clear plan.'], ['Design', 'Brands, websites and products people enjoy using.'], ['Growth', 'Campaigns and analytics that compound over time.']],
    about: '{name} is an independent team{inPlace} of strategists, designers and engineers working as one with our clients.',
    testimonials: [testimonial('Rachel F., COO', 'They felt like part of our team from week one.'), testimonial('Diego M., Founder', 'Our conversion rate doubled after the relaunch.'), testimonial('Hana S., CMO', 'Sharp thinking and flawless delivery.')],
    pricing: [['Sprint', '€4,900', 'Two-week discovery and plan'], ['Project', 'from €15k', 'Design and build, fixed scope'], ['Retainer', 'on request', 'An ongoing team for growth']],
    faq: [['How do projects start?', 'With a free call, then a short paid discovery sprint.'], ['Do you work remotely?', 'Yes, with clients all over the world.']],
  },
  {
    id: 'shop', words: ['shop', 'store', 'boutique', 'florist', 'flowers', 'bookshop', 'bookstore', 'gallery'], label: 'Shop',
    primary: '#065f46', accent: '#f472b6',
    headline: 'Carefully chosen, lovingly sold', tagline: 'An independent shop with things worth keeping{inPlace}.', cta: 'Visit the shop',
    services: [['Curated collection', 'Pieces we love, from makers we know.'], ['Gifts', 'Wrapped beautifully, with a handwritten card.'], ['Local delivery', 'Same-day delivery for orders before noon.']],
    about: '{name} is an independent shop{inPlace}, run by people who love what they sell.',
    testimonials: [testimonial('Olivia N.', 'I never leave empty-handed.'), testimonial('James L.', 'Perfect gifts and such friendly service.'), testimonial('Zara Q.', 'A little treasure of a shop.')],
    pricing: [['Gift wrap', 'free', 'On every purchase'], ['Gift box', 'from €35', 'A curated box for any occasion'], ['Delivery', '€5', 'Same day, locally']],
    faq: [['Do you ship?', 'Yes, nationwide in 2 to 3 days.'], ['Can I return an item?', 'Within 30 days, with the receipt.']],
  },
];

export const GENERIC: Kind = {
  id: 'business', words: [], label: 'Business',
  primary: '#0f766e', accent: '#f59e0b',
  headline: 'Quality you can count on', tagline: 'Friendly, professional service{inPlace}.', cta: 'Get in touch',
  services: [['Consultation', 'We listen first, then propose what fits your needs.'], ['Service', 'Work done carefully, on time and on budget.'], ['Support', 'We are here after the job is done too.']],
  about: '{name} is a local business{inPlace} built on good work and long relationships with our customers.',
  testimonials: [testimonial('Sarah L.', 'Professional, friendly and great value.'), testimonial('Michael B.', 'They did exactly what they promised.'), testimonial('Elena V.', 'I recommend them to everyone.')],
  pricing: [['Starter', '€49', 'A first consultation'], ['Standard', '€149', 'Our most popular package'], ['Premium', 'on request', 'Tailored to you']],
  faq: [['How do I get started?', 'Send us a message with the form below.'], ['Where are you based?', 'See the contact details below.']],
};

export function kindById(id: string): Kind {
  return KINDS.find((k) => k.id === id) ?? GENERIC;
}
