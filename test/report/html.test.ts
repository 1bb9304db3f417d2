import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript, sanitizeTerminal } from '../../src/report/escape.js';
import { renderReport } from '../../src/report/html.js';
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
    expect(count(html, 'class="ov"')).toBe(1);
    expect(count(html, 'class="add pre"')).toBe(2);
    expect(count(html, 'class="add suf"')).toBe(1);
    expect(html).toContain('class="band b1 lonely"');
    expect(html).toMatch(/class="band b1 oversized"/);
    expect(html).toContain('<a href="#c3" data-k="3" class="flag-lonely">');
    expect(html).toContain('data-label="#1 · 53 chars · p. 1–2 · split table/code"');
    expect(html).toContain('data-label="#3 · 9 chars · p. 2 · heading only"');
    expect(html).toContain('<a href="#c5" data-k="5" class="flag-over">');
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(data.chunks.map((c: { id: string }) => c.id)).toEqual(chunks.map((c) => c.id));
    expect(data.chunks[5]).toMatchObject({ overlapPrev: 23, flags: ['oversized', 'split'] });
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
    expect(html).not.toMatch(/href="(?!#c\d+")/);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1; alert(&quot;heading&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;/style&gt;&lt;style&gt;body{display:none}&lt;/style&gt;');
    expect(html).toContain('<title>&quot;&gt;&lt;script&gt;alert(8)&lt;/script&gt; · chunks</title>');
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(data.crumbs[data.chunks[0].crumb]).toBe(chunks[0]!.heading.breadcrumb);
    expect(data.chunks[0].languages).toEqual(['</script><script>window.__pwned=7</script>']);
  });

  it('rejects chunks that do not point into the given text', () => {
    const { chunks } = handMadeFixture();
    expect(() => renderReport(chunks, 'something else entirely, long enough to hold every offset of the fixture chunks .....................................................................................................', undefined)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INPUT' }),
    );
  });

  it('renders an empty chunk list as a page without bands', () => {
    const html = renderReport([], 'only whitespace? no: text', undefined, { title: 'empty' });
    expect(count(html, /<div class="band /)).toBe(0);
    expect(html).toContain('No chunks.');
    expect(html).toContain('class="lost"');
  });
});
