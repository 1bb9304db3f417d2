/** Contracts of the simpler strategies, on generated text and with adversarial sizers. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charSizer } from '../../src/chunking/sizers/basic.js';
import { createFixedSizeCore, fixedSize } from '../../src/chunking/strategies/fixed.js';
import { byMarkers } from '../../src/chunking/strategies/markers.js';
import { byTurns } from '../../src/api/strategies.js';
import { createSlidingWindowCore, normalizeSlidingWindow, slidingWindow } from '../../src/chunking/strategies/window.js';
import type { Sizer } from '../../src/protocols.js';
import type { Chunk } from '../../src/types.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { fcParams } from '../support/property.js';
import { sampleMarkdownFiles } from '../support/samples.js';
import { tiktokenSizer } from '../support/tiktoken.js';
import { referenceChunkIds } from '../support/chunk-contracts.js';
import { linkNeighbours } from '../../src/chunking/neighbours.js';

const wordCount: Sizer = { size: (t) => t.split(/\s+/).filter(Boolean).length };
/** Sizers that respect the protocol: non-negative, growing with the text. */
const honest: Record<string, Sizer> = { chars: charSizer, words: wordCount, tiktoken: tiktokenSizer };
/** Sizers that do not: constants, noise, superadditive. */
const adversarial: Record<string, Sizer> = {
  zero: { size: () => 0 },
  one: { size: () => 1 },
  huge: { size: () => 1e9 },
  noise: { size: (t) => (t.length * 2654435761) % 17 },
  square: { size: (t) => t.length ** 2 },
};
const allSizers = { ...honest, ...adversarial };

const text = fc
  .array(fc.constantFrom('a', 'bc', 'word', ' ', '  ', '\n', '\r\n', '\r', '\t', 'é', '😀', '\n\n', '# ', '\ud800', 'x\u00a0y'), { maxLength: 120 })
  .map((parts) => parts.join(''));

/** Cut points for writing a text in pieces. */
const cuts = fc.array(fc.nat({ max: 400 }), { maxLength: 8 });

function pieces(s: string, at: number[]): string[] {
  const points = [...new Set(at.map((p) => p % (s.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(s.slice(from, p));
    from = p;
  }
  out.push(s.slice(from));
  return out;
}

function expectExactSlices(s: string, chunks: Chunk[], id = 'p'): void {
  const ids = referenceChunkIds(id, chunks);
  chunks.forEach((c, i) => {
    expect(s.slice(c.start, c.end)).toBe(c.text);
    expect(c.index).toBe(i);
    expect(c.id).toBe(ids[i]);
  });
}

/** Every non-whitespace character lies in some chunk. */
function expectCovered(s: string, chunks: Chunk[]): void {
  const covered = new Uint8Array(s.length);
  for (const c of chunks) covered.fill(1, c.start, c.end);
  for (let i = 0; i < s.length; i++) if (/\S/.test(s[i]!)) expect(covered[i]).toBe(1);
}

describe('fixedSize (property)', () => {
  it('concatenates back to the source, in exact slices of at most n units, never cutting a pair', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 12 }), (s, n) => {
        const chunks = fixedSize(n)({ id: 'p', text: s });
        expect(chunks.map((c) => c.text).join('')).toBe(s);
        expectExactSlices(s, chunks);
        for (const c of chunks) {
          expect(c.text.length).toBeGreaterThan(0);
          expect(c.text.length).toBeLessThanOrEqual(n === 1 ? 2 : n);
          const before = s.charCodeAt(c.start - 1);
          const at = s.charCodeAt(c.start);
          expect(before >= 0xd800 && before <= 0xdbff && at >= 0xdc00 && at <= 0xdfff).toBe(false);
        }
      }),
      fcParams(300),
    );
  });

  it('gives the same chunks whatever the write boundaries', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 9 }), cuts, (s, n, at) => {
        const core = createFixedSizeCore(n, { documentId: 'p' });
        const out = pieces(s, at).flatMap((p) => core.write(p));
        out.push(...core.end());
        expect(linkNeighbours(out)).toEqual(fixedSize(n)({ id: 'p', text: s }));
      }),
      fcParams(200),
    );
  });
});

