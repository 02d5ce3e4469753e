/**
 * Writing material for the offline blog generator (used when no AI key is configured).
 * Templates fill `{name}`, `{Title}`, `{tool}`, `{small}`, `{place}`, `{win}` and `{mistake}`
 * from a topic, and `{Name}`, `{Tool}`, `{Small}` with a capital first letter. Every sentence
 * must read well with every topic, so topic fields follow the shapes noted on `BlogTopic`.
 * Plain text only; the generator escapes it.
 */

export interface BlogTopic {
  /** Lower-case noun phrase: "I came to {name} by accident". */
  name: string;
  /** Title case of the same: "The Quiet Joy of {Title}". */
  Title: string;
  /** A modest piece of kit, with its article: "{tool} will take you far". */
  tool: string;
  /** A small first goal: "{small} is plenty at the beginning". */
  small: string;
  /** Where it happens, with its article: "{place} can be a calm corner of the week". */
  place: string;
  /** A satisfying moment, as a gerund phrase without "you": "I remember {win}". */
  win: string;
  /** A beginner's mistake, as a gerund phrase: "my biggest early mistake was {mistake}". */
  mistake: string;
}

export const TOPICS: readonly BlogTopic[] = [
  {
    name: 'home baking', Title: 'Home Baking', tool: 'a cheap kitchen scale',
    small: 'one simple loaf a week', place: 'the kitchen',
    win: 'pulling a golden, crackling loaf out of the oven',
    mistake: 'buying every gadget before baking a single loaf',
  },
  {
    name: 'balcony gardening', Title: 'Balcony Gardening', tool: 'a sturdy watering can',
    small: 'a single pot of basil on the railing', place: 'a sunny balcony',
    win: 'picking a home-grown tomato, still warm from the sun',
    mistake: 'planting far too much in far too little soil',
  },
  {
    name: 'trail running', Title: 'Trail Running', tool: 'a decent pair of trail shoes',
    small: 'two short runs a week', place: 'a quiet forest path',
    win: 'cresting a hill just as the morning mist lifts',
    mistake: 'chasing speed on every single outing',
  },
  {
    name: 'journaling', Title: 'Journaling', tool: 'a plain notebook',
    small: 'three honest sentences before bed', place: 'the blank page',
    win: 'rereading an old entry and seeing how much has changed',
    mistake: 'trying to write beautifully instead of truthfully',
  },
  {
    name: 'birdwatching', Title: 'Birdwatching', tool: 'a secondhand pair of binoculars',
    small: 'ten minutes at the window each morning', place: 'the local park',
    win: 'recognising a song before the bird even comes into view',
    mistake: 'racing around hoping to spot something rare',
  },
  {
    name: 'budget travel', Title: 'Budget Travel', tool: 'a small backpack that fits under a seat',
    small: 'one weekend trip to a nearby town', place: 'a slow regional train',
    win: 'stumbling onto a tiny cafe that no guidebook mentions',
    mistake: 'cramming five cities into a single week',
  },
  {
    name: 'film photography', Title: 'Film Photography', tool: 'an old manual camera',
    small: 'one roll of film a month', place: 'a walk through your own neighbourhood',
    win: 'opening a packet of prints and finding one perfect frame',
    mistake: 'shooting a whole roll in an afternoon without thinking',
  },
  {
    name: 'meal prep', Title: 'Meal Prep', tool: 'a set of good storage boxes',
    small: 'one big pot of soup on Sunday', place: 'the kitchen',
    win: 'opening the fridge on a tired Wednesday and finding dinner ready',
    mistake: 'cooking seven identical lunches nobody wants by Thursday',
  },
  {
    name: 'guitar practice', Title: 'Guitar Practice', tool: 'a clip-on tuner',
    small: 'fifteen minutes with three chords', place: 'a corner of the living room',
    win: 'playing a whole song through without stopping',
    mistake: 'learning the first few bars of twenty songs and finishing none',
  },
  {
    name: 'language learning', Title: 'Language Learning', tool: 'a pocket dictionary',
    small: 'five new words a day', place: 'the morning commute',
    win: 'understanding a joke in a language that once sounded like noise',
    mistake: 'memorising grammar tables without ever speaking',
  },
  {
    name: 'houseplant care', Title: 'Houseplant Care', tool: 'a small watering can with a long spout',
    small: 'one hardy plant on a bright windowsill', place: 'a bright windowsill',
    win: 'spotting a new leaf unfurling after weeks of waiting',
    mistake: 'watering everything every day out of pure affection',
  },
  {
    name: 'watercolour painting', Title: 'Watercolour Painting', tool: 'a small travel palette',
    small: 'one postcard-sized sketch a week', place: 'the kitchen table',
    win: 'watching two colours bloom into each other exactly as hoped',
    mistake: 'overworking a painting until the colours turn to mud',
  },
  {
    name: 'bike commuting', Title: 'Bike Commuting', tool: 'a reliable lock',
    small: 'one ride to work each week', place: 'the quiet back streets',
    win: 'gliding past a long traffic jam on a bright morning',
    mistake: 'picking the busiest road because it looked shortest on the map',
  },
  {
    name: 'minimalist living', Title: 'Minimalist Living', tool: 'a single cardboard box for things to give away',
    small: 'one cleared shelf', place: 'a tidy room',
    win: 'realising that the things given away are not missed at all',
    mistake: 'throwing everything out in a weekend and regretting half of it',
  },
  {
    name: 'home coffee brewing', Title: 'Home Coffee Brewing', tool: 'a simple hand grinder',
    small: 'one carefully made cup each morning', place: 'the kitchen counter',
    win: 'tasting fruit and chocolate in a home-brewed cup',
    mistake: 'blaming the beans when the grind was the problem',
  },
  {
    name: 'stargazing', Title: 'Stargazing', tool: 'a simple star chart',
    small: 'learning one constellation a month', place: 'a dark field outside town',
    win: 'seeing the rings of Saturn for the very first time',
    mistake: 'buying a big telescope before learning the night sky',
  },
  {
    name: 'knitting', Title: 'Knitting', tool: 'a pair of bamboo needles',
    small: 'one plain scarf', place: 'a comfortable armchair',
    win: 'wearing a scarf made by hand, stitch by stitch',
    mistake: 'starting a complicated sweater as a very first project',
  },
  {
    name: 'bouldering', Title: 'Bouldering', tool: 'a pair of rental shoes',
    small: 'one evening a week at the climbing gym', place: 'the climbing wall',
    win: 'finally topping out on a problem that had been unbeatable for weeks',
    mistake: 'climbing until my fingers gave out on my very first visit',
  },
  {
    name: 'composting', Title: 'Composting', tool: 'a small bin with a tight lid',
    small: 'saving the peelings from one week of cooking', place: 'a corner of the garden',
    win: 'turning the pile and finding dark, sweet-smelling soil',
    mistake: 'adding everything without balancing greens and browns',
  },
  {
    name: 'chess', Title: 'Chess', tool: 'a wooden set',
    small: 'five puzzles over breakfast', place: 'a cafe table',
    win: 'spotting a winning combination three moves before it happens',
    mistake: 'memorising openings without understanding them',
  },
  {
    name: 'reading for pleasure', Title: 'Reading for Pleasure', tool: 'a library card',
    small: 'twenty pages before bed', place: 'a quiet reading corner',
    win: 'missing a bus stop because the story would not let go',
    mistake: 'forcing myself through books I did not enjoy',
  },
  {
    name: 'yoga', Title: 'Yoga', tool: 'a simple mat',
    small: 'ten minutes of stretching after waking up', place: 'a clear patch of floor',
    win: 'noticing that a stiff back no longer aches at the end of the day',
    mistake: 'copying advanced poses from videos on day one',
  },
  {
    name: 'pottery', Title: 'Pottery', tool: 'an apron you do not mind ruining',
    small: 'one small bowl', place: 'the studio',
    win: 'drinking tea from a mug thrown on the wheel a week before',
    mistake: 'trying to make every piece perfectly symmetrical',
  },
  {
    name: 'woodworking', Title: 'Woodworking', tool: 'a sharp hand saw',
    small: 'one simple box with square corners', place: 'the garage workbench',
    win: 'running a hand over a joint that fits without a gap',
    mistake: 'buying power tools before learning to measure twice',
  },
  {
    name: 'vegetarian cooking', Title: 'Vegetarian Cooking', tool: 'a big, heavy frying pan',
    small: 'one meat-free dinner a week', place: 'the kitchen',
    win: 'watching a sceptical friend go back for seconds',
    mistake: 'replacing meat with nothing and wondering why the plate feels empty',
  },
  {
    name: 'walking before breakfast', Title: 'Walking Before Breakfast', tool: 'a comfortable pair of shoes',
    small: 'one loop around the block before breakfast', place: 'the quiet streets at dawn',
    win: 'catching the first light on the rooftops while the town still sleeps',
    mistake: 'waiting for perfect weather that never comes',
  },
  {
    name: 'digital decluttering', Title: 'Digital Decluttering', tool: 'a simple to-do list',
    small: 'deleting five apps you never open', place: 'a phone left in another room',
    win: 'reaching the end of the day without an overflowing inbox',
    mistake: 'deleting everything in a burst of zeal and reinstalling it all a week later',
  },
  {
    name: 'home fermentation', Title: 'Home Fermentation', tool: 'a clean glass jar',
    small: 'one jar of sauerkraut', place: 'a cool shelf in the pantry',
    win: 'hearing the first fizz of a freshly opened jar',
    mistake: 'panicking at every bubble and throwing good batches away',
  },
  {
    name: 'sketching', Title: 'Sketching', tool: 'a pocket sketchbook',
    small: 'one quick drawing on your lunch break', place: 'a park bench',
    win: 'flipping back through a full sketchbook of ordinary days',
    mistake: 'erasing every line before it had a chance to become something',
  },
];

