/** The demo cast and the bounties they play out (README names the first member and hunter). */

export const DEMO_PASSWORD = 'Bounty-demo1!';
export const DEMO_MEMBER_EMAIL = 'member@bountyhunt.demo';
export const DEMO_HUNTER_EMAIL = 'hunter@bountyhunt.demo';
/** CONTRACT.md "Operations": the demo admin (role bit 4 only), same password. */
export const DEMO_ADMIN_EMAIL = 'admin@bountyhunt.demo';

export interface DemoMember {
  email: string;
  handle: string;
  /** How keen a voter this member is (0..1): spreads votes so ranks differ. */
  keenness: number;
}

export const DEMO_MEMBERS: DemoMember[] = [
  // The README's member votes sparingly so silver is left to try voting at once.
  { email: DEMO_MEMBER_EMAIL, handle: 'demomember', keenness: 0.15 },
  { email: 'ava@bountyhunt.demo', handle: 'avaviews', keenness: 0.8 },
  { email: 'ben@bountyhunt.demo', handle: 'benjudges', keenness: 0.6 },
  { email: 'chloe@bountyhunt.demo', handle: 'chloeclicks', keenness: 0.7 },
  { email: 'dev@bountyhunt.demo', handle: 'devvotes', keenness: 0.45 },
  { email: 'emma@bountyhunt.demo', handle: 'emmaeyes', keenness: 0.55 },
  { email: 'felix@bountyhunt.demo', handle: 'felixfan', keenness: 0.35 },
  { email: 'gina@bountyhunt.demo', handle: 'ginagazes', keenness: 0.5 },
];

export interface DemoHunter {
  email: string;
  handle: string;
  stagename: string;
  bio: string;
  /** Relative chance of entering a bounty, and of pleasing voters. */
  appeal: number;
}

export const DEMO_HUNTERS: DemoHunter[] = [
  {
    email: DEMO_HUNTER_EMAIL,
    handle: 'demohunter',
    stagename: 'Demo Hunter',
    bio: 'The demo account: sign in and claim a bounty.',
    appeal: 0.5,
  },
  {
    email: 'luna@bountyhunt.demo',
    handle: 'lunafox',
    stagename: 'Luna Fox',
    bio: 'Night skies, neon streets and the odd fox. Shooting after midnight since 2015.',
    appeal: 1,
  },
  {
    email: 'pete@bountyhunt.demo',
    handle: 'pixelpete',
    stagename: 'Pixel Pete',
    bio: 'Colour nerd and pixel pusher. If it glows, I frame it.',
    appeal: 0.8,
  },
  {
    email: 'mara@bountyhunt.demo',
    handle: 'marawild',
    stagename: 'Mara Wild',
    bio: 'Wildlife in the city: owls on rooftops, herons in canals.',
    appeal: 0.9,
  },
  {
    email: 'jonas@bountyhunt.demo',
    handle: 'jonasdrone',
    stagename: 'Jonas from Above',
    bio: 'Drone pilot. Everything looks better from 120 metres.',
    appeal: 0.7,
  },
  {
    email: 'sofia@bountyhunt.demo',
    handle: 'sofiafilm',
    stagename: 'Sofia on Film',
    bio: 'Still shooting on 35 mm. Scans, grain and patience.',
    appeal: 0.6,
  },
  {
    email: 'kai@bountyhunt.demo',
    handle: 'kaiskates',
    stagename: 'Kai Skates',
    bio: 'Skate clips, slow motion and concrete waves.',
    appeal: 0.75,
  },
  {
    email: 'noor@bountyhunt.demo',
    handle: 'noorlight',
    stagename: 'Noor Light',
    bio: 'Golden hour chaser. Portraits, silhouettes, long shadows.',
    appeal: 0.85,
  },
  {
    email: 'oscar@bountyhunt.demo',
    handle: 'oscarrain',
    stagename: 'Oscar in the Rain',
    bio: 'Reflections, puddles and umbrellas. Rainy days are my studio.',
    appeal: 0.55,
  },
  {
    email: 'rita@bountyhunt.demo',
    handle: 'ritamacro',
    stagename: 'Rita Macro',
    bio: 'Tiny worlds up close: dew, bugs and crystal light.',
    appeal: 0.65,
  },
  {
    email: 'tom@bountyhunt.demo',
    handle: 'tomtravels',
    stagename: 'Tom Travels',
    bio: 'One backpack, one lens, forty countries and counting.',
    appeal: 0.5,
  },
  {
    email: 'yuki@bountyhunt.demo',
    handle: 'yukisnow',
    stagename: 'Yuki Snow',
    bio: 'Winter everything: snowmen, frozen lakes and steaming cocoa.',
    appeal: 0.7,
  },
];

