/**
 * Cuts chosen by content: the choice itself on hand-made places, and what it is for, over generated documents
 * whose long sections, long paragraphs and long code blocks a greedy packer would cascade through: one edit
 * re-embeds few chunks, whatever the length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/index.js';
import { contentDefinedLast, CUT_LOW, CUT_WINDOW, placeValue, type CutMode, type UnitRun } from '../../src/chunking/content-cuts.js';
import { contentDefinedCut, type CutPlaces, type EarlierPlace } from '../support/content-cut-reference.js';
import { windowEnd } from '../../src/chunking/chunker.js';
import { textHash } from '../../src/unicode/text-hash.js';
import { fcParams } from '../support/property.js';

/** Places at unit positions 0..n with the given values (index 0 is the run's start). */
function places(values: readonly number[], eligible: (k: number) => boolean = () => true): CutPlaces {
  return { count: values.length, position: (k) => k, value: (k) => values[k] as number, eligible };
}

/** `contentDefinedLast` as `contentDefinedCut` over the run's places, every earlier place within the window given. */
function lastByCut(run: UnitRun, limit: number, mode: CutMode = {}): number {
  const positions = [0];
  for (let k = run.first; k <= run.last; k++) positions.push((positions.at(-1) as number) + run.added(k));
  const eligible = (k: number): boolean => run.mayEndBefore?.(k) ?? true;
  const before: EarlierPlace[] = [];
  let position = 0;
  for (let k = run.first - 1; k >= (run.earliest ?? run.first); k--) {
    position -= run.added(k);
    if (position < -CUT_WINDOW * limit) break;
    if (eligible(k)) before.push({ position, value: run.valueBefore(k) });
  }
  const places: CutPlaces = { count: run.last - run.first + 2, position: (i) => positions[i] as number, value: (i) => run.valueBefore(run.first + i), eligible: (i) => eligible(run.first + i) };
  const cut = contentDefinedCut(places, CUT_LOW * limit, CUT_WINDOW * limit, before, mode);
  return cut > 0 ? run.first + cut - 1 : run.last;
}

describe('contentDefinedLast', () => {
  it('chooses what contentDefinedCut chooses over the same places', () => {
    const unit = fc.record({ size: fc.integer({ min: 0, max: 9 }), value: fc.integer({ min: 0, max: 4 }), eligible: fc.boolean() });
    fc.assert(
      fc.property(fc.array(unit, { minLength: 2, maxLength: 60 }), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 60 }), fc.boolean(), (units, a, b, limit, early) => {
        const earliest = a % units.length;
        const first = earliest + (b % (units.length - earliest));
        const run: UnitRun = {
          first,
          last: units.length - 1,
          earliest,
          added: (k) => (units[k] as { size: number }).size,
          valueBefore: (k) => (units[k] as { value: number } | undefined)?.value ?? 5,
          mayEndBefore: (k) => (units[k] as { eligible: boolean } | undefined)?.eligible ?? true,
        };
        expect(contentDefinedLast(run, limit, { early })).toBe(lastByCut(run, limit, { early }));
      }),
      fcParams(300),
    );
  });
});