export const TITLES: readonly string[] = [
  "A Beginner's Guide to {Title}",
  'What Nobody Tells You About {Title}',
  'Why {Title} Deserves a Place in Your Week',
  'The Quiet Joy of {Title}',
  '{Title} on a Busy Schedule',
  'How I Stopped Overthinking {Title}',
  'Getting Started with {Title}, One Small Step at a Time',
  '{Title} Without the Pressure',
  'Everything I Wish I Knew Before Trying {Title}',
  '{Title} for People Who Think They Have No Time',
  'What a Year of {Title} Taught Me',
  'In Praise of {Title}',
  'Is {Title} Worth It? An Honest Take',
  'Notes from a Reluctant Convert to {Title}',
];

/** The blog's first sentence (or two). */
export const OPENERS: readonly string[] = [
  'A year ago I knew almost nothing about {name}, and honestly I was a little intimidated by it.',
  'There is a moment in {name} that is hard to describe until you have felt it: {win}.',
  'Most people who try {name} give up within the first month, and it is rarely for lack of talent.',
  'I came to {name} by accident, on a slow weekend when I needed something to do with my hands and my head.',
  "If you have ever read about {name} and thought 'that sounds lovely, but not for me', this post is for you.",
  'Every hobby has a reputation, and {name} has a stubborn one: that you need lots of time, money or natural talent. None of that turned out to be true, at least not in the way I feared.',
  'I used to think of {name} as something for other people, the organised ones with spare hours and a clear plan.',
  'Some of the best parts of my week now involve {name}, which would have surprised me not so long ago.',
];

