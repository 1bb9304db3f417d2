import { describe, expect, it } from 'vitest';
import { renderTerminal } from '../../src/report/terminal.js';
import { fixtureStats, handMadeFixture, hostileFixture } from './fixtures.js';

describe('renderTerminal', () => {
  const { text, chunks } = handMadeFixture();
  const stats = fixtureStats(chunks);

  it('without colour, marks every chunk, overlap, added text and page with plain markers and no escape codes', () => {
    const out = renderTerminal(chunks, text, stats, { color: false, unit: 'chars', maxSize: 60, targetSize: 45 });
    expect(out).not.toContain('\x1b');
    expect(out.match(/^──── #\d+ /gm)).toHaveLength(chunks.length);
    expect(out).toContain(`──── #3 ${chunks[3]!.id} · 9 chars (15%) · p. 2 · Guide > Lonely · HEADING ONLY ────`);
    expect(out).toContain('[overlap>Epsilon zeta eta theta.<overlap]');
    expect(out).toContain('{+prefix: ```js\n+}const y = 2;');
    expect(out).toContain('{+suffix: \n```+}');
    expect(out).toMatch(/==== page 1 ====\n──── #0 /);
    expect(out).toContain('==== pages 3–4 ====');
  });

  it('ends with the statistics and a size histogram marking target and max', () => {
    const out = renderTerminal(chunks, text, stats, { color: false, unit: 'chars', maxSize: 60, targetSize: 45 });
    const tail = out.slice(out.indexOf('\nStatistics\n'));
    expect(tail).toMatch(/ chunks +6\n/);
    expect(tail).toMatch(/ heading-only chunks +1\n/);
    expect(tail).toMatch(/ overlap chars +23\n/);
    expect(tail).toMatch(/← target/);
    expect(tail).toMatch(/← max/);
  });

  it('with colour, alternates two band colours and shows the document text unchanged between codes', () => {
    const out = renderTerminal(chunks, text, stats, { color: true, unit: 'chars' });
    expect(out).toContain('\x1b[36m# Guide');
    expect(out).toContain('\x1b[33m| 3 | 4 |');
    expect(out).toContain('\x1b[36m\x1b[7mEpsilon zeta eta theta.\x1b[0m'.replace('36', '33'));
    const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toContain('Alpha beta gamma delta. ');
    expect(plain).not.toContain('[overlap>');
  });

  it('never lets the document write control sequences to the terminal', () => {
    const t = 'safe \x1b[2J\x1b]0;title\x07 text\r overwritten';
    const c = { ...hostileFixture().chunks[0]!, text: t, start: 0, end: t.length };
    const out = renderTerminal([c], t, undefined, { color: false });
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(out).toContain('safe \u241b[2J\u241b]0;title\u2407 text\u240d overwritten');
  });
});

describe('renderTerminal against a limit', () => {
  it('flags a chunk above maxSize that the chunker did not mark oversized, and counts it', () => {
    const { text, chunks } = handMadeFixture();
    const out = renderTerminal(chunks, text, fixtureStats(chunks), { color: false, unit: 'chars', maxSize: 50 });
    expect(out).toMatch(new RegExp(`──── #1 ${chunks[1]!.id} · 53 chars \\(106%\\) .* ABOVE MAX`));
    expect(out).toMatch(/ above max +2\n/);
  });
});
