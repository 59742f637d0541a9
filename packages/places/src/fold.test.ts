import { foldPlaceName } from './fold';

describe('foldPlaceName', () => {
  it.each([
    ['Kraków', 'krakow'],
    ['KRAKÓW', 'krakow'],
    ['Čakovec', 'cakovec'],
    ['Đakovo', 'dakovo'],
    ['Łódź', 'lodz'],
    ['Gießen', 'giessen'],
    ['Tromsø', 'tromso'],
    ['  Bale -  Valle ', 'bale valle'],
    ['Koper/Capodistria', 'koper capodistria'],
    ["Val-d'Isère", 'val d isere'],
  ])('%s → %s', (text, folded) => {
    expect(foldPlaceName(text)).toBe(folded);
  });
});