/** Second sentence: what the writer has found. */
export const REFLECTIONS: readonly string[] = [
  'It turns out the hardest part is not the skill itself but finding a rhythm that fits into an ordinary week.',
  'What I have learned since is that the people who stick with it are not the gifted ones, just the patient ones.',
  'The good news is that almost nothing you need can be bought; most of it is simply showing up.',
  'Looking back, most of my early frustration came from expecting too much, too soon.',
  'Along the way, {name} has taught me more about patience than any book ever did.',
];

/** Last sentence of the first paragraph: what the post will give. */
export const PROMISES: readonly string[] = [
  'Here is what has actually helped me, with none of the gatekeeping.',
  'Below are the few ideas that made the biggest difference for me.',
  'So here are some honest notes for anyone thinking about starting.',
  'If you are curious, here is where I would begin.',
  'These are the lessons I would pass on to my younger, more impatient self.',
];

/** Leads the first body paragraph; the tip that follows starts in lower case. */
export const FIRST_TRANSITIONS: readonly string[] = [
  'First of all,',
  'To begin with,',
  'The first lesson is the simplest:',
  'Before anything else,',
];

/** Leads each later body paragraph. */
export const LATER_TRANSITIONS: readonly string[] = [
  'Another thing that helped:',
  'On a practical note,',
  'Then there is this:',
  'One more thing:',
  'Just as important,',
  'A friend gave me this advice, and it stuck:',
  'Perhaps most importantly,',
  'It also helps to',
];

