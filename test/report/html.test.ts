import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript, sanitizeTerminal } from '../../src/report/escape.js';
import { renderComparison, renderReport } from '../../src/report/html.js';
import { openingWords } from '../../src/report/view.js';
import { REPORT_SCRIPT } from '../../src/report/client.js';
import { fixtureStats, handMadeFixture, hostileFixture, markdownChunks } from './fixtures.js';

const SAMPLES = join(import.meta.dirname, '../../samples');

function count(haystack: string, needle: string | RegExp): number {
  return (haystack.match(needle instanceof RegExp ? new RegExp(needle.source, 'g') : new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g')) ?? []).length;
}

describe('escaping helpers', () => {
  it('escapeHtml escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('jsonForScript leaves no < > & or line separators and parses back to the same value', () => {
    const value = { s: '</script><!-- & \u2028\u2029' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('sanitizeTerminal makes ESC, BEL, lone CR and bidi overrides visible and keeps tabs and line ends', () => {
    expect(sanitizeTerminal('a\x1b[31mred\x07\rb\r\nc\td\u202e')).toBe('a\u241b[31mred\u2407\u240db\nc\td<U+202E>');
  });
});

describe('renderReport', () => {
  it('draws exactly one band per chunk, overlap included, and embeds one fact record per chunk', () => {
    const { text, chunks } = handMadeFixture();
    const html = renderReport(chunks, text, fixtureStats(chunks), { unit: 'chars', maxSize: 60, targetSize: 45 });
    expect(count(html, /<div class="band /)).toBe(chunks.length);
    // The text chunks 4 and 5 share sits in one strip between their bands, in both their colours.
    expect(count(html, /<div class="shared /)).toBe(1);
    expect(html).toContain('<div class="shared from0" data-k="5" data-ov="4 5"');
    expect(html).toMatch(/data-label="shared by #4 and #5">Epsilon zeta eta theta\.<\/div><div class="band b1 oversized" id="c5"/);
    expect(count(html, 'class="ov"')).toBe(0);
    expect(count(html, 'class="add pre"')).toBe(2);
    expect(count(html, 'class="add suf"')).toBe(1);
    expect(html).toContain('class="band b1 lonely"');
    expect(html).toMatch(/class="band b1 oversized"/);
    expect(html).toContain('data-label="#1 · 53 chars · p. 1–2 · split table/code"');
    expect(html).toContain('data-label="#3 · 9 chars · p. 2 · heading only"');
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(data.views[0].chunks.map((c: { id: string }) => c.id)).toEqual(chunks.map((c) => c.id));
    expect(data.views[0].chunks[5]).toMatchObject({ overlapPrev: 23, flags: ['oversized', 'split'] });
    expect(data.views[0].chunks[3].flags).toEqual(['heading only']);
  });

  it('is self-contained: no external URL is loaded, and the CSP admits only its own script by hash', () => {
    const text = readFileSync(join(SAMPLES, 'guide.md'), 'utf8');
    const chunks = markdownChunks(text, 400);
    const html = renderReport(chunks, text, fixtureStats(chunks), { unit: 'chars' });
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<link\b|@import|url\(/);
    const hash = createHash('sha256').update(REPORT_SCRIPT).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain(`<script>${REPORT_SCRIPT}</script>`);
  });

  it('escapes hostile text everywhere it lands: body, prefix, suffix, breadcrumb, title, facts', () => {
    const { text, chunks } = hostileFixture();
    const html = renderReport(chunks, text, fixtureStats(chunks, { warnings: ['<script>alert("warn")</script>'] }));
    // Exactly the report's own elements, none from the document.
    expect(count(html, /<script/i)).toBe(2);
    expect(count(html, /<\/script/i)).toBe(2);
    expect(count(html, /<style/i)).toBe(1);
    expect(count(html, /<\/style/i)).toBe(1);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<a\s[^>]*href="javascript:/i);
    expect(html).not.toMatch(/href="(?!#[ch]\d+")/);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1; alert(&quot;heading&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;/style&gt;&lt;style&gt;body{display:none}&lt;/style&gt;');
    expect(html).toContain('<title>&quot;&gt;&lt;script&gt;alert(8)&lt;/script&gt; · chunks</title>');
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);
    const view = data.views[0];
    expect(view.crumbs[view.chunks[0].crumb]).toBe(chunks[0]!.heading.breadcrumb);
    expect(view.chunks[0].languages).toEqual(['</script><script>window.__pwned=7</script>']);
  });

  it('rejects chunks that do not point into the given text', () => {
    const { chunks } = handMadeFixture();
    expect(() => renderReport(chunks, 'something else entirely, long enough to hold every offset of the fixture chunks .....................................................................................................', undefined)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INPUT' }),
    );
  });

  it('prints every setting in the header, overlap as the share of indexed text it repeats', () => {
    const { text, chunks } = handMadeFixture();
    const html = renderReport(chunks, text, fixtureStats(chunks), {
      strategy: 'semantic', unit: 'tokens', encoding: 'o200k_base', targetSize: 45, minSize: 11, maxSize: 60, overlap: 8, splitLevels: [1, 2],
    });
    // 23 of the 193 indexed characters are a second copy.
    const indexed = chunks.reduce((n, c) => n + c.end - c.start, 0);
    expect(indexed).toBe(193);
    expect(html).toContain('<p class="set">semantic · tokens (o200k_base) · target 45 · min 11 · max 60 · overlap 8 (12% of indexed text repeated) · split levels 1, 2</p>');
    expect(html).toMatch(/<td>overlap chars<\/td><td>23 \(12% of indexed text repeated\)<\/td>/);
  });

  it('makes each problem count a button naming what it steps through, and leaves zero counts plain', () => {
    const { text, chunks } = handMadeFixture();
    const html = renderReport(chunks, text, undefined, { unit: 'chars', maxSize: 50, minSize: 20 });
    // Chunk 3 (9 chars) is heading-only and undersized, chunk 5 oversized, chunks 1 and 5 above 50.
    expect(html).toContain('<tr class="warn" data-problem="oversized"><td>oversized</td><td><button type="button" class="prob" data-view="0" data-problem="oversized"');
    expect(html).toMatch(/data-problem="above"><td>above max<\/td><td><button [^>]*>2<\/button>/);
    expect(html).toMatch(/data-problem="undersized"><td>undersized<\/td><td><button [^>]*>1<\/button>/);
    expect(html).toMatch(/data-problem="lonely"><td>heading-only chunks<\/td><td><button [^>]*>1<\/button>/);
    expect(html).toMatch(/data-problem="lost"><td>text outside chunks<\/td><td>0 chars<\/td>/);
    expect(html).toContain('class="band b1 lonely under"');
    // The legend names every mark the text can carry.
    const legend = /<div class="legend">(.*?)<\/div>/.exec(html)![1]!.replace(/<[^>]*>/g, '|');
    for (const entry of ['chunk', 'next chunk', 'shared by two chunks', 'added text', 'not in any chunk', 'heading only', 'undersized', 'oversized / above max']) {
      expect(legend).toContain(`|${entry}|`);
    }
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(data.views[0]).toMatchObject({ minSize: 20, maxSize: 50 });
    expect(data.views[0].chunks[3].flags).toEqual(['heading only', 'undersized']);
    expect(data.views[0].chunks[1].flags).toEqual(['above max', 'split', 'code', 'table']);
  });

  it('links the outline to anchors at each heading, placed exactly from heading marks or found in the text', () => {
    const text = readFileSync(join(SAMPLES, 'guide.md'), 'utf8');
    const chunks = markdownChunks(text, 400);
    const found = renderReport(chunks, text, undefined, { unit: 'chars' });
    const anchors = [...found.matchAll(/<a href="#h(\d+)" data-h="\d+" title="H(\d) ([^"]*)">/g)];
    expect(anchors.length).toBeGreaterThan(3);
    for (const [, n, , title] of anchors) {
      // The anchor sits right before the heading's line in the text.
      const at = found.indexOf(`<span class="h" id="h${n}"></span>`);
      expect(at).toBeGreaterThan(0);
      const after = found.slice(at).replace(/<[^>]*>/g, '');
      expect(after).toMatch(new RegExp(`^(#+ )?${title!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    const exact = renderReport(chunks, text, undefined, { unit: 'chars', headings: [{ offset: 0, depth: 1, title: 'First' }, { offset: chunks[2]!.start, depth: 2, title: 'Second' }] });
    expect([...exact.matchAll(/data-h="(\d+)" title="([^"]*)"/g)].map((m) => m[2])).toEqual(['H1 First', 'H2 Second']);
    expect(exact).toMatch(/<div class="band b0" id="c2"[^>]*><span class="h" id="h1"><\/span>/);
  });

  it('gives the chunk list what tells rows apart: the last heading and the opening words', () => {
    const { text, chunks } = handMadeFixture();
    const html = renderReport(chunks, text, undefined, { unit: 'chars' });
    // The list itself is built by the page script, from the facts.
    expect(html).toContain('<ol class="chunks scroll" id="chunk-list" data-view="0"></ol>');
    const view = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!).views[0];
    expect(view.heads[view.chunks[4].head]).toBe('Next');
    expect(view.chunks[4].open).toBe('## Next Alpha beta gamma delta. Epsilon zeta eta theta.');
    expect(view.heads[view.chunks[0].head]).toBe('Guide');
    expect(openingWords('one  two\n\nthree')).toBe('one two three');
    const long = openingWords('word '.repeat(40));
    expect(long.endsWith('…')).toBe(true);
    expect(long.length).toBeLessThanOrEqual(65);
  });

  it('gives the chunk box where a PDF chunk is drawn: per page, the box around its boxes there, to a point', () => {
    const { text, chunks } = handMadeFixture();
    const lines = [
      { page: 1, x: 72.4, y: 700.2, width: 200, height: 10 },
      { page: 2, x: 80, y: 90.5, width: 100.2, height: 10 },
      { page: 1, x: 72.4, y: 712.2, width: 150, height: 10 },
    ];
    const withBoxes = chunks.map((c, k) => (k === 1 ? { ...c, boxes: lines } : c));
    const html = renderReport(withBoxes, text, undefined, { unit: 'chars' });
    const view = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!).views[0];
    expect(view.chunks[1].boxes).toEqual([
      [1, 72, 700, 201, 23],
      [2, 80, 90, 101, 11],
    ]);
    expect(view.chunks[0].boxes).toBeUndefined();
  });

  it('renders a comparison: one document column per run, figures in columns, histograms on one scale', () => {
    const text = readFileSync(join(SAMPLES, 'guide.md'), 'utf8');
    const small = markdownChunks(text, 200, 'guide');
    const large = markdownChunks(text, 600, 'guide');
    const html = renderComparison(
      [
        { label: '--max-size 200', chunks: small, statistics: fixtureStats(small), settings: { unit: 'chars', maxSize: 200 } },
        { label: '--max-size 600', chunks: large, statistics: fixtureStats(large), settings: { unit: 'chars', maxSize: 600 } },
      ],
      text,
      { title: 'guide.md' },
    );
    expect(html).toContain('<body class="compare">');
    expect(count(html, /<main class="doc" id="doc" data-view="0"/)).toBe(1);
    expect(count(html, /<main class="doc" id="v1-doc" data-view="1"/)).toBe(1);
    expect(count(html, /<div class="band [^"]*" id="c\d+"/)).toBe(small.length);
    expect(count(html, /<div class="band [^"]*" id="v1-c\d+"/)).toBe(large.length);
    expect(html).toMatch(new RegExp(`<tr><td>chunks</td><td>${small.length}</td><td>${large.length}</td></tr>`));
    expect(html).toContain('<span class="tag t0">A</span> <code>--max-size 200</code>');
    // Both histograms end their axis at the same size.
    const ends = [...html.matchAll(/<svg class="histogram" data-view="(\d)"(.*?)<\/svg>/gs)].map((m) => /<text class="tick unit" x="([\d.]+)"/.exec(m[2]!)![1]);
    expect(ends).toHaveLength(2);
    const lastTicks = [...html.matchAll(/<svg class="histogram"(.*?)<\/svg>/gs)].map((m) => [...m[1]!.matchAll(/text-anchor="(?:middle|end)">([\d,]+)<\/text>/g)].map((t) => t[1]).at(-1));
    expect(lastTicks[0]).toBe(lastTicks[1]);
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(data.views.map((v: { tag: string; chunks: unknown[] }) => [v.tag, v.chunks.length])).toEqual([['A', small.length], ['B', large.length]]);
    expect(() => renderComparison([], text)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INPUT' }));
  });

  it('renders an empty chunk list as a page without bands', () => {
    const html = renderReport([], 'only whitespace? no: text', undefined, { title: 'empty' });
    expect(count(html, /<div class="band /)).toBe(0);
    expect(html).toContain('No chunks.');
    expect(html).toContain('class="lost"');
  });
});