describe('slidingWindow (property)', () => {
  const sizerName = fc.constantFrom(...Object.keys(allSizers));
  const shape = fc.integer({ min: 1, max: 30 }).chain((size) => fc.record({ size: fc.constant(size), overlap: fc.integer({ min: 0, max: size - 1 }) }));

  it('gives exact, word-aligned, advancing windows that cover the text, with any sizer', () => {
    fc.assert(
      fc.property(text, shape, sizerName, (s, { size, overlap }, name) => {
        const sizer = allSizers[name]!;
        const chunks = slidingWindow({ size, overlap, sizer })({ id: 'p', text: s });
        expectExactSlices(s, chunks);
        expectCovered(s, chunks);
        for (let i = 0; i < chunks.length; i++) {
          const c = chunks[i]!;
          expect(c.text.trim()).toBe(c.text);
          expect(c.start === 0 || /\s/.test(s[c.start - 1]!)).toBe(true);
          expect(c.end === s.length || /\s/.test(s[c.end]!)).toBe(true);
          if (i > 0) {
            expect(c.start).toBeGreaterThan(chunks[i - 1]!.start);
            expect(c.end).toBeGreaterThan(chunks[i - 1]!.end);
          }
        }
      }),
      fcParams(300),
    );
  });

  it('keeps every window within size with an honest sizer, unless it is one word, flagged oversized', () => {
    fc.assert(
      fc.property(text, shape, fc.constantFrom(...Object.keys(honest)), (s, { size, overlap }, name) => {
        const sizer = honest[name]!;
        for (const c of slidingWindow({ size, overlap, sizer })({ id: 'p', text: s })) {
          expect(c.size).toBe(sizer.size(c.text));
          if (c.size > size) {
            expect(c.oversized).toBe(true);
            expect(/\s/.test(c.text)).toBe(false);
          } else expect(c.oversized).toBeUndefined();
        }
      }),
      fcParams(300),
    );
  });

  it('gives the same windows whatever the write boundaries', () => {
    fc.assert(
      fc.property(text, shape, sizerName, cuts, (s, { size, overlap }, name, at) => {
        const sizer = allSizers[name]!;
        const core = createSlidingWindowCore(normalizeSlidingWindow({ size, overlap, sizer }), { documentId: 'p' });
        const out = pieces(s, at).flatMap((p) => core.write(p));
        out.push(...core.end());
        expect(linkNeighbours(out)).toEqual(slidingWindow({ size, overlap, sizer })({ id: 'p', text: s }));
      }),
      fcParams(200),
    );
  });

  it('keeps 512-token windows on the samples within 512 cl100k tokens', () => {
    checkWindows(sampleMarkdownFiles(), 512);
  });
});

describeCorpus('slidingWindow on the Markdown', () => {
  it('keeps 512-token windows within 512 cl100k tokens', () => {
    checkWindows(corpusFiles('', ['.md']).slice(0, 25), 512);
  });
});

/** Windows of `size` cl100k tokens over each file: exact slices, covering the file, within size. */
function checkWindows(files: string[], size: number): void {
  expect(files.length).toBeGreaterThan(0);
  const chunker = slidingWindow({ size, overlap: 64, sizer: tiktokenSizer });
  for (const file of files) {
    const s = readFileSync(file, 'utf8');
    const chunks = chunker({ id: 'p', text: s });
    expectExactSlices(s, chunks);
    expectCovered(s, chunks);
    for (const c of chunks) if (!c.oversized) expect(c.size).toBeLessThanOrEqual(size);
  }
}