/** A piece of advice: a short imperative, then why it works. */
export const TIPS: readonly string[] = [
  'start smaller than feels necessary. {Small} is plenty at the beginning, and it leaves you wanting more instead of worn out.',
  'resist the urge to buy everything at once. {Tool} and a bit of curiosity will take you surprisingly far, and you will soon learn what you really need.',
  'keep a simple record of what you try. A few lines in a notebook after each session reveal patterns that memory quietly erases.',
  'find your people. A local club, a friend who shares the interest or a friendly online forum makes every small victory twice as fun.',
  'give yourself permission to be bad at it for a while. Everyone you admire has a drawer full of early attempts they would rather not show you.',
  'tie it to something you already do. Pairing it with your morning coffee or a slow Sunday afternoon makes it far easier to keep going.',
  'pay attention to how it makes you feel, not just to the results. Even on the days when nothing goes to plan, {place} can still be a calm corner of the week.',
  'learn one thing properly before moving on. Depth beats breadth early on, and the basics will carry you through almost everything that comes later.',
  "set a tiny, concrete goal. 'Get better' is vague, but 'finish one thing this week' is something you can actually tick off.",
  'take breaks without guilt. A week away often brings you back with fresh eyes and a clearer sense of what you enjoy.',
  'watch people who are only a few steps ahead of you, not just the experts. Their mistakes are recent, and their advice is usually the most practical.',
  'make it easy to begin. Keep {tool} somewhere you will see it every day, so that starting takes seconds rather than a decision.',
  'celebrate the small wins out loud. Telling someone about your progress turns a quiet hobby into something you are proud of.',
  'stop comparing your first month with somebody else\'s tenth year. The only useful comparison is with where you were last week.',
];

/** An optional personal note that closes a body paragraph. */
export const ANECDOTES: readonly string[] = [
  'My own biggest early mistake was {mistake}, so I learned this one the hard way.',
  'For me, it was the difference between quitting and keeping going.',
  'A friend told me this early on, and I ignored it for far too long.',
  'It sounds obvious, but it took me an embarrassingly long time to notice.',
  'The first time it clicked, I remember {win} and grinning like a child.',
  'These days it is the part I look forward to most.',
];

/** The last paragraph. */
export const CLOSERS: readonly string[] = [
  '{Name} will not change your life overnight, and it does not need to. A little at a time adds up to something you will be proud of.',
  'If you take one thing from this post, let it be this: start this week, start small, and be kind to yourself while you learn.',
  'I would love to hear how your own adventures in {name} go. Share your wins, and especially your glorious failures, in the comments.',
  'There is no finish line here, only the next small step. Mine is {small}; I wonder what yours will be.',
  'So go on and give {name} a try this weekend. The worst that can happen is a good story.',
  'Whatever pace you choose, the point is to enjoy it. The rest, as I found out, tends to follow.',
];
