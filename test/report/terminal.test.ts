import { describe, expect, it } from 'vitest';
import { renderTerminal, renderTerminalComparison } from '../../src/report/terminal.js';
import { fixtureStats, handMadeFixture, hostileFixture } from './fixtures.js';

/** SGR sequences that set a foreground colour (30–37, 90–97), as opposed to bold, italic, underline, inverse. */
const COLOUR = /\x1b\[(?:\d+;)*(?:3[0-7]|9[0-7])(?:;\d+)*m/;

describe('renderTerminal', () => {
  const { text, chunks } = handMadeFixture();
  const stats = fixtureStats(chunks);
  const settings = { unit: 'chars', maxSize: 60, targetSize: 45, minSize: 11 } as const;

  it('without colour, marks every chunk, overlap, added text and page with plain markers and no escape codes', () => {
    const out = renderTerminal(chunks, text, stats, { ...settings, color: false });
    expect(out).not.toContain('\x1b');
    expect(out.match(/^──── #\d+ guide#/gm)).toHaveLength(chunks.length);
    expect(out).toContain(`──── #3 ${chunks[3]!.id} · 9 chars (15%) · p. 2 · Guide > Lonely · HEADING ONLY UNDERSIZED ────`);
    expect(out).toContain(`──── #5 ${chunks[5]!.id} · 45 chars (75%) · p. 4 · Guide > Next · OVERSIZED split first 23 chars shared ────`);
    expect(out).toContain('[overlap>Epsilon zeta eta theta.<overlap]');
    expect(out).toContain('{+prefix: ```js\n+}const y = 2;');
    expect(out).toContain('{+suffix: \n```+}');
    expect(out).toContain(`==== page 1 ====\n──── #0 ${chunks[0]!.id} `);
    expect(out).toContain('==== pages 3–4 ====');
  });

  it('numbers a chunk whose id does not end with its index', () => {
    const c = { ...chunks[0]!, id: 'custom-id' };
    const out = renderTerminal([c], text, undefined, { color: false, unit: 'chars' });
    expect(out).toMatch(/^──── #0 custom-id · /m);
  });

  it('starts with the settings and the statistics, then the chunks; or prints the statistics alone, or last', () => {
    const first = renderTerminal(chunks, text, stats, { ...settings, color: false, title: 'guide.md', strategy: 'semantic', overlap: 8, splitLevels: [1, 2] });
    const lines = first.split('\n');
    expect(lines[0]).toBe('guide.md · 6 chunks · semantic · chars · target 45 · min 11 · max 60 · overlap 8 (12% of indexed text repeated) · split levels 1, 2');
    const statsAt = first.indexOf('\nStatistics\n');
    expect(statsAt).toBeGreaterThan(0);
    expect(statsAt).toBeLessThan(first.indexOf('──── #0 guide#'));
    const tail = first.slice(statsAt, first.indexOf('──── #0 guide#'));
    expect(tail).toMatch(/ chunks +6\n/);
    expect(tail).toMatch(/ heading-only chunks +1\n/);
    expect(tail).toMatch(/ undersized +0\n/);
    expect(tail).toMatch(/ overlap chars +23 \(12% of indexed text repeated\)\n/);
    expect(tail).toMatch(/← min/);
    expect(tail).toMatch(/← target/);
    expect(tail).toMatch(/← max/);

    const only = renderTerminal(chunks, text, stats, { ...settings, color: false, statistics: 'only' });
    expect(only).toContain('\nStatistics\n');
    expect(only).not.toContain('────');
    expect(only).not.toContain('Alpha beta');

    const last = renderTerminal(chunks, text, stats, { ...settings, color: false, statistics: 'last' });
    expect(last.indexOf('\nStatistics\n')).toBeGreaterThan(last.lastIndexOf('──── #'));
  });

  it('says "1 chunk", not "1 chunks"', () => {
    const out = renderTerminal([chunks[0]!], text, undefined, { color: false, unit: 'chars', title: 'one.md' });
    expect(out.split('\n')[0]).toBe('one.md · 1 chunk · chars');
  });

  it('with colour, colours header lines only: the text keeps the terminal colour, shared text underlined', () => {
    const out = renderTerminal(chunks, text, stats, { ...settings, color: true });
    const lines = out.split('\n');
    for (const line of lines) {
      if (COLOUR.test(line)) expect(line.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/^──── /);
    }
    // Headers alternate cyan and magenta; a chunk with a problem is red.
    expect(out).toContain(`\x1b[1;36m──── #0 ${chunks[0]!.id} `);
    expect(out).toContain(`\x1b[1;35m──── #1 ${chunks[1]!.id} `);
    expect(out).toContain(`\x1b[1;31m──── #3 ${chunks[3]!.id} `);
    expect(out).toContain('\x1b[4mEpsilon zeta eta theta.\x1b[0m');
    expect(out).toContain('\x1b[3m```js\n\x1b[0mconst y = 2;');
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

describe('renderTerminalComparison', () => {
  it('prints one line per setting and the figures of both side by side', () => {
    const { text, chunks } = handMadeFixture();
    const fewer = chunks.filter((c) => c.index !== 3);
    const out = renderTerminalComparison(
      [
        { label: '--max-size 60', chunks, statistics: fixtureStats(chunks), settings: { unit: 'chars', maxSize: 60 } },
        { label: '--max-size 50', chunks: fewer, statistics: fixtureStats(fewer), settings: { unit: 'chars', maxSize: 50 } },
      ],
      text,
      { color: false, title: 'guide.md' },
    );
    expect(out).not.toContain('\x1b');
    expect(out.split('\n')[0]).toBe('guide.md · 2 settings compared');
    expect(out).toContain('  A  --max-size 60: chars · max 60');
    expect(out).toContain('  B  --max-size 50: chars · max 50');
    expect(out).toMatch(/^ +A +B$/m);
    expect(out).toMatch(/^ {2}chunks +6 +5$/m);
    expect(out).toMatch(/^ {2}above max +0 +2$/m);
    expect(out).toContain('Sizes of A (chars)');
    expect(out).toContain('Sizes of B (chars)');
  });
});