describe('byMarkers (property)', () => {
  const markers = fc.constantFrom<(string | RegExp)[]>(['\n\n'], ['\n# ', '\n\n'], [/\n(?=#)/, '\n', ' '], ['\r\n', /(?=a)/]);
  const bounds = fc.integer({ min: 1, max: 30 }).chain((max) => fc.record({ maxSize: fc.constant(max), minSize: fc.integer({ min: 0, max }) }));

  it('gives exact, ordered, disjoint chunks covering every non-whitespace character, with any sizer', () => {
    fc.assert(
      fc.property(text, markers, bounds, fc.constantFrom(...Object.keys(allSizers)), (s, m, { maxSize, minSize }, name) => {
        const chunks = byMarkers({ markers: m, maxSize, minSize, sizer: allSizers[name]! })({ id: 'p', text: s });
        expectExactSlices(s, chunks);
        expectCovered(s, chunks);
        for (let i = 0; i < chunks.length; i++) {
          expect(chunks[i]!.text.trim()).toBe(chunks[i]!.text);
          expect(chunks[i]!.text.length).toBeGreaterThan(0);
          if (i > 0) expect(chunks[i]!.start).toBeGreaterThanOrEqual(chunks[i - 1]!.end);
        }
      }),
      fcParams(300),
    );
  });

  it('keeps chunks within maxSize with an honest sizer, unless one word, flagged oversized', () => {
    fc.assert(
      fc.property(text, markers, bounds, fc.constantFrom(...Object.keys(honest)), (s, m, { maxSize, minSize }, name) => {
        const sizer = honest[name]!;
        for (const c of byMarkers({ markers: m, maxSize, minSize, sizer })({ id: 'p', text: s })) {
          expect(c.size).toBe(sizer.size(c.text));
          if (c.size > maxSize) {
            expect(c.oversized).toBe(true);
            expect(/\s/.test(c.text)).toBe(false);
          }
        }
      }),
      fcParams(300),
    );
  });
});

describe('byTurns (property)', () => {
  const turn = fc.record({
    speaker: fc.constantFrom('Ana', 'Ben', 'Dr. C'),
    // A number after the label costs a token of its own in cl100k (its space does not join it, as a word's does).
    said: fc.array(fc.constantFrom('hi', 'ok', 'well', 'yes', '😀', 'no.', '10', '2024'), { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
  });
  const form = fc.constantFrom('lines', 'jsonl');
  const windowing = fc.record({ turnsPerChunk: fc.integer({ min: 1, max: 6 }), overlapTurns: fc.integer({ min: 0, max: 7 }) });

  function render(turns: { speaker: string; said: string }[], f: string): string {
    return turns.map((t) => (f === 'jsonl' ? JSON.stringify({ speaker: t.speaker, text: t.said }) : `${t.speaker}: ${t.said}`)).join('\n');
  }

  it('puts every turn whole in some chunk, or in parts that rebuild it, windows advancing, with any sizer', () => {
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 25 }), form, windowing, fc.constantFrom(...Object.keys(allSizers)), fc.integer({ min: 1, max: 20 }), (turns, f, w, name, maxTokens) => {
        const s = render(turns, f);
        const chunks = byTurns({ ...w, sizer: allSizers[name]!, maxTokens })({ id: 'p', text: s });
        // The chunks of a turn cut into parts: several chunks of that one turn alone.
        const partsOf = (i: number) => chunks.filter((c) => c.startTurn === i && c.endTurn === i);
        turns.forEach((t, i) => {
          const line = `${t.speaker}: ${t.said}`;
          // Dedupe may drop a window whose text was emitted before: the turn is then whole in that earlier chunk.
          const whole = chunks.filter((c) => c.text.split('\n').includes(line));
          if (whole.length === 0) {
            // Cut into parts, each a piece of the turn's text, in order, the first and the last among them. A part
            // whose text was emitted before (by any turn) is not emitted again: another turn's part stands for it.
            const prefix = `${t.speaker}: `;
            const parts = chunks.filter((c) => c.startTurn === c.endTurn && c.text.startsWith(prefix) && t.said.includes(c.text.slice(prefix.length)));
            const pieces = parts.map((c) => c.text.slice(prefix.length));
            expect(parts.length).toBeGreaterThan(0);
            let from = 0;
            for (const p of partsOf(i).map((c) => c.text.slice(t.speaker.length + 2))) {
              const at = t.said.indexOf(p, from);
              expect(at).toBeGreaterThanOrEqual(0);
              from = at + p.length;
            }
            expect(pieces.some((p) => t.said.startsWith(p))).toBe(true);
            expect(pieces.some((p) => t.said.endsWith(p))).toBe(true);
            return;
          }
          if (!chunks.some((c) => c.startTurn! <= i && i <= c.endTurn!)) expect(whole.some((c) => c.endTurn! < i)).toBe(true);
        });
        for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.startTurn!).toBeGreaterThanOrEqual(chunks[i - 1]!.startTurn!);
        for (const c of chunks) {
          expect(c.endTurn! - c.startTurn! + 1).toBeLessThanOrEqual(w.turnsPerChunk);
          expect(c.text.split('\n').length).toBe(c.endTurn! - c.startTurn! + 1);
          // A part after a turn's first is its speaker and its own slice.
          const slice = s.slice(c.start, c.end);
          if (f === 'lines') expect([slice, `${turns[c.startTurn!]!.speaker}: ${slice}`]).toContain(c.text);
        }
        if (turns.length > 0) expect(new Set(chunks.map((c) => c.hash)).size).toBe(chunks.length);
      }),
      fcParams(300),
    );
  });

  it('keeps windows and parts within maxTokens with an honest sizer, unless one turn whose speaker leaves no room', () => {
    const clusters = new Intl.Segmenter('en', { granularity: 'grapheme' });
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 25 }), form, windowing, fc.constantFrom(...Object.keys(honest)), fc.integer({ min: 1, max: 40 }), (turns, f, w, name, maxTokens) => {
        const sizer = honest[name]!;
        for (const c of byTurns({ ...w, sizer, maxTokens })({ id: 'p', text: render(turns, f) })) {
          expect(c.size).toBe(sizer.size(c.text));
          if (c.size > maxTokens) {
            expect([c.startTurn, c.oversized]).toEqual([c.endTurn, true]);
            // The speaker's name fills maxTokens, or the part is one grapheme cluster (an emoji), which cannot be cut.
            const speaker = turns[c.startTurn!]!.speaker;
            const said = c.text.slice(speaker.length + 2);
            expect(sizer.size(`${speaker}:`) >= maxTokens || [...clusters.segment(said)].length === 1).toBe(true);
          }
        }
      }),
      fcParams(300),
    );
  });
});