describe('contentDefinedCut', () => {
  it('ends at the first place past low that tops every place within the window before it', () => {
    // Positions 0..7, low 3: place 3 (value 5) is topped by place 1 (9) within 3 units; place 4 (10) tops 1..3.
    expect(contentDefinedCut(places([0, 9, 2, 5, 10, 1, 20, 3]), 3)).toBe(4);
  });

  it('falls back to the highest place past low when none tops its window, and to -1 when no place is past low', () => {
    expect(contentDefinedCut(places([50, 40, 30, 20, 10]), 2)).toBe(2);
    expect(contentDefinedCut(places([0, 1, 2]), 5)).toBe(-1);
  });

  it('falls back to the last of the places of highest value when several past low have it (the same text again and again)', () => {
    // Equal values top no window: the first of them past low would end every run of a repeated text at its floor.
    expect(contentDefinedCut(places([5, 5, 5, 5, 5, 5, 5]), 2)).toBe(6);
    expect(contentDefinedCut(places([9, 5, 5, 5, 5]), 2, 10)).toBe(4);
  });

  it('with early, ends below low at the last place that tops its window when no place past low does', () => {
    // Low 4, window 3: place 2 (value 9) tops places 0..1 but lies below low; places 4..6 are all topped by it or
    // by each other within the window, so without early the run ends at the highest past low (place 5).
    const run = places([0, 1, 9, 8, 7, 8, 6]);
    expect(contentDefinedCut(run, 4, 3)).toBe(5);
    expect(contentDefinedCut(run, 4, 3, [], { early: true })).toBe(2);
    // A place past low that tops its window still wins over one below it.
    expect(contentDefinedCut(places([0, 1, 9, 8, 7, 8, 20]), 4, 3, [], { early: true })).toBe(6);
  });

  it('never ends at a place that is not eligible, and does not let it block the window', () => {
    expect(contentDefinedCut(places([0, 1, 99, 2, 3], (k) => k !== 2), 2)).toBe(3);
  });

  it('compares places with those before the run within the window, so the run start does not decide', () => {
    const run = places([0, 5, 6, 7, 30]);
    // Alone, place 1 tops the start; with a place of value 20 one unit before the run, places 1 and 2 do not.
    expect(contentDefinedCut(run, 1, 3)).toBe(1);
    expect(contentDefinedCut(run, 1, 3, [{ position: -1, value: 20 }])).toBe(3);
    // Out of the window, an earlier place counts for nothing.
    expect(contentDefinedCut(run, 1, 3, [{ position: -5, value: 20 }])).toBe(1);
  });

  it('gives stronger boundaries precedence over any hash', () => {
    expect(placeValue(1, 0)).toBeGreaterThan(placeValue(0, 0xffffffff));
    expect(textHash('abc')).toBe(textHash('xabc', 1));
    expect(textHash('a'.repeat(48) + 'b')).toBe(textHash('a'.repeat(48) + 'c'));
  });

  it('hashes the words at a place, not their markup', () => {
    // The same heading and paragraph as Markdown source and as the text HTML or PDF gives: the same places.
    expect(textHash('### `fs.open(path[, flags])`')).toBe(textHash('fs.open(path[, flags])'));
    expect(textHash('Reads **the whole** file_, then_ closes it.')).toBe(textHash('Reads the whole file, then closes it.'));
    expect(textHash('Überschrift 見出し')).toBe(textHash('# Überschrift 見出し'));
    expect(textHash('> | a | b |')).toBe(textHash('ab'));
    expect(textHash('fs.open')).not.toBe(textHash('fs.close'));
    // Digits, case and punctuation other than marks are text: they tell places apart (two lines of code that
    // close blocks differently are two places, not a tie).
    expect(textHash('Step 1')).not.toBe(textHash('Step 2'));
    expect(textHash('Note')).not.toBe(textHash('note'));
    expect(textHash('}')).not.toBe(textHash('});'));
    // A run of marks is looked through only so far: the text after it does not count.
    expect(textHash(`${' '.repeat(200)}a`)).toBe(textHash(`${' '.repeat(200)}b`));
    expect(textHash(`${' '.repeat(100)}a`)).not.toBe(textHash(`${' '.repeat(100)}b`));
  });

  it('chooses the same place from any start at least a window before it (the property that stops a cascade)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 30, maxLength: 80 }), fc.integer({ min: 2, max: 8 }), fc.nat(), (values, low, shift) => {
        const from = (start: number): number => {
          const k = contentDefinedCut({ count: values.length - start, position: (i) => i, value: (i) => values[start + i] as number, eligible: () => true }, low);
          return k < 0 ? -1 : start + k;
        };
        const a = from(0);
        const b = from(shift % low);
        // A place chosen from the earlier start by beating its window is chosen from the later start too, or the
        // later start finds an even earlier qualifying place of its own; never a later one.
        if (a >= 0 && a - (shift % low) >= low && values.slice(Math.max(0, a - low), a).every((v) => v < (values[a] as number))) expect(b).toBeLessThanOrEqual(a);
      }),
      fcParams(200),
    );
  });
});

/** Seeded words, sentences and paragraphs. */
function prose(seed: number): { sentence(): string; paragraph(sentences: number): string } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
  const vocabulary = 'river stone light market paper window garden signal harbor engine cotton silver ladder winter'.split(' ');
  const word = (): string => vocabulary[Math.floor(next() * vocabulary.length)] as string;
  const sentence = (): string => {
    const n = 6 + Math.floor(next() * 14);
    const words = Array.from({ length: n }, word).join(' ');
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  };
  return { sentence, paragraph: (n) => Array.from({ length: n }, sentence).join(' ') };
}

