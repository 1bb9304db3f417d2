/**
 * The HTML report in a real browser: Debian's chromium, driven headless by playwright-core, opening generated
 * reports from `file://` URLs. Screenshots and the reports themselves land in `test/artifacts/` (not committed).
 * Skipped, with a note, where `/usr/bin/chromium` is missing; `.ci/run` installs it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { renderReport, type ReportOptions } from '../../src/report/html.js';
import type { Chunk } from '../../src/types.js';
import { prose } from '../support/pdf-samples.js';
import { ARTIFACTS, CHROMIUM, HAS_BROWSER, openReport, useBrowser, type Visit } from './browser-support.js';
import { fixtureStats, handMadeFixture, hostileFixture, markdownChunks } from './fixtures.js';

const SAMPLES = join(import.meta.dirname, '../../samples');
if (!HAS_BROWSER) console.warn(`${CHROMIUM} is missing: browser tests of the report are skipped (.ci/run installs it)`);

/** A generated Markdown document of about `length` characters: sections of prose, nested link lists and code. */
function largeMarkdown(length: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const part =
      `## Section ${i}\n\n${prose(80, i + 1)}\n\n` +
      `- [${prose(3, i + 2)}](https://example.org/${i})\n  - [${prose(4, i + 3)}](https://example.org/${i}/a)\n  - ${prose(12, i + 4)}\n\n` +
      (i % 5 === 0 ? '```js\nconst x = ' + i + ';\n```\n\n' : '');
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

/** Writes a report to the artifacts folder and opens it from disk. */
async function open(browser: Browser, name: string, chunks: readonly Chunk[], text: string, options: ReportOptions): Promise<Visit> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.html`);
  writeFileSync(file, renderReport(chunks, text, fixtureStats(chunks), options));
  return openReport(browser, file);
}

describe.skipIf(!HAS_BROWSER)('HTML report in chromium', () => {
  const browser = useBrowser();

  it('shows one band per chunk of a Markdown sample, and a hovered chunk\'s id and size', async () => {
    const text = readFileSync(join(SAMPLES, 'guide.md'), 'utf8');
    const chunks = markdownChunks(text, 400, 'guide.md');
    const v = await open(browser(), 'report-guide', chunks, text, { unit: 'chars', targetSize: 300, maxSize: 400 });
    expect(await v.page.locator('#doc .band').count()).toBe(chunks.length);
    const k = 3;
    await v.page.hover(`#c${k}`);
    const info = await v.page.locator('#info').innerText();
    expect(info).toContain(chunks[k]!.id);
    expect(info).toContain(`${chunks[k]!.size} chars`);
    expect(info).toContain(chunks[k]!.heading.breadcrumb);
    expect(await v.page.locator(`#c${k}.lit`).count()).toBe(1);
    await v.page.screenshot({ path: join(ARTIFACTS, 'report-guide.png') });
    expect(v.problems).toEqual([]);
    await v.close();
  });

  it('with overlap and added text: bands still count chunks, hover lights the shared text, the side panel jumps', async () => {
    const { text, chunks } = handMadeFixture();
    const v = await open(browser(), 'report-overlap', chunks, text, { unit: 'chars', targetSize: 45, maxSize: 60, title: 'overlap, prefixes, pages' });
    expect(await v.page.locator('#doc .band').count()).toBe(chunks.length);
    expect(await v.page.locator('#doc > .shared').count()).toBe(1);
    // The text chunks 4 and 5 share sits in a strip between their bands; hovering either lights it.
    await v.page.hover('#c4');
    expect(await v.page.locator('#doc > .shared[data-ov="4 5"].lit').count()).toBe(1);
    expect(await v.page.locator('#info').innerText()).toContain(chunks[4]!.id);
    // Clicking a row of the chunk list pins that chunk.
    await v.page.click('#chunk-list a[data-k="1"]');
    const info = await v.page.locator('#info').innerText();
    expect(info).toContain(chunks[1]!.id);
    expect(info).toMatch(/^Pinned/);
    expect(await v.page.locator('#c1 .add.lit').count()).toBe(2);
    await v.page.mouse.move(5, 5);
    await v.page.hover('#c0');
    // Pinned: hovering another chunk does not change the box.
    expect(await v.page.locator('#info').innerText()).toContain(chunks[1]!.id);
    await v.page.screenshot({ path: join(ARTIFACTS, 'report-overlap.png') });
    expect(v.problems).toEqual([]);
    await v.close();
  });

  it('the "text outside chunks" count goes to the text no chunk holds', async () => {
    const { text, chunks } = handMadeFixture();
    // Without chunk 2, the end of the code block is in no chunk.
    const holed = chunks.filter((c) => c.index !== 2);
    const v = await open(browser(), 'report-lost', holed, text, { unit: 'chars', maxSize: 60 });
    expect(await v.page.locator('#doc .lost').count()).toBeGreaterThan(0);
    await v.page.click('button.prob[data-problem="lost"]');
    const lit = await v.page.evaluate(() => {
      const el = document.querySelector('#doc .lost.lit') as HTMLElement | null;
      const doc = (document.getElementById('doc') as HTMLElement).getBoundingClientRect();
      const r = el?.getBoundingClientRect();
      return el === null || r === undefined ? null : { text: el.textContent, inView: r.bottom > doc.top && r.top < doc.bottom };
    });
    expect(lit).toEqual({ text: expect.stringContaining('const y = 2;'), inView: true });
    expect(await v.page.locator('#problem-state').innerText()).toBe('text outside chunks: 1 of 1');
    expect(v.problems).toEqual([]);
    await v.close();
  });

  it('runs nothing from a hostile document and shows its markup as text', async () => {
    const { text, chunks } = hostileFixture();
    const v = await open(browser(), 'report-hostile', chunks, text, { unit: 'chars' });
    expect(await v.page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(v.dialogs).toEqual([]);
    expect(await v.page.locator('#doc img, #doc script, #doc style, #doc a').count()).toBe(0);
    const shown = await v.page.locator('#doc').innerText();
    expect(shown).toContain('# <script>window.__pwned = 1; alert("heading")</script>');
    expect(shown).toContain('<a href="javascript:alert(1)">there</a>');
    expect(shown).toContain('<script>window.__pwned = 5</script>');
    expect(await v.page.locator('body').isVisible()).toBe(true);
    await v.page.hover('#c0');
    expect(await v.page.locator('#info').innerText()).toContain('<script>alert("crumb")</script>');
    expect(await v.page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await v.page.screenshot({ path: join(ARTIFACTS, 'report-hostile.png') });
    expect(v.problems).toEqual([]);
    await v.close();
  });

  it('stays usable on a ~700k-character document: interactive, scrolls to the end, hover works there', async () => {
    const text = largeMarkdown(700_000);
    const chunks = markdownChunks(text, 350, 'large.md');
    const v = await open(browser(), 'report-large', chunks, text, { unit: 'chars', targetSize: 260, maxSize: 350 });
    expect(await v.page.locator('#doc .band').count()).toBe(chunks.length);
    const last = chunks.length - 1;
    const t0 = performance.now();
    await v.page.evaluate(() => {
      const doc = document.getElementById('doc') as HTMLElement;
      doc.scrollTop = doc.scrollHeight;
    });
    await v.page.click(`#chunk-list a[data-k="${last}"]`);
    await v.page.locator(`#c${last}`).hover();
    const info = await v.page.locator('#info').innerText();
    const jumpMs = performance.now() - t0;
    expect(info).toContain(chunks[last]!.id);
    console.log(`report-large: ${text.length} chars, ${chunks.length} chunks, ready in ${v.readyMs.toFixed(0)} ms, scroll+jump+hover in ${jumpMs.toFixed(0)} ms`);
    await v.page.screenshot({ path: join(ARTIFACTS, 'report-large.png') });
    expect(v.problems).toEqual([]);
    await v.close();
  });
});