export interface DemoBounty {
  title: string;
  /** 8, 24, 168 or 720 (SPEC.md §9). */
  hours: number;
  /** Posted this many hours before the seed's "now". */
  postedHoursAgo: number;
  mediaType?: 1 | 2 | 4;
  amount?: number;
  claims: number;
  /** A further round opened this many hours after the first ended, lasting `hours`. */
  furtherRound?: { afterHours: number; hours: number; claims: number };
}

/** About thirty bounties across every duration and round state, oldest first. */
export const DEMO_BOUNTIES: DemoBounty[] = [
  // Ended and decided.
  {
    title: 'Best misty lighthouse at dawn',
    hours: 168,
    postedHoursAgo: 290,
    claims: 5,
    amount: 30,
  },
  { title: 'Funniest cat on a windowsill', hours: 24, postedHoursAgo: 270, claims: 4 },
  {
    title: 'Golden sunset over the harbour',
    hours: 24,
    postedHoursAgo: 260,
    claims: 4,
    furtherRound: { afterHours: 10, hours: 168, claims: 3 },
  },
  { title: 'Neon street after midnight', hours: 168, postedHoursAgo: 240, claims: 5 },
  { title: 'Wildest storm clouds', hours: 24, postedHoursAgo: 200, claims: 3, mediaType: 2 },
  { title: 'Rainy reflections in the city', hours: 24, postedHoursAgo: 170, claims: 4 },
  { title: 'Cleanest latte art', hours: 8, postedHoursAgo: 150, claims: 3 },
  { title: 'Hidden doorway with character', hours: 24, postedHoursAgo: 130, claims: 4 },
  {
    title: 'Show us your skateboard trick',
    hours: 24,
    postedHoursAgo: 110,
    claims: 3,
    mediaType: 2,
  },
  { title: 'Tiny garden up close', hours: 8, postedHoursAgo: 90, claims: 3 },
  { title: 'Frozen lake in black and white', hours: 24, postedHoursAgo: 70, claims: 4, amount: 20 },
  { title: 'Colourful market stall', hours: 8, postedHoursAgo: 40, claims: 3 },
  { title: 'Owl on a rooftop', hours: 24, postedHoursAgo: 30, claims: 3 },
  // A bounty whose second round is still running.
  {
    title: 'Bridge from above',
    hours: 168,
    postedHoursAgo: 280,
    claims: 4,
    furtherRound: { afterHours: 20, hours: 720, claims: 2 },
  },
  // Active.
  { title: 'Most surprising rainbow', hours: 720, postedHoursAgo: 250, claims: 5, amount: 50 },
  { title: 'Abandoned greenhouse', hours: 720, postedHoursAgo: 190, claims: 4 },
  { title: 'Sleepy dog in the sun', hours: 720, postedHoursAgo: 140, claims: 4 },
  {
    title: 'Vintage train in slow motion',
    hours: 720,
    postedHoursAgo: 100,
    claims: 3,
    mediaType: 4,
  },
  { title: 'Kite festival on the beach', hours: 720, postedHoursAgo: 60, claims: 4 },
  { title: 'Paper lantern parade', hours: 168, postedHoursAgo: 150, claims: 4 },
  { title: 'Curious fox in the snow', hours: 168, postedHoursAgo: 120, claims: 4, amount: 25 },
  { title: 'Electric skyline at dusk', hours: 168, postedHoursAgo: 80, claims: 4 },
  { title: 'Waterfall in slow motion', hours: 168, postedHoursAgo: 50, claims: 3, mediaType: 2 },
  { title: 'Crystal reflections up close', hours: 168, postedHoursAgo: 30, claims: 3 },
  { title: 'Best pancake stack', hours: 24, postedHoursAgo: 20, claims: 3 },
  { title: 'Mural that tells a story', hours: 24, postedHoursAgo: 12, claims: 3 },
  { title: 'Windmill at golden hour', hours: 24, postedHoursAgo: 6, claims: 2 },
  { title: 'Sandcastle masterpiece', hours: 8, postedHoursAgo: 5, claims: 2 },
  { title: 'Moon over the rooftops', hours: 8, postedHoursAgo: 2, claims: 1 },
  // Just posted: no claim yet, waiting for the demo hunter.
  { title: 'Record shop treasures', hours: 168, postedHoursAgo: 1, claims: 0 },
  // A big prize early on: its winner has money to be paid in this week's payout run.
  {
    title: 'Best portrait in natural light',
    hours: 24,
    postedHoursAgo: 300,
    claims: 4,
    amount: 600,
  },
];

export const DEMO_POST_TEXTS = [
  'New set from this morning.',
  'Behind the scenes of my last claim.',
  'Waited two hours for this light.',
  'One of my favourites so far.',
  'Trying a new editing style, thoughts?',
  'Thanks for all the votes!',
];
