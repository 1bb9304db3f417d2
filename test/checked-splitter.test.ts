/**
 * The text splitter protocol as its documentation writes it: `split(text, max_size) -> list[str]`, the pieces as
 * strings. The design's two examples, translated line by line, are injected into a `SemanticChunker` and their
 * chunks held to the contracts; then what the boundary does with strings (found again at exact offsets, whitespace
 * between them allowed, a wrong one refused with a code naming it) and with a piece above `maxSize` (cut again).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeOptions, type ChunkOptions } from '../src/config.js';
import { runCore } from '../src/core.js';
import { createHeadingStage } from '../src/chunking/heading-tracker.js';
import { createSizer } from '../src/chunking/sizers/index.js';
import { chunkText, SemanticChunker, parseMarkdown, type TextSplitterProtocol } from '../src/index.js';
import { checkChunks } from './support/chunk-contracts.js';
import { markdownDocument } from './support/markdown-arbitrary.js';
import { fcParams } from './support/property.js';

const ROOT = join(import.meta.dirname, '..');
const guide = readFileSync(join(ROOT, 'samples/guide.md'), 'utf8');
const structures = readFileSync(join(ROOT, 'samples/structures.md'), 'utf8');

// The design's examples, line by line: `text[:n]` is `text.slice(0, n)`, `len(text)` is `text.length`.

/** `CustomSplitter.split = lambda text, n: [text[:n], text[n:]] if len(text) > n else [text]` */
class CustomSplitter implements TextSplitterProtocol {
  split(text: string, n: number): string[] {
    return text.length > n ? [text.slice(0, n), text.slice(n)] : [text];
  }
}

/** Records `{text, max_size}`, returns `[text[i:i+max_size] for i in range(0, len(text), max_size)]`. */
class RecordingTextSplitter implements TextSplitterProtocol {
  readonly calls: { text: string; max_size: number }[] = [];

  split(text: string, max_size: number): string[] {
    this.calls.push({ text, max_size });
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += max_size) pieces.push(text.slice(i, i + max_size));
    return pieces;
  }
}

/** Holds `chunks` of `text` to the contracts of DESIGN.md (exact slices, size, nothing lost, headings). */
function expectContracts(text: string, options: ChunkOptions, chunks: Parameters<typeof checkChunks>[2]): void {
  const config = normalizeOptions(options);
  const blocks = runCore(createHeadingStage(), parseMarkdown(text));
  checkChunks(text, blocks, chunks, config, createSizer(config));
}

describe("the design's splitters, injected into a SemanticChunker", () => {
  for (const [name, text] of [
    ['guide.md', guide],
    ['structures.md', structures],
  ] as const) {
    it(`RecordingTextSplitter on ${name}: chunks keep the contracts, and the recorder saw each call`, () => {
      const options: ChunkOptions = { unit: 'chars', maxSize: 120, documentId: name };
      const recorder = new RecordingTextSplitter();
      const { chunks, statistics } = new SemanticChunker(options, { textSplitter: recorder }).chunk(text);
      expectContracts(text, options, chunks);
      expect(recorder.calls.length).toBeGreaterThan(0);
      for (const call of recorder.calls) {
        expect(text).toContain(call.text);
        expect(call.max_size).toBeLessThanOrEqual(120);
      }
      // Its fixed slices need no second cut: in characters, each measures max_size at most.
      expect(statistics.warnings).toEqual([]);
      // Some chunk ends where the recorder cut, not where the built-in splitter would have.
      const builtIn = new SemanticChunker(options).chunk(text).chunks;
      expect(chunks.map((c) => c.end)).not.toEqual(builtIn.map((c) => c.end));
    });

    it(`CustomSplitter on ${name}: its second piece above maxSize is cut again by the built-in splitter, and the statistics say so`, () => {
      const options: ChunkOptions = { unit: 'chars', maxSize: 120, documentId: name };
      const { chunks, statistics } = new SemanticChunker(options, { textSplitter: new CustomSplitter() }).chunk(text);
      expectContracts(text, options, chunks);
      expect(statistics.warnings).toEqual([expect.stringMatching(/^textSplitter returned \d+ pieces? above maxSize, cut again by the built-in TextSplitter$/)]);
    });
  }

  it('in tokens too: text[:n] in characters is usually under n tokens, and a piece that is not is cut again', () => {
    const options: ChunkOptions = { maxSize: 48 };
    const { chunks } = new SemanticChunker(options, { textSplitter: new CustomSplitter() }).chunk(structures);
    expectContracts(structures, options, chunks);
  });
});

