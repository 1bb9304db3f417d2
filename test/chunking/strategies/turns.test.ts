import { describe, expect, it } from 'vitest';
import { byTurns } from '../../../src/api/strategies.js';
import { createTurnsCore, normalizeTurns } from '../../../src/chunking/strategies/turns.js';
import type { Sizer } from '../../../src/protocols.js';
import type { Block } from '../../../src/types.js';
import { referenceChunkIds } from '../../support/chunk-contracts.js';
import { tiktokenSizer } from '../../support/tiktoken.js';

const transcript = (n: number) => Array.from({ length: n }, (_, i) => `${i % 2 ? 'Bob' : 'Alice'}: line ${i}`).join('\n');
const source = (text: string) => ({ id: 'call', origin: 'call.txt', text });
const wordCount: Sizer = { size: (t) => t.split(/\s+/).filter(Boolean).length };

describe('byTurns', () => {
  it('makes windows of turnsPerChunk turns advancing by turnsPerChunk - overlapTurns', () => {
    const chunks = byTurns({ turnsPerChunk: 3, overlapTurns: 1 })(source(transcript(7)));
    expect(chunks.map((c) => [c.startTurn, c.endTurn])).toEqual([[0, 2], [2, 4], [4, 6]]);
    expect(chunks[0]!.text).toBe('Alice: line 0\nBob: line 1\nAlice: line 2');
  });

  it('ends with a shorter window for the turns left', () => {
    const chunks = byTurns({ turnsPerChunk: 3, overlapTurns: 1 })(source(transcript(8)));
    expect(chunks.map((c) => [c.startTurn, c.endTurn])).toEqual([[0, 2], [2, 4], [4, 6], [6, 7]]);
  });

  it('clamps overlapTurns below the window', () => {
    const chunks = byTurns({ turnsPerChunk: 2, overlapTurns: 5 })(source(transcript(4)));
    expect(chunks.map((c) => [c.startTurn, c.endTurn])).toEqual([[0, 1], [1, 2], [2, 3]]);
  });

  it('keeps the text an exact source slice for single-LF "Speaker: text" lines, and carries ids', () => {
    const text = transcript(5);
    const chunks = byTurns({ turnsPerChunk: 2, overlapTurns: 0 })(source(text));
    const ids = referenceChunkIds('call', chunks);
    for (const c of chunks) {
      expect(text.slice(c.start, c.end)).toBe(c.text);
      expect(c).toMatchObject({ documentId: 'call', origin: 'call.txt', id: ids[c.index] });
    }
  });

  it('rewrites JSONL turns as "Speaker: text" lines; start and end span the records', () => {
    const text = '{"speaker":"A","text":"hi"}\n{"speaker":"B","text":"yo\\nthere"}\n';
    const [chunk] = byTurns({ turnsPerChunk: 2 })(source(text));
    expect(chunk).toMatchObject({ text: 'A: hi\nB: yo\nthere', start: 0, end: text.length - 1, startLine: 1, endLine: 2, startTurn: 0, endTurn: 1 });
  });

  it('keeps a multi-line turn that fits whole', () => {
    const text = 'A: one\ntwo\nthree\nB: four';
    const chunks = byTurns({ turnsPerChunk: 1, overlapTurns: 0 })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['A: one\ntwo\nthree', 'B: four']);
  });

  it('shrinks a window from its tail until it fits maxTokens, then advances by the shrunk size', () => {
    const text = 'A: a\nB: b1 b2 b3 b4 b5 b6\nA: c\nB: d\nA: e';
    const chunks = byTurns({ turnsPerChunk: 3, overlapTurns: 1, sizer: wordCount, maxTokens: 5 })(source(text));
    // Turn 1 alone is over 5 words: it comes in parts, each its speaker and at most 5 words, that rebuild it.
    expect(chunks.map((c) => [c.startTurn, c.endTurn])).toEqual([[0, 0], [1, 1], [1, 1], [2, 3], [4, 4]]);
    expect(chunks.map((c) => c.size)).toEqual(chunks.map((c) => wordCount.size(c.text)));
    expect(chunks.every((c) => c.size <= 5)).toBe(true);
    expect(chunks.slice(1, 3).map((c) => c.text.slice('B: '.length)).join(' ')).toBe('b1 b2 b3 b4 b5 b6');
    expect(chunks.some((c) => c.oversized)).toBe(false);
  });

  it('cuts a turn too large alone between sentences, each part with its speaker and its own source range', () => {
    const said = 'First we look at the budget. Then at the hires for next year.\nLast, the office move.';
    const text = `Ana: Shall we?\nBen: ${said}\nAna: Thanks.`;
    const chunks = byTurns({ turnsPerChunk: 3, sizer: wordCount, maxTokens: 10 })(source(text));
    expect(chunks.map((c) => [c.startTurn, c.endTurn, c.text, c.startLine, c.endLine])).toEqual([
      [0, 0, 'Ana: Shall we?', 1, 1],
      [1, 1, 'Ben: First we look at the budget.', 2, 2],
      [1, 1, 'Ben: Then at the hires for next year.', 2, 2],
      [1, 1, 'Ben: Last, the office move.', 3, 3],
      [2, 2, 'Ana: Thanks.', 4, 4],
    ]);
    expect(chunks.map((c) => c.metadata.isSplit)).toEqual([false, true, true, true, false]);
    expect(text.slice(chunks[1]!.start, chunks[1]!.end)).toBe(chunks[1]!.text);
    for (const c of chunks.slice(2, 4)) expect(`Ben: ${text.slice(c.start, c.end)}`).toBe(c.text);
  });

  it('measures each part with its speaker, where tokens join across the label (cl100k)', () => {
    const parts = (said: string, maxTokens: number) =>
      byTurns({ turnsPerChunk: 1, sizer: tiktokenSizer, maxTokens })(source(`Ana: ${said}`)).map((c) => [c.text, c.size]);
    // "Ana: 10 well" is 5 tokens, though "Ana:" is 2 and "10 well" 2: the space before a number is a token of its own.
    expect(parts('yes 10 well', 4)).toEqual([['Ana: yes', 3], ['Ana: 10', 4], ['Ana: well', 3]]);
    // "Ana: Hello there," is 5 tokens, not 2 + 3 + 1: the label's space joins "Hello", and the part fills maxTokens.
    expect(parts('Hello there, how are you doing?', 5)).toEqual([['Ana: Hello there,', 5], ['Ana: how are', 4], ['Ana: you doing?', 5]]);
  });

  it('keeps a turn whole, flagged oversized, when its speaker alone fills maxTokens', () => {
    const chunks = byTurns({ turnsPerChunk: 1, sizer: wordCount, maxTokens: 2 })(source('Dr. Ana Lee: one two three'));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ text: 'Dr. Ana Lee: one two three', oversized: true, metadata: { oversizedReason: 'turn longer than maxTokens' } });
  });

  it('keeps a turn with nothing said whole when only the space after its colon takes it over', () => {
    const spaces: Sizer = { size: (t) => t.length + (t.endsWith(' ') ? 10 : 0) };
    const chunks = byTurns({ turnsPerChunk: 1, sizer: spaces, maxTokens: 8 })(source('Ana:\nBen: ok'));
    expect(chunks.map((c) => [c.text, c.startTurn, c.oversized])).toEqual([['Ana: ', 0, true], ['Ben: ok', 1, undefined]]);
  });

  it('points every part of a long JSONL turn at its record', () => {
    const text = '{"speaker":"A","text":"one two three four five six"}';
    const chunks = byTurns({ sizer: wordCount, maxTokens: 4 })(source(text));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.text.slice('A: '.length)).join(' ')).toBe('one two three four five six');
    for (const c of chunks) expect([c.start, c.end, c.size <= 4, c.startTurn, c.endTurn]).toEqual([0, text.length, true, 0, 0]);
  });

  it('drops windows below minTokens', () => {
    const text = 'A: a\nB: b\nA: c c c c';
    const chunks = byTurns({ turnsPerChunk: 1, overlapTurns: 0, sizer: wordCount, minTokens: 3 })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['A: c c c c']);
    expect(chunks[0]!.index).toBe(0);
  });

  it('emits an identical chunk text once', () => {
    const text = 'A: hi\nB: hi\nA: hi\nB: hi\nA: bye';
    const chunks = byTurns({ turnsPerChunk: 2, overlapTurns: 0 })(source(text));
    expect(chunks.map((c) => [c.text, c.startTurn])).toEqual([['A: hi\nB: hi', 0], ['A: bye', 4]]);
    expect(chunks.map((c) => c.index)).toEqual([0, 1]);
  });

  it('refuses bad options at creation', () => {
    expect(() => byTurns({ turnsPerChunk: 0 })).toThrow('Invalid option turnsPerChunk: must be an integer >= 1, got 0');
    expect(() => byTurns({ overlapTurns: -1 })).toThrow('Invalid option overlapTurns: must be an integer >= 0, got -1');
    expect(() => byTurns({ maxTokens: 0 })).toThrow('Invalid option maxTokens: must be a number > 0, got 0');
    expect(() => byTurns({ minTokens: -2 })).toThrow('Invalid option minTokens: must be a number >= 0, got -2');
    expect(() => byTurns({ minTokens: 10, maxTokens: 5 })).toThrow('Invalid option minTokens: must not exceed maxTokens (5), got 10');
  });

  it('fails with ERR_TRANSCRIPT_INVALID on text that is not a transcript', () => {
    expect(() => byTurns()(source('# A heading\n\nprose'))).toThrow(expect.objectContaining({ code: 'ERR_TRANSCRIPT_INVALID' }));
  });

  it('gives no chunks for an empty transcript', () => {
    expect(byTurns()(source(''))).toEqual([]);
  });
});

describe('createTurnsCore', () => {
  it('refuses blocks that are not turns', () => {
    const core = createTurnsCore(normalizeTurns(), { documentId: 'd' });
    const block = { kind: 'paragraph', text: 'x', start: 0, end: 1, startLine: 1, endLine: 1 } as Block;
    expect(() => core.write(block)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INPUT' }));
  });

  it('numbers turns itself when blocks carry no turn index', () => {
    const core = createTurnsCore(normalizeTurns({ turnsPerChunk: 2, overlapTurns: 0 }), { documentId: 'd' });
    const turn = (i: number): Block => ({ kind: 'paragraph', text: `S: ${i}`, start: i * 5, end: i * 5 + 4, startLine: i + 1, endLine: i + 1, speaker: 'S', utterance: String(i) });
    const out = [0, 1, 2].flatMap((i) => core.write(turn(i)));
    out.push(...core.end());
    expect(out.map((c) => [c.startTurn, c.endTurn])).toEqual([[0, 1], [2, 2]]);
  });
});
