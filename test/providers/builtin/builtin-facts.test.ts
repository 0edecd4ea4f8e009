// Facts stated without a word that introduces them: days with times wherever they stand ("opne
// mon-fri 9-7"), in each language's own short day names; a street with its number and town
// ("Estamos en Calle Mayor 5, 28013 Madrid"). And what is not a fact: a street in an "open"
// list, a course of four weeks, "do 2-3" in English.
import { describe, expect, it } from 'vitest';
import { understand } from '../../../src/providers/builtin/brief.ts';
import { contactIn, hoursIn } from '../../../src/providers/builtin/facts.ts';

describe('builtin: facts without an introducing word', () => {
  it.each([
    ['en', 'barber in derby, opne tue-fri 10-6 sat 9-4 sunday closed', ['tue-fri 10-6', 'sat 9-4']],
    ['en', 'We are open every day 8:00-17:00 in summer.', ['every day 8:00-17:00']],
    [
      'en',
      'Open Tuesdays 9am–12pm and Thursdays 2pm–5pm at the Old School Hall, 12 Mill Lane, Derby DE1 3AB.',
      ['Tuesdays 9am–12pm', 'Thursdays 2pm–5pm'],
    ],
    ['en', 'We do 2-3 weddings a month.', []],
    ['de', 'Wir haben Di-Fr 10-18 Uhr und Sa 9-14 Uhr geöffnet.', ['Di-Fr 10-18 Uhr', 'Sa 9-14 Uhr']],
    ['fr', 'On vous accueille mar-sam 9h-19h.', ['mar-sam 9h-19h']],
    [
      'es',
      'Atendemos de lunes a viernes 10 a 19 hs y sábados 10 a 14 hs.',
      ['de lunes a viernes 10 a 19 hs', 'sábados 10 a 14 hs'],
    ],
    ['it', 'Siamo aperti mar-dom 12-15 e 19-23.', ['mar-dom 12-15 e 19-23']],
    ['nl', 'We zijn er wo-za 9-17 en zo 10-16.', ['wo-za 9-17', 'zo 10-16']],
    ['pt', 'Atendemos seg a sex 9h às 18h e sáb 9h às 13h.', ['seg a sex 9h às 18h', 'sáb 9h às 13h']],
    [
      'fr',
      'ouvert du mardi au samedi 7h-19h et le dimanche 8h-12h30.',
      ['du mardi au samedi 7h-19h', 'le dimanche 8h-12h30'],
    ],
    ['it', 'aperti dal martedì alla domenica, il sabato 9:00-13:00', ['il sabato 9:00-13:00']],
    [
      'de',
      'Sprechzeiten: Mo, Di, Do 8–12 und 14–18 Uhr, Mi und Fr 8–13 Uhr.',
      ['Mo, Di, Do 8–12 und 14–18 Uhr', 'Mi und Fr 8–13 Uhr'],
    ],
    ['en', 'Hours M-F 8am-6pm, call 208-555-0101.', ['M-F 8am-6pm']],
    [
      'es',
      'Atendemos lunes a viernes de 8:00 a.m. a 5:00 p.m.',
      ['lunes a viernes de 8:00 a.m. a 5:00 p.m.'],
    ],
  ] as const)('%s: %s', (language, prompt, hours) => {
    expect(hoursIn(prompt, language)).toEqual(hours);
  });

  it.each([
    ['Estamos en Calle Mayor 5, 28013 Madrid. Tel. 910 000 111.', 'Calle Mayor 5, 28013 Madrid'],
    ['siamo in via roma 12. orari lun-sab 9-19', 'via roma 12'],
    ['Sie finden uns in der Bergmannstraße 22, 10961 Berlin.', 'Bergmannstraße 22, 10961 Berlin'],
    ['laden in leipzig, karl-liebknecht str. 40. mo-fr 10-18', 'karl-liebknecht str. 40'],
    [
      'Find the workshop at Unit 3, Riverside Road Business Park, Leeds LS9 0AB. Call 0113 496 0000.',
      'Unit 3, Riverside Road Business Park, Leeds LS9 0AB',
    ],
    ['Friterie à Namur depuis 1991, place d’Armes 7. Ouvert mar-dim.', 'place d’Armes 7'],
    ['Um café na Rua das Flores 28, 1200-195 Lisboa.', 'Rua das Flores 28, 1200-195 Lisboa'],
    ['Un corso per principianti di 4 settimane, 120 €.', null],
    ['Open since 1998, 3 generations of bakers.', null],
  ])('%s', (prompt, address) => {
    expect(contactIn(prompt).address).toBe(address);
  });

  it('hours, a street or a phone listed after a colon are facts, never services', () => {
    const brief = understand('laden in köln. auf: mo-fr 11-19 uhr, sa 10-16 uhr. plattenladen');
    expect(brief.offers).toBeNull();
    expect(brief.hours).toEqual(['mo-fr 11-19 uhr', 'sa 10-16 uhr']);
    const clinic = understand('Clínica en Madrid. Horario: L-V 9:00-14:00 y 16:00-20:00, S 10:00-14:00.');
    expect(clinic.offers).toBeNull();
  });

  it.each([
    ['find us at 2 mill yard, whitby. 01632 960 111. cosy', '01632 960 111'],
    ['B&B in Kerry, Annie & Tom, (066) 555 0101, stay@example.ie', '(066) 555 0101'],
    ['Electrician in Swindon, mob 07700 900 123', '07700 900 123'],
    ['Open 9.00-17.30, since 1998, rooms from £110, postcode BS1 4DJ', null],
  ])('a phone without a word that says so: %s', (prompt, phone) => {
    expect(contactIn(prompt).phone).toBe(phone);
  });
});
