// Deterministic inputs for the translation benchmarks (no downloads): a localization file of UI strings
// (nested objects and arrays, placeholders, 2-12 words each) and a corpus of plain English sentences.
// A seeded generator fills word slots in templates, so every run measures the same text.

/** mulberry32: a small seeded PRNG, enough to make the inputs repeatable. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS = 'file folder account project invoice report message comment user team photo document order payment profile password setting device session channel workspace contract ticket calendar event task note playlist subscription backup template'.split(' ');
const VERBS = 'save delete open share export import upload download rename archive restore publish send edit review approve cancel sync copy move'.split(' ');
const PAST = 'saved deleted opened shared exported imported uploaded downloaded renamed archived restored published sent edited reviewed approved cancelled synced copied moved'.split(' ');
const ADJS = 'new recent shared private important large empty default current previous selected pending active old public'.split(' ');
const PLACES = 'the server|your library|this workspace|the cloud|the trash|your device|the archive|this folder'.split('|');

/** UI string templates: {V} verb, {P} past participle, {N} noun, {A} adjective, {L} place; the rest is literal
 * and includes the placeholder syntaxes localization files carry. 2 to 12 words once filled. */
const UI_TEMPLATES = [
  '{V} {N}',
  '{A} {N}',
  '{V} all',
  'No {N} found',
  'Search {N}s…',
  '{V} {A} {N}',
  '{N} {P}',
  'Welcome back, {name}!',
  'You have {{count}} {A} {N}s',
  '%d {N}s selected',
  'Could not {V} the {N}: %s',
  'Your {N} has been {P}.',
  'Are you sure you want to {V} this {N}?',
  'The {N} was {P} by {user} on {date}.',
  '<b>{N}</b> {P} successfully',
  'Terms &amp; conditions for your {N}',
  'This {N} cannot be {P} after it has been {P}.',
  'Click <a href="{url}">here</a> to {V} your {N}.',
  'We could not {V} {L} right now. Please try again later.',
  'Only the owner of this {N} can {V} it from {L}.',
  '%1$s {P} %2$d {N}s in {L}',
  'Step {{step}} of {{total}}: {V} your {A} {N}',
];

const SENTENCE_TEMPLATES = [
  'The {A} {N} was {P} by the team yesterday.',
  'Please {V} the {N} before the meeting starts tomorrow morning.',
  'My brother wants to {V} his {A} {N} next week.',
  'We will {V} the {N} after we finish the report.',
  'Can you {V} the {N} and send it to my sister?',
  'The children are playing in the garden with their {A} dog.',
  'She {P} the {N} because the old one was broken.',
  'If the {N} is {A}, you should {V} it at once.',
  'Our company {P} a {A} {N} for every customer last year.',
  'I do not know why the {N} was {P} without a reason.',
  'The teacher asked the students to {V} the {N} in the library.',
  'They live in a small house near the river and the old church.',
  'He usually reads the newspaper while he drinks his coffee.',
  'After the storm, the town was quiet and the streets were empty.',
  'It is important to {V} every {N} before you leave the office.',
  'The {A} {N} is on the table next to the window.',
];
const SUBJECTS = 'my friend|the manager|our neighbour|the doctor|a young woman|the old man|every student|the driver'.split('|');

function fill(template: string, next: () => number): string {
  const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)]!;
  return template.replace(/\{([VPNAL])\}/g, (_, slot: string) => {
    if (slot === 'V') return pick(VERBS);
    if (slot === 'P') return pick(PAST);
    if (slot === 'N') return pick(NOUNS);
    if (slot === 'A') return pick(ADJS);
    return pick(PLACES);
  });
}

/** A localization document with `count` leaf strings: modules of screens, each with a title, actions,
 * form fields with label/placeholder/error lists, and toast messages (arrays), like an app's en.json. */
export function localizationDocument(count: number, seed = 1): { json: string; strings: number; unique: number } {
  const next = random(seed);
  const seen = new Set<string>();
  let made = 0;
  const text = (): string => {
    made++;
    // Mostly distinct strings (the service translates each distinct text once); about 5% repeat, as
    // "Cancel" and "Save" do in real files.
    const repeat = next() < 0.05;
    let s = '';
    for (let tries = 0; tries < 50 && (s === '' || (!repeat && seen.has(s))); tries++) {
      s = fill(UI_TEMPLATES[Math.floor(next() * UI_TEMPLATES.length)]!, next);
    }
    seen.add(s);
    return s;
  };
  const root: Record<string, unknown> = {};
  for (let m = 0; made < count; m++) {
    const module: Record<string, unknown> = {};
    root[`module${m}`] = module;
    for (let s = 0; s < 8 && made < count; s++) {
      const screen: Record<string, unknown> = { title: text(), enabled: true, version: s + 1 };
      const actions: Record<string, string> = {};
      for (const key of ['primary', 'secondary', 'cancel']) if (made < count) actions[key] = text();
      const fields: Record<string, unknown> = {};
      for (let f = 0; f < 3 && made < count; f++) {
        const field: Record<string, unknown> = { label: text() };
        if (made < count) field['placeholder'] = text();
        const errors: string[] = [];
        for (let e = 0; e < 2 && made < count; e++) errors.push(text());
        field['errors'] = errors;
        fields[`field${f}`] = field;
      }
      const toasts: string[] = [];
      for (let t = 0; t < 4 && made < count; t++) toasts.push(text());
      Object.assign(screen, { actions, form: { fields }, toasts, empty: '' });
      module[`screen${s}`] = screen;
    }
  }
  return { json: JSON.stringify(root, null, 2), strings: made, unique: seen.size };
}

/** `count` distinct English sentences, one per line in a text file (no line contains a newline). */
export function englishSentences(count: number, seed = 2): string[] {
  const next = random(seed);
  const out = new Set<string>();
  while (out.size < count) {
    let s = fill(SENTENCE_TEMPLATES[Math.floor(next() * SENTENCE_TEMPLATES.length)]!, next);
    if (next() < 0.5) {
      const who = SUBJECTS[Math.floor(next() * SUBJECTS.length)]!;
      s = `${s.slice(0, -1)}, and ${who} said that it was ${ADJS[Math.floor(next() * ADJS.length)]} enough.`;
    }
    out.add(s);
  }
  return [...out];
}

export const wordCount = (texts: string[]): number => texts.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0);
