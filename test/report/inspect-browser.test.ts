/**
 * Reports made by `chunkstream inspect` from real documents, opened in headless chromium: a Markdown sample, and
 * the 352-page freeculture.pdf of the corpus at a desktop and a phone screen, alone and compared. Screenshots land
 * in `test/artifacts/` (the README's pictures in `docs/` are copies of them); the time each report took to be
 * ready is printed, not asserted (`bench/report.ts` measures it against its budget).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPdf } from '../support/pdf-corpus.js';
import { describeCorpus, itWithCorpusFile } from '../support/corpus.js';
import { ARTIFACTS, DESKTOP, HAS_BROWSER, PHONE, chunkInView, embedded, frames, inspectToHtml, litChunk, openReport, press, useBrowser } from './browser-support.js';

const SAMPLES = join(import.meta.dirname, '../../samples');
const FREECULTURE = corpusPdf('freeculture.pdf');
/** Seconds freeculture.pdf may take to read: the default (25) can run out on a machine other work loads. */
const PDF_SECONDS = 300;

/** The chunk count `inspect` reported on stderr. */
const chunkCount = (err: string): number => Number(/: (\d+) chunks/.exec(err)![1]);

describe.skipIf(!HAS_BROWSER)('inspect reports of the samples in chromium', () => {
  const browser = useBrowser();

  it('Markdown sample: bands equal chunks, a chunk with a repeated table header shows it as added text', async () => {
    const file = join(ARTIFACTS, 'inspect-guide.html');
    const count = chunkCount(await inspectToHtml([join(SAMPLES, 'guide.md'), '--max-size', '64', '--overlap', '8'], file));
    const v = await openReport(browser(), file, DESKTOP);
    const page = v.page;
    expect(await page.locator('#doc .band').count()).toBe(count);
    const added = page.locator('#doc .add.pre').first();
    expect(await added.count()).toBe(1);
    const band = added.locator('xpath=ancestor::div[contains(@class, "band")]');
    const k = Number(await band.getAttribute('data-k'));
    await page.click(`#chunk-list a[data-k="${k}"]`);
    await frames(page);
    const info = await page.locator('#info').innerText();
    // Ids come from the chunk's content: the box names one of this document's.
    expect(info).toMatch(/guide\.md#[0-9a-f]{16}\b/);
    expect(info).toMatch(/\d+ tokens \(\d+% of max 64\)/);
    expect(info).toMatch(/added\s+\d+ chars before/);
    // The added text is drawn where its columns are: it starts at the band's text edge, as the row under it does.
    const lefts = await page.evaluate((key) => {
      const b = document.getElementById(`c${key}`) as HTMLElement;
      const add = b.querySelector('.add.pre') as HTMLElement;
      const range = document.createRange();
      range.setStart(add.firstChild as Text, 0);
      range.setEnd(add.firstChild as Text, 1);
      const after = add.nextSibling as Text;
      const next = document.createRange();
      next.setStart(after, 0);
      next.setEnd(after, 1);
      return [range.getBoundingClientRect().left, next.getBoundingClientRect().left];
    }, k);
    expect(Math.abs(lefts[0]! - lefts[1]!)).toBeLessThanOrEqual(2);
    await page.screenshot({ path: join(ARTIFACTS, 'inspect-guide.png') });
    expect(v.problems).toEqual([]);
    await v.close();
  });

  it('a heading with nothing under it before a shallower one is a problem one click away', async () => {
    // `## Empty` has no text, and `# Next` is no subsection of it to open: it stays a chunk of its own.
    const source = join(ARTIFACTS, 'inspect-lonely.md');
    writeFileSync(source, '# Guide\n\nRead this first.\n\n## Empty\n\n# Next\n\nMore text follows here.\n');
    const file = join(ARTIFACTS, 'inspect-lonely.html');
    await inspectToHtml([source, '--max-size', '64'], file);
    const v = await openReport(browser(), file, DESKTOP);
    await press(v.page, DESKTOP, 'button.prob[data-problem="lonely"]');
    const k = await litChunk(v.page);
    const { views } = await embedded(v.page);
    expect(views[0]!.chunks.filter((c) => c.flags?.includes('heading only')).map((c) => c.start)).toEqual([views[0]!.chunks[k]!.start]);
    expect(views[0]!.chunks[k]!.start).toBe('# Guide\n\nRead this first.\n\n'.length);
    expect(await chunkInView(v.page, k)).toBe(true);
    await v.close();
  });
});

describeCorpus('inspect reports of real documents', () =>
  describe.skipIf(!HAS_BROWSER)('in chromium', () => {
    const browser = useBrowser();

    itWithCorpusFile('pdf/freeculture.pdf')('freeculture.pdf (352 pages) at --max-size 256 --overlap 32 --min-size 96: ready, scrolls end to end, problems and the minimap lead to their chunks, at a desktop and a phone screen', async () => {
      const file = join(ARTIFACTS, 'inspect-freeculture.html');
      const count = chunkCount(await inspectToHtml([FREECULTURE, '--timeout', String(PDF_SECONDS), '--max-size', '256', '--overlap', '32', '--min-size', '96'], file));
      for (const screen of [DESKTOP, PHONE]) {
        const v = await openReport(browser(), file, screen);
        const page = v.page;
        expect(await page.locator('#doc > .band').count()).toBe(count);
        expect(await page.locator('#doc .page').count()).toBeGreaterThan(300);
        expect(await page.locator('.minimap .mm-marks i').count()).toBe(count);
        // Scroll the whole text in twenty steps, waiting for a frame after each: a frozen page would stall here.
        const t0 = performance.now();
        const steps = await page.evaluate(async () => {
          const doc = document.getElementById('doc') as HTMLElement;
          const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
          const times: number[] = [];
          for (let i = 1; i <= 20; i++) {
            const s = performance.now();
            doc.scrollTop = (doc.scrollHeight * i) / 20;
            await frame();
            times.push(performance.now() - s);
          }
          return times;
        });
        const scrollMs = performance.now() - t0;
        // The first undersized chunk (a section's end under --min-size 96) is one click away.
        const { views } = await embedded(page);
        await press(page, screen, 'button.prob[data-problem="undersized"]');
        const k = await litChunk(page);
        expect(views[0]!.chunks[k]!.flags ?? []).toContain('undersized');
        expect(await chunkInView(page, k)).toBe(true);
        // The minimap leads to the middle of the book.
        const point = await page.evaluate(() => {
          const box = (document.querySelector('.minimap .mm-marks') as HTMLElement).getBoundingClientRect();
          // Whole pixels: marks are thinner than a pixel here, and events carry whole coordinates.
          const x = Math.floor(box.left + box.width / 2);
          const y = Math.floor(box.top + box.height / 2);
          return { x, y, k: Number((document.elementFromPoint(x, y) as HTMLElement).getAttribute('data-k')) };
        });
        if (screen.touch) await page.touchscreen.tap(point.x, point.y);
        else await page.mouse.click(point.x, point.y);
        await frames(page);
        expect(await litChunk(page)).toBe(point.k);
        expect(await chunkInView(page, point.k)).toBe(true);
        expect(await page.locator('#info').innerText()).toMatch(/pages\s+\d+/);
        console.log(
          `inspect-freeculture (${screen.name} ${screen.width}×${screen.height}): ${count} chunks, ready in ${v.readyMs.toFixed(0)} ms, 20 scroll steps in ${scrollMs.toFixed(0)} ms (median frame ${[...steps].sort((a, b) => a - b)[10]!.toFixed(0)} ms, slowest ${Math.max(...steps).toFixed(0)} ms)`,
        );
        await page.screenshot({ path: join(ARTIFACTS, `inspect-freeculture-${screen.name}.png`), scale: 'css' });
        expect(v.problems).toEqual([]);
        await v.close();
      }
    });

    itWithCorpusFile('pdf/freeculture.pdf')('freeculture.pdf compared at --max-size 256 --overlap 32 and --max-size 512 --overlap 64: ready, both views, aligned', async () => {
      const file = join(ARTIFACTS, 'inspect-freeculture-compare.html');
      const err = await inspectToHtml([FREECULTURE, '--timeout', String(PDF_SECONDS), '--compare', '--max-size 256 --overlap 32', '--max-size 512 --overlap 64'], file);
      const [a, b] = [...err.matchAll(/(\d+) chunks/g)].map((m) => Number(m[1]));
      const v = await openReport(browser(), file, DESKTOP);
      const page = v.page;
      expect(await page.locator('#doc > .band').count()).toBe(a);
      expect(await page.locator('#v1-doc > .band').count()).toBe(b);
      // Open a chapter from the outline: both views show it at their top.
      const link = page.locator('ol.outline a[title="H2 9: Collectors"]');
      await link.scrollIntoViewIfNeeded();
      const n = Number(await link.getAttribute('data-h'));
      await press(page, DESKTOP, `ol.outline a[data-h="${n}"]`);
      const tops = await page.evaluate((h) =>
        ['doc', 'v1-doc'].map((id, i) => {
          const doc = document.getElementById(id) as HTMLElement;
          const anchor = document.getElementById(`${i === 0 ? '' : 'v1-'}h${h}`) as HTMLElement;
          return anchor.getBoundingClientRect().top - doc.getBoundingClientRect().top;
        }),
      n);
      for (const top of tops) {
        expect(top).toBeGreaterThanOrEqual(0);
        expect(top).toBeLessThan(100);
      }
      console.log(`inspect-freeculture compare: ${a} and ${b} chunks, ready in ${v.readyMs.toFixed(0)} ms`);
      await page.screenshot({ path: join(ARTIFACTS, 'inspect-freeculture-compare.png') });
      expect(v.problems).toEqual([]);
      await v.close();
    });
  }),
);