describe('strings from a splitter', () => {
  const text = 'One sentence here.   Another one follows.\n\nA third, after a blank line.';
  const chars = { unit: 'chars', maxSize: 30, minSize: 0 } as const;

  it('are found again at their exact offsets, whitespace between them allowed (trimmed pieces, as many splitters return)', () => {
    const trimmed = (t: string) => t.split(/(?<=\.)\s+/).map((s) => s.trim());
    const { chunks } = chunkText(text, chars, { textSplitter: trimmed });
    expect(chunks.map((c) => c.text)).toEqual(['One sentence here.', 'Another one follows.', 'A third, after a blank line.']);
    for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
  });

  it('of whitespace alone are passed over', () => {
    const { chunks } = chunkText(text, chars, { textSplitter: (t: string) => t.split(/(\s+)/) });
    expect(chunks.every((c) => c.text.trim() === c.text && c.text !== '')).toBe(true);
  });

  it('that are not the next piece of the text are ERR_PROTOCOL naming the piece and where it was expected', () => {
    const cases: [string, (t: string) => string[], RegExp][] = [
      ['a piece that is not in the text', () => ['One sentence here.', 'Not in the text.'], /piece 1 "Not in the text\.", which is not the next piece of the text \(at 18: " {3}Another/],
      ['a piece out of order', (t) => [t.slice(21, 41), t.slice(0, 18)], /piece 0 "Another one follows\.", which is not the next piece of the text \(at 0: "One sentence/],
      ['a piece repeated', (t) => [t.slice(0, 18), t.slice(0, 18)], /piece 1 "One sentence here\.", which is not the next piece/],
      ['text left out between pieces', (t) => [t.slice(0, 18), t.slice(40)], /piece 1 .*, which is not the next piece/],
      ['text left out at the end', (t) => [t.slice(0, 18)], /left text out after its last piece: "\s*Another one follows/],
    ];
    for (const [name, split, message] of cases) {
      const run = () => chunkText(text, chars, { textSplitter: split });
      expect(run, name).toThrow(message);
      expect(run, name).toThrow(expect.objectContaining({ code: 'ERR_PROTOCOL' }));
    }
  });

  it('cut inside a surrogate pair are ERR_PROTOCOL: each half would be a broken character', () => {
    const emoji = `${'🌏'.repeat(40)}`;
    const run = () => chunkText(emoji, { unit: 'chars', maxSize: 25 }, { textSplitter: new CustomSplitter() });
    expect(run).toThrow(/inside a surrogate pair at 25/);
    expect(run).toThrow(expect.objectContaining({ code: 'ERR_PROTOCOL' }));
  });

  it('give the chunks of the same spans (generated documents, cut at any offsets)', () => {
    fc.assert(
      fc.property(markdownDocument, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (doc, cuts, trim) => {
        const text = doc.replace(/[\ud800-\udfff]/g, 'x');
        // Cuts at the given fractions of each text the chunker hands over, as spans and as strings.
        // Trimmed, a piece loses its whitespace at both ends. A piece of whitespace alone goes (as strings, it is passed over).
        const spansOf = (t: string) => {
          const at = [...new Set(cuts.map((c) => c % (t.length + 1)))].sort((a, b) => a - b).filter((c) => c > 0 && c < t.length);
          const spans = [0, ...at].map((start, i) => ({ start, end: at[i] ?? t.length }));
          const inner = spans.map(({ start, end }) => {
            const slice = t.slice(start, end);
            return trim ? { start: start + (slice.length - slice.trimStart().length), end: end - (slice.length - slice.trimEnd().length) } : { start, end };
          });
          return inner.filter(({ start, end }) => t.slice(start, end).trim() !== '');
        };
        const strings = (t: string) => spansOf(t).map(({ start, end }) => t.slice(start, end));
        const options = { unit: 'chars', maxSize: 60 } as const;
        const bySpans = chunkText(text, options, { textSplitter: spansOf }).chunks;
        const byStrings = chunkText(text, options, { textSplitter: strings }).chunks;
        expect(byStrings.map((c) => [c.start, c.end])).toEqual(bySpans.map((c) => [c.start, c.end]));
        expectContracts(text, options, byStrings);
      }),
      fcParams(25),
    );
  });
});