/** Chunks of `after` whose embedded text is in no chunk of `before`: what must be embedded again. */
function reembedded(before: string, after: string): number {
  const options = { unit: 'chars' as const, maxSize: 700, minSize: 0 };
  const old = new Set(chunkText(before, options).chunks.map((c) => c.prefix + c.text + c.suffix));
  return chunkText(after, options).chunks.filter((c) => !old.has(c.prefix + c.text + c.suffix)).length;
}

/** Re-embedded chunks for `edits` insertions of one sentence at seeded places of `text` (at line ends). */
function editCosts(text: string, edits: number, seed: number, insert: (sentence: string) => string): number[] {
  const gen = prose(seed);
  const ends = [...text.matchAll(/[.;]\n|[.]\s/g)].map((m) => (m.index as number) + 1);
  return Array.from({ length: edits }, (_, i) => {
    const at = ends[Math.floor(((i + 0.5) / edits) * ends.length)] as number;
    return reembedded(text, text.slice(0, at) + insert(gen.sentence()) + text.slice(at));
  });
}

/**
 * A section of many small `###` entries, as in Node's deprecations.md: every boundary has the same strength, and
 * a cut that fell at the first good place past half a chunk went in pairs of entries whose phase an edit shifted
 * to the end of the section.
 */
function entries(count: number, seed: number): string {
  const gen = prose(seed);
  const entry = (i: number): string => `### DEP${String(i).padStart(4, '0')}: ${gen.sentence().slice(0, 30)}\n\nType: Runtime\n\n${gen.paragraph(2 + (i % 3))}`;
  return `# Deprecations\n\n## List\n\n${Array.from({ length: count }, (_, i) => entry(i)).join('\n\n')}\n`;
}

describe('a paragraph inserted before, or deleted at, every paragraph of a section of small entries', () => {
  for (const maxSize of [256, 512]) {
    it(`re-embeds at most 3 chunks, 1.2 on average, at ${maxSize} tokens`, () => {
      const text = entries(36, maxSize);
      const old = new Set(chunkText(text, { maxSize }).chunks.map((c) => c.prefix + c.text + c.suffix));
      const starts = [...text.matchAll(/\n\n(?=[A-Z])/g)].map((m) => (m.index as number) + 2);
      const costs = starts.flatMap((at) => {
        const end = text.indexOf('\n\n', at);
        const edited = [`${text.slice(0, at)}A paragraph was added here. It says little.\n\n${text.slice(at)}`, text.slice(0, at) + text.slice(end + 2)];
        return edited.map((t) => chunkText(t, { maxSize }).chunks.filter((c) => !old.has(c.prefix + c.text + c.suffix)).length);
      });
      const mean = costs.reduce((a, b) => a + b, 0) / costs.length;
      console.log(`${maxSize} tokens: ${costs.length} edits, re-embedded mean ${mean.toFixed(2)}, worst ${Math.max(...costs)}`);
      // Cuts at the first good place past half a chunk, without looking before the chunk: worst 5 and 4, mean 1.28 and 1.22.
      expect(Math.max(...costs)).toBeLessThanOrEqual(3);
      expect(mean).toBeLessThanOrEqual(1.2);
    });
  }
});

describe('edits re-embed few chunks, whatever the length of what they land in', () => {
  const gen = prose(7);
  const cases: Array<[string, string, (s: string) => string]> = [
    ['a section of 150 paragraphs', `# Guide\n\n${Array.from({ length: 150 }, () => gen.paragraph(3)).join('\n\n')}\n`, (s) => ` ${s}`],
    ['one paragraph of 600 sentences', `# Essay\n\n${gen.paragraph(600)}\n`, (s) => ` ${s}`],
    ['a code block of 1,500 lines', `# Code\n\n\`\`\`\n${Array.from({ length: 1500 }, () => `${gen.sentence().slice(0, -1)};`).join('\n')}\n\`\`\`\n`, (s) => `\n${s.slice(0, -1)};`],
  ];
  for (const [name, text, insert] of cases) {
    it(name, () => {
      const costs = editCosts(text, 24, name.length, insert);
      const mean = costs.reduce((a, b) => a + b, 0) / costs.length;
      expect(Math.max(...costs)).toBeLessThanOrEqual(6);
      expect(mean).toBeLessThanOrEqual(2);
    });
  }
});

