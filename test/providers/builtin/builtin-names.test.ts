// The business's name and place as people write them: after a greeting or "We're", in lower
// case without capitals to go by (between "for" and the place, or right after it), in single
// quotes, with "del", "do", "ai" inside; never a time, a colour, a language, an address's unit or
// a country.
import { describe, expect, it } from 'vitest';
import { understand } from '../../../src/providers/builtin/brief.ts';

describe('builtin: names and places', () => {
  it.each([
    [
      'hi! need a website for sunny side café in whitby, open daily 7am-3pm and sundays',
      'Sunny Side Café',
      'Whitby',
    ],
    ["We're Hartley & Sons Joinery, a family joinery based in Leeds.", 'Hartley & Sons Joinery', 'Leeds'],
    ['Bonjour ! Nous sommes la Boulangerie Martin, à Nantes.', 'Boulangerie Martin', 'Nantes'],
    [
      "hallo, ich brauche eine seite für meinen laden 'kleine freiheit' in hamburg, retro style",
      'kleine freiheit',
      'Hamburg',
    ],
    ['ciao! ho una pizzeria a bari, pizzeria da michele. forno a legna', 'Pizzeria Da Michele', 'Bari'],
    ['Olá! Somos a Tasca do Ribeiro, no centro de Braga.', 'Tasca do Ribeiro', null],
    ['Agriturismo Poggio ai Lecci, vicino a Montepulciano.', 'Agriturismo Poggio ai Lecci', 'Montepulciano'],
    [
      'Our yard is at Unit 4, Mill Lane, and we are Greenway Landscapes in Derby.',
      'Greenway Landscapes',
      'Derby',
    ],
    ['A site in French for Le Petit Four, a patisserie in Uzès.', 'Le Petit Four', 'Uzès'],
    ['The Puffin Rest, a guesthouse in Portree on the Isle of Skye.', 'The Puffin Rest', 'Portree'],
    ['un café à paris, thème sombre, bleu marine', null, 'Paris'],
    ['A software startup in Berlin, #1e40af and #f59e0b', null, 'Berlin'],
    [
      "We're a British couple who moved to France and now run La Maison des Oliviers near Uzès.",
      'La Maison des Oliviers',
      'Uzès',
    ],
    [
      "Hello, I'm Ffion Roberts and I paint portraits. Based in Bangor, happy to travel to Anglesey.",
      'Ffion Roberts',
      'Bangor',
    ],
    [
      'A yoga studio in Boise, Idaho: Treeline Yoga Collective. Classes daily.',
      'Treeline Yoga Collective',
      'Boise',
    ],
    [
      'ciao, ho una gelateria a lecce, si chiama gelateria luna 🍦 facciamo gusti siciliani',
      'Gelateria Luna',
      'Lecce',
    ],
    [
      "hiya, need a site for the copper kettle, it's a tearoom in whitby. open daily",
      'The Copper Kettle',
      'Whitby',
    ],
    [
      'Guten Tag, wir sind die Praxis Dr. Jana Klein in Münster und brauchen eine Website.',
      'Praxis Dr. Jana Klein',
      'Münster',
    ],
    ['Bom dia. Somos a Clínica Sorriso Azul, em Recife.', 'Clínica Sorriso Azul', 'Recife'],
    [
      'Le Chalet des Aiguilles, restaurant au centre de Chamonix : fondue et raclette.',
      'Le Chalet des Aiguilles',
      'Chamonix',
    ],
  ])('%s', (prompt, name, place) => {
    const brief = understand(prompt, 'Project');
    if (name) expect(brief.name).toBe(name);
    else expect(brief.name).toBe('Project');
    if (place) expect(brief.place).toBe(place);
  });
});
