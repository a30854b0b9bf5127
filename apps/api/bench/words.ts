/** Word lists for realistic bounty titles, bios and post texts (bench data). */
import { rng } from '../src/seed/random';

export { rng };
export const ADJECTIVES = [
  'golden',
  'misty',
  'neon',
  'quiet',
  'wild',
  'frozen',
  'hidden',
  'ancient',
  'tiny',
  'giant',
  'rainy',
  'sunny',
  'windy',
  'silver',
  'crimson',
  'electric',
  'lazy',
  'busy',
  'secret',
  'floating',
  'vintage',
  'rusty',
  'glowing',
  'stormy',
  'sleepy',
  'curious',
  'brave',
  'abandoned',
  'colourful',
  'mirrored',
  'upside-down',
  'midnight',
  'early',
  'forgotten',
  'perfect',
  'strange',
  'happy',
  'spooky',
  'elegant',
  'messy',
  'minimal',
  'bold',
  'fluffy',
  'shiny',
  'wooden',
  'paper',
  'crystal',
] as const;

export const NOUNS = [
  'sunset',
  'sunrise',
  'skyline',
  'bridge',
  'lighthouse',
  'harbour',
  'market',
  'street',
  'alley',
  'staircase',
  'rooftop',
  'garden',
  'forest',
  'waterfall',
  'mountain',
  'lake',
  'river',
  'beach',
  'desert',
  'cat',
  'dog',
  'owl',
  'fox',
  'horse',
  'bicycle',
  'tram',
  'train',
  'boat',
  'kite',
  'umbrella',
  'mural',
  'graffiti',
  'doorway',
  'window',
  'reflection',
  'shadow',
  'cloud',
  'storm',
  'rainbow',
  'moon',
  'star trail',
  'campfire',
  'lantern',
  'festival',
  'parade',
  'skateboard trick',
  'dance move',
  'latte art',
  'pancake stack',
  'pizza',
  'sandcastle',
  'snowman',
  'treehouse',
  'greenhouse',
  'windmill',
  'cathedral',
  'library',
  'bookshop',
  'record shop',
  'arcade',
] as const;

export const PLACES = [
  'in the city',
  'at dawn',
  'at dusk',
  'in the rain',
  'under the stars',
  'by the sea',
  'in the snow',
  'in your town',
  'on a rooftop',
  'in the fog',
  'after midnight',
  'in autumn',
  'in spring',
  'from above',
  'up close',
  'in black and white',
  'with a phone',
  'in slow motion',
  'on the move',
  'at golden hour',
] as const;

export const VERBS = [
  'Best',
  'Funniest',
  'Most surprising',
  'Cleanest',
  'Wildest',
  'Show us your',
] as const;

export const BIO_BITS = [
  'Chasing light since forever.',
  'Street photographer and night owl.',
  'Drone pilot, coffee addict.',
  'I film the small things nobody notices.',
  'Colour nerd. Pixel pusher.',
  'Weekend hunter, weekday architect.',
  'Shooting on film and on phones alike.',
  'Collector of sunsets and odd doorways.',
  'Travelling with one lens and a tripod.',
  'Animals, weather and everything in between.',
  'Editing in the dark, posting at dawn.',
  'Here for the bounties, staying for the votes.',
] as const;

export const POST_TEXTS = [
  'New set from this morning.',
  'Behind the scenes of my last claim.',
  'Waited two hours for this light.',
  'One of my favourites so far.',
  'Trying a new editing style, thoughts?',
  'Out hunting again this weekend.',
  'Thanks for all the votes!',
  'Quick test with a new lens.',
] as const;

export function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "Best misty lighthouse at dawn", "Wild fox in the snow", ... */
export function bountyTitle(rand: () => number): string {
  const shape = rand();
  if (shape < 0.4) return `${pick(rand, VERBS)} ${pick(rand, ADJECTIVES)} ${pick(rand, NOUNS)}`;
  if (shape < 0.8)
    return capitalise(`${pick(rand, ADJECTIVES)} ${pick(rand, NOUNS)} ${pick(rand, PLACES)}`);
  return capitalise(`${pick(rand, NOUNS)} ${pick(rand, PLACES)}`);
}