/**
 * A section of API entries as in Node's fs.md: a heading, a YAML history comment (some longer than a chunk), a
 * list of parameters and a few paragraphs.
 */
function apiEntries(count: number, seed: number): string {
  const gen = prose(seed);
  let state = seed;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const change = (i: number): string => `  - version: v${10 + (i % 13)}.${i % 7}.0\n    pr-url: https://github.com/nodejs/node/pull/${30000 + i * 137}\n    description: ${gen.sentence()}`;
  const entry = (i: number): string => {
    const changes = Array.from({ length: next(9) }, (_, k) => change(i * 10 + k)).join('\n');
    const yaml = `<!-- YAML\nadded: v0.${i}.0${changes === '' ? '' : `\nchanges:\n${changes}`}\n-->`;
    const params = Array.from({ length: 1 + (i % 4) }, (_, k) => `* \`arg${k}\` {string} ${gen.sentence()}`).join('\n');
    const paragraphs = Array.from({ length: 1 + next(4) }, () => gen.paragraph(1 + next(3))).join('\n\n');
    return `### \`fs.call${i}(path)\`\n\n${yaml}\n\n${params}\n\n${paragraphs}`;
  };
  return `# File system\n\n## Callback API\n\n${Array.from({ length: count }, (_, i) => entry(i)).join('\n\n')}\n`;
}

describe('a paragraph inserted before, or deleted at, every paragraph of a section of API entries', () => {
  it('re-embeds at most 3 chunks, 1.15 on average, at 256 tokens', () => {
    const maxSize = 256;
    const text = apiEntries(20, 5);
    const old = new Set(chunkText(text, { maxSize }).chunks.map((c) => c.prefix + c.text + c.suffix));
    const starts = [...text.matchAll(/\n\n(?=[A-Z])/g)].map((m) => (m.index as number) + 2);
    const costs = starts.flatMap((at) => {
      const end = text.indexOf('\n\n', at);
      const edited = [`${text.slice(0, at)}A paragraph was added here. It says little.\n\n${text.slice(at)}`, text.slice(0, at) + text.slice(end < 0 ? text.length : end + 2)];
      return edited.map((t) => chunkText(t, { maxSize }).chunks.filter((c) => !old.has(c.prefix + c.text + c.suffix)).length);
    });
    const mean = costs.reduce((a, b) => a + b, 0) / costs.length;
    // A history comment cut to fill the room the chunk before it left, and a strong boundary skipped for lying just
    // short of the floor, re-embedded 4 at worst.
    expect(Math.max(...costs)).toBeLessThanOrEqual(3);
    expect(mean).toBeLessThanOrEqual(1.15);
  });
});

describe('an edit at the top of a section longer than an optimizer window', () => {
  it('changes no chunk far below it, wherever the windows end', () => {
    const gen = prose(3);
    // Entries of a heading, a line and a paragraph or a code block: drafts of every size, some below minSize.
    const body = Array.from({ length: 400 }, (_, i) => `### Entry ${i}\n\n${gen.sentence()}\n\n${i % 3 === 0 ? `\`\`\`\n${gen.paragraph(2 + (i % 5))}\n\`\`\`` : gen.paragraph(1 + (i % 4))}`).join('\n\n');
    const before = new Set(chunkText(`# Doc\n\n## Part\n\n${body}\n`, { maxSize: 64 }).chunks.map((c) => c.text));
    for (let n = 1; n <= 12; n++) {
      const added = Array.from({ length: n }, () => gen.paragraph(3)).join('\n\n');
      const after = chunkText(`# Doc\n\n## Part\n\n${added}\n\n${body}\n`, { maxSize: 64 }).chunks;
      // Windows that ended after a fixed number of drafts: 9 paragraphs above changed chunks hundreds below.
      expect(after.filter((c) => !before.has(c.text)).every((c) => c.index <= 2 * n), `${n} paragraphs added`).toBe(true);
    }
  });

  it('ends a full window between two drafts that fusion leaves alone', () => {
    const drafts = (sizes: number[]) => sizes.map((size) => ({ size }));
    expect(windowEnd(drafts([50, 50, 10, 50, 50, 10, 5]), 20)).toBe(4);
    expect(windowEnd(drafts([10, 50, 10, 50, 10]), 20)).toBe(4);
    expect(windowEnd(drafts([50, 50, 50]), 0)).toBe(2);
  });
});
