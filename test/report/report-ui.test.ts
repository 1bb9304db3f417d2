/**
 * The report as a reader uses it, in headless chromium at a desktop (1440×900) and a phone (390×844, touch)
 * screen, on documents the tests make: a long generated Markdown with every kind of problem, cut by the chunker,
 * and a typeset PDF. Problems one click away, the minimap, the outline, overlap drawn in both chunks' colours,
 * the phone's sheet and buttons. Screenshots land in `test/artifacts/`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chunkFile } from '../../src/api/chunk.js';
import { ARTIFACTS, HAS_BROWSER, SCREENS, chunkInView, embedded, frames, inspectToHtml, litChunk, openReport, press, useBrowser, type EmbeddedView } from './browser-support.js';
import { problemMarkdown } from './fixtures.js';
import { longPdf } from '../support/pdf-samples.js';

const dir = mkdtempSync(join(tmpdir(), 'report-ui-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MARKDOWN = join(dir, 'field-notes.md');
writeFileSync(MARKDOWN, problemMarkdown());
const PDF = join(dir, 'long.pdf');
writeFileSync(PDF, longPdf(14));
// Split at `#` and `##` only, so that `###` details are packed together and some heading lies inside a chunk.
const MD_ARGS = [MARKDOWN, '--max-size', '128', '--overlap', '16', '--preserve-code', '--split-levels', '1,2'];

/** What makes a chunk count under each problem row, as the summary counts it. */
const KINDS: Record<string, (c: EmbeddedView['chunks'][number], v: EmbeddedView) => boolean> = {
  oversized: (c) => (c.flags ?? []).includes('oversized'),
  above: (c, v) => v.maxSize !== null && c.size > v.maxSize,
  undersized: (c, v) => v.minSize !== null && c.size < v.minSize,
  lonely: (c) => (c.flags ?? []).includes('heading only'),
};

/** Text of the problem bar. */
const problemState = (page: Page) => page.locator('#problem-state').innerText();

describe.skipIf(!HAS_BROWSER)('the report in chromium, as a reader uses it', () => {
  const browser = useBrowser();

  for (const screen of SCREENS) {
    describe(`on a ${screen.name} screen (${screen.width}×${screen.height})`, () => {
      it('each problem row and histogram bar lands on (and cycles through) chunks of its kind; n / p and ‹ › step through problems', async () => {
        const file = join(ARTIFACTS, `ui-problems-${screen.name}.html`);
        await inspectToHtml(MD_ARGS, file);
        const v = await openReport(browser(), file, screen);
        const { views } = await embedded(v.page);
        const view = views[0]!;
        for (const [kind, is] of Object.entries(KINDS)) {
          const expected = view.chunks.filter((c) => is(c, view)).length;
          expect(expected, kind).toBeGreaterThan(0);
          const row = `button.prob[data-view="0"][data-problem="${kind}"]`;
          expect(await v.page.locator(row).innerText()).toMatch(new RegExp(`^${expected}\\b`));
          const seen = new Set<number>();
          for (let i = 0; i < Math.min(3, expected); i++) {
            await press(v.page, screen, row);
            const k = await litChunk(v.page);
            expect(k, `${kind} #${i}`).toBeGreaterThanOrEqual(0);
            expect(is(view.chunks[k]!, view), `${kind}: chunk ${k} of size ${view.chunks[k]!.size}`).toBe(true);
            expect(await chunkInView(v.page, k)).toBe(true);
            seen.add(k);
            expect(await problemState(v.page)).toContain(`${i + 1} of ${expected}`);
          }
          expect(seen.size).toBe(Math.min(3, expected));
        }

        // The bin of the smallest chunk is drawn and clickable however few chunks it holds.
        const smallest = view.chunks.reduce((m, c) => Math.min(m, c.size), Infinity);
        const bin = await v.page.evaluate((size) => {
          const g = [...document.querySelectorAll('svg.histogram[data-view="0"] .bin')].find((b) => Number(b.getAttribute('data-lo')) <= size && size <= Number(b.getAttribute('data-hi')))!;
          const bar = g.querySelector('.bar') as SVGGraphicsElement;
          return { lo: Number(g.getAttribute('data-lo')), hi: Number(g.getAttribute('data-hi')), n: Number(g.getAttribute('data-n')), height: bar.getBoundingClientRect().height };
        }, smallest);
        expect(bin.height).toBeGreaterThanOrEqual(2);
        const inBin = view.chunks.filter((c) => c.size >= bin.lo && c.size <= bin.hi).length;
        expect(bin.n).toBe(inBin);
        const landed = new Set<number>();
        for (let i = 0; i < Math.min(2, inBin); i++) {
          await press(v.page, screen, `svg.histogram[data-view="0"] .bin[data-lo="${bin.lo}"] .hit`);
          const k = await litChunk(v.page);
          expect(view.chunks[k]!.size).toBeGreaterThanOrEqual(bin.lo);
          expect(view.chunks[k]!.size).toBeLessThanOrEqual(bin.hi);
          expect(await chunkInView(v.page, k)).toBe(true);
          landed.add(k);
        }
        expect(landed.size).toBe(Math.min(2, inBin));
        // The fullest bin, too.
        const full = await v.page.evaluate(() => {
          const bins = [...document.querySelectorAll('svg.histogram[data-view="0"] .bin')];
          const g = bins.reduce((a, b) => (Number(b.getAttribute('data-n')) > Number(a.getAttribute('data-n')) ? b : a));
          return { lo: Number(g.getAttribute('data-lo')), hi: Number(g.getAttribute('data-hi')) };
        });
        await press(v.page, screen, `svg.histogram[data-view="0"] .bin[data-lo="${full.lo}"] .hit`);
        const inFull = view.chunks[await litChunk(v.page)]!.size;
        expect(inFull >= full.lo && inFull <= full.hi).toBe(true);

        // Next and previous problem: n / p on a keyboard, the problem bar's buttons on a phone.
        await press(v.page, screen, 'button.prob[data-problem="lonely"]');
        const from = await litChunk(v.page);
        const isProblem = (k: number) => Object.values(KINDS).some((is) => is(view.chunks[k]!, view));
        if (screen.touch) await press(v.page, screen, '[data-act="next-problem"]');
        else await v.page.keyboard.press('n');
        const lonelyAll = view.chunks.map((_chunk, k) => k).filter((k) => KINDS.lonely!(view.chunks[k]!, view));
        expect(await litChunk(v.page)).toBe(lonelyAll[1]);
        if (screen.touch) await press(v.page, screen, '[data-act="prev-problem"]');
        else await v.page.keyboard.press('p');
        expect(await litChunk(v.page)).toBe(from);
        expect(isProblem(from)).toBe(true);

        await v.page.screenshot({ path: join(ARTIFACTS, `ui-problems-${screen.name}.png`) });
        expect(v.problems).toEqual([]);
        await v.close();
      });

      it('the minimap has one mark per chunk, shows the viewport, and a click scrolls to the chunk marked there', async () => {
        const file = join(ARTIFACTS, `ui-minimap-${screen.name}.html`);
        await inspectToHtml(MD_ARGS, file);
        const v = await openReport(browser(), file, screen);
        const { views, length } = await embedded(v.page);
        const chunks = views[0]!.chunks;
        expect(await v.page.locator('.minimap[data-view="0"] .mm-marks i').count()).toBe(chunks.length);
        // Problem marks carry their colour: every heading-only chunk's mark is orange.
        const lonely = await v.page.locator('.minimap[data-view="0"] .mm-marks i.lonely').count();
        expect(lonely).toBe(chunks.filter((c) => (c.flags ?? []).includes('heading only')).length);

        for (const share of [0.62, 0.2]) {
          const target = chunks.findIndex((c) => c.start >= share * length);
          const point = await v.page.evaluate((k) => {
            const mark = document.querySelector(`.minimap[data-view="0"] .mm-marks i[data-k="${k}"]`) as HTMLElement;
            const r = mark.getBoundingClientRect();
            // Whole pixels, as events carry them: a mark can be thinner than one.
            const x = Math.floor(r.left + r.width / 2);
            const y = Math.floor(r.top + r.height / 2);
            const hit = document.elementFromPoint(x, y) as HTMLElement;
            return { x, y, k: Number(hit.getAttribute('data-k')) };
          }, target);
          // Marks of neighbouring chunks can share a pixel: the chunk clicked is the one whose mark is on top there.
          expect(Math.abs(point.k - target)).toBeLessThanOrEqual(3);
          if (screen.touch) await v.page.touchscreen.tap(point.x, point.y);
          else await v.page.mouse.click(point.x, point.y);
          await frames(v.page);
          expect(await litChunk(v.page)).toBe(point.k);
          expect(await chunkInView(v.page, point.k)).toBe(true);
          // The viewport box now covers the chunk's place on the map.
          const box = await v.page.evaluate(() => {
            const view = document.querySelector('.minimap[data-view="0"] .mm-view') as HTMLElement;
            return { top: parseFloat(view.style.top) / 100, height: parseFloat(view.style.height) / 100 };
          });
          const at = chunks[point.k]!.start / length;
          expect(at).toBeGreaterThanOrEqual(box.top - 0.01);
          expect(at).toBeLessThanOrEqual(box.top + box.height + 0.01);
        }
        await v.page.screenshot({ path: join(ARTIFACTS, `ui-minimap-${screen.name}.png`) });
        expect(v.problems).toEqual([]);
        await v.close();
      });

      it('an outline click puts its heading at the top of the text, pins the chunk holding it, and the side panel keeps its place', async () => {
        const file = join(ARTIFACTS, `ui-outline-${screen.name}.html`);
        await inspectToHtml(MD_ARGS, file);
        const v = await openReport(browser(), file, screen);
        const { views } = await embedded(v.page);
        const text = readFileSync(MARKDOWN, 'utf8');
        let midChunk = 0;
        for (const title of ['Detail 33', 'Section 50', 'Detail 2']) {
          const offset = text.indexOf(`${title.startsWith('Detail') ? '###' : '##'} ${title}\n`);
          const link = v.page.locator(`ol.outline a[title$=" ${title}"]`);
          await link.scrollIntoViewIfNeeded();
          const n = Number(await link.getAttribute('data-h'));
          // Where the link sits on screen: a click must not move the panel under it (the box above may grow, the
          // panel then keeps the link in place).
          const where = (h: number) =>
            v.page.evaluate((key) => {
              const a = document.querySelector(`ol.outline a[data-h="${key}"]`) as HTMLElement;
              const info = document.getElementById('info') as HTMLElement;
              return { top: a.getBoundingClientRect().top, below: a.getBoundingClientRect().top >= info.getBoundingClientRect().bottom - 1 || getComputedStyle(info).position === 'fixed' };
            }, h);
          const before = await where(n);
          await press(v.page, screen, `ol.outline a[data-h="${n}"]`);
          await frames(v.page);
          const seen = await v.page.evaluate((h) => {
            const doc = document.getElementById('doc') as HTMLElement;
            const anchor = document.getElementById(`h${h}`) as HTMLElement;
            const box = doc.getBoundingClientRect();
            const top = anchor.getBoundingClientRect().top;
            // The text that follows the anchor, as drawn.
            const range = document.createRange();
            range.setStartAfter(anchor);
            range.setEnd(doc, doc.childNodes.length);
            return { offset: top - box.top, height: box.height, after: range.toString().slice(0, 40), holder: Number(anchor.closest('[data-k]')?.getAttribute('data-k') ?? -1) };
          }, n);
          expect(seen.after.startsWith(title.startsWith('Detail') ? `### ${title}` : `## ${title}`)).toBe(true);
          expect(seen.offset).toBeGreaterThanOrEqual(0);
          expect(seen.offset).toBeLessThan(seen.height / 3);
          expect(await litChunk(v.page)).toBe(seen.holder);
          // The chunk pinned holds the heading; for a heading in the middle of a chunk, that chunk, not the next.
          const holder = views[0]!.chunks[seen.holder]!;
          expect(holder.start <= offset && offset < holder.end).toBe(true);
          if (holder.start < offset) midChunk++;
          const after = await where(n);
          expect(Math.abs(after.top - before.top)).toBeLessThanOrEqual(1);
          expect(after.below).toBe(true);
        }
        expect(midChunk).toBeGreaterThan(0);
        await v.page.screenshot({ path: join(ARTIFACTS, `ui-outline-${screen.name}.png`) });
        expect(v.problems).toEqual([]);
        await v.close();
      });

      it('a chunk with overlap shows its whole text, and only its text, within its own band colours (Markdown and PDF)', async () => {
        for (const [name, args] of [
          ['markdown', MD_ARGS],
          ['pdf', [PDF, '--max-size', '96', '--overlap', '24']],
        ] as const) {
          const file = join(ARTIFACTS, `ui-overlap-${name}-${screen.name}.html`);
          await inspectToHtml(args, file);
          const { chunks, text } = await chunkFile(args[0], { maxSize: Number(args[2]), overlap: Number(args[4]), ...(name === 'markdown' ? { preserveCode: true, splitLevels: [1, 2] } : {}) });
          const v = await openReport(browser(), file, screen);
          const drawn = await v.page.evaluate(() => {
            const doc = document.getElementById('doc') as HTMLElement;
            const out: { k: number; texts: string[]; consecutive: boolean; own: string; colours: string[] }[] = [];
            const children = [...doc.children].filter((el) => el.matches('.band, .shared, .gap'));
            const textOf = (el: Element): string => {
              const copy = el.cloneNode(true) as Element;
              copy.querySelectorAll('.page, .add').forEach((n) => { n.remove(); });
              return copy.textContent ?? '';
            };
            const bands = children.filter((el) => el.classList.contains('band'));
            for (const band of bands) {
              const k = Number(band.getAttribute('data-k'));
              const mine = children.map((el, i) => ({ el, i })).filter(({ el }) => el === band || (el.classList.contains('shared') && (el.getAttribute('data-ov') ?? '').split(' ').includes(String(k))));
              const withText = mine.filter(({ el }) => textOf(el) !== '');
              const consecutive = withText.every(({ i }, j) => j === 0 || i === withText[j - 1]!.i + 1 || children.slice(withText[j - 1]!.i + 1, i).every((el) => textOf(el) === ''));
              const own = getComputedStyle(band).borderLeftColor;
              const colours = mine.filter(({ el }) => el !== band).map(({ el }) => `${getComputedStyle(el).backgroundImage} ${getComputedStyle(el).borderLeftColor} ${getComputedStyle(el).boxShadow}`);
              out.push({ k, texts: mine.map(({ el }) => textOf(el)), consecutive, own, colours });
            }
            return out;
          });
          expect(drawn).toHaveLength(chunks.length);
          let overlapping = 0;
          for (const d of drawn) {
            const c = chunks[d.k]!;
            expect(d.texts.join(''), `chunk ${d.k}`).toBe(text.slice(c.start, c.end));
            expect(d.consecutive, `chunk ${d.k}`).toBe(true);
            // Every strip holding part of the chunk is striped, and edged, in the chunk's own band colour.
            const rgb = /rgb\((\d+), (\d+), (\d+)\)/.exec(d.own)!.slice(1).join(', ');
            for (const colours of d.colours) expect(colours.split(rgb).length - 1, `chunk ${d.k}: ${colours}`).toBeGreaterThanOrEqual(2);
            if (d.colours.length > 0) overlapping++;
          }
          expect(overlapping).toBeGreaterThan(chunks.length / 3);
          await v.page.screenshot({ path: join(ARTIFACTS, `ui-overlap-${name}-${screen.name}.png`) });
          expect(v.problems).toEqual([]);
          await v.close();
        }
      });

      it(screen.touch ? 'a phone gets a folded legend, touch hints, a small sheet with ‹ › and ✕ that clears it' : 'a desktop gets the legend, key hints, ‹ › and j / k, and Esc clears the chunk box', async () => {
        const file = join(ARTIFACTS, `ui-chunk-box-${screen.name}.html`);
        await inspectToHtml(MD_ARGS, file);
        const v = await openReport(browser(), file, screen);
        const page = v.page;
        expect(await page.locator('.hint .for-touch').first().isVisible()).toBe(screen.touch);
        expect(await page.locator('.hint .for-mouse').first().isVisible()).toBe(!screen.touch);
        expect(await page.locator('.legend').isVisible()).toBe(!screen.touch);
        const header = await page.locator('header.top').boundingBox();
        if (screen.touch) expect(header!.height).toBeLessThan(screen.height * 0.1);
        // The chunk list, filled after the first frame: a row per chunk with its last heading and opening words.
        const { views } = await embedded(page);
        const rows = page.locator('#chunk-list > li');
        await page.locator(`#chunk-list a[data-k="${views[0]!.chunks.length - 1}"]`).waitFor({ state: 'attached' });
        expect(await rows.count()).toBe(views[0]!.chunks.length);
        const row = await page.locator('#chunk-list a[data-k="20"]').evaluate((a) => [a.querySelector('.hd')!.textContent, a.querySelector('.op')!.textContent]);
        const text = readFileSync(MARKDOWN, 'utf8');
        const c20 = views[0]!.chunks[20]!;
        expect(text.slice(c20.start, c20.end).replace(/\s+/g, ' ').startsWith(row[1]!.replace(/…$/, ''))).toBe(true);
        expect(row[0]).toMatch(/^(Section|Detail|Short section|Empty section) \d+$/);
        await press(page, screen, '#c5');
        expect(await litChunk(page)).toBe(5);
        const sheet = await page.locator('#info').boundingBox();
        if (screen.touch) {
          expect(sheet!.height).toBeLessThanOrEqual(screen.height * 0.26);
          // The sheet leaves the side panel free: its problem buttons stay reachable.
          const side = await page.locator('#side').boundingBox();
          expect(sheet!.y + sheet!.height).toBeLessThanOrEqual(side!.y + 1);
        }
        await press(page, screen, '#info [data-act="next"]');
        expect(await litChunk(page)).toBe(6);
        expect(await page.locator('#info h2').innerText()).toMatch(/^#6 · field-notes\.md#[0-9a-f]{16}$/);
        expect(await chunkInView(page, 6)).toBe(true);
        await press(page, screen, '#info [data-act="prev"]');
        expect(await litChunk(page)).toBe(5);
        if (!screen.touch) {
          await page.keyboard.press('j');
          await page.keyboard.press('j');
          expect(await litChunk(page)).toBe(7);
          await page.keyboard.press('k');
          expect(await litChunk(page)).toBe(6);
        }
        await page.screenshot({ path: join(ARTIFACTS, `ui-chunk-box-${screen.name}.png`) });
        if (screen.touch) await press(page, screen, '#info [data-act="close"]');
        else await page.keyboard.press('Escape');
        // Released: the box describes no chunk any more.
        expect(await page.locator('#info h2').count()).toBe(0);
        expect(await litChunk(page)).toBe(-1);
        expect(await page.locator('#info-state').innerText()).toBe('No chunk selected');
        if (screen.touch) expect((await page.locator('#info').boundingBox())!.height).toBeLessThan(screen.height * 0.1);
        expect(v.problems).toEqual([]);
        await v.close();
      });
    });
  }

  it('compares two settings side by side: a view each, figures in columns, scrolled together by position', async () => {
    for (const screen of SCREENS) {
      const file = join(ARTIFACTS, `ui-compare-${screen.name}.html`);
      const err = await inspectToHtml([MARKDOWN, '--preserve-code', '--compare', '--max-size 128 --overlap 16', '--max-size 384'], file);
      const a = await chunkFile(MARKDOWN, { preserveCode: true, maxSize: 128, overlap: 16 });
      const b = await chunkFile(MARKDOWN, { preserveCode: true, maxSize: 384 });
      expect(err).toContain(`${a.chunks.length} chunks vs ${b.chunks.length} chunks`);
      const v = await openReport(browser(), file, screen);
      const page = v.page;
      expect(await page.locator('#doc > .band').count()).toBe(a.chunks.length);
      expect(await page.locator('#v1-doc > .band').count()).toBe(b.chunks.length);
      expect(await page.locator('.minimap[data-view="1"] .mm-marks i').count()).toBe(b.chunks.length);
      const firstRow = await page.locator('table.stats.cmp tbody tr').first().locator('td').allInnerTexts();
      expect(firstRow).toEqual(['chunks', String(a.chunks.length), String(b.chunks.length)]);

      if (screen.touch) {
        // One view at a time on a phone; the tab bar switches, keeping the place.
        expect(await page.locator('#v1-doc').isVisible()).toBe(false);
      }
      // Go deep into the text in view A (from its chunk list): view B follows to the same offset.
      const k = Math.floor(a.chunks.length * 0.4);
      await page.locator(`#chunk-list a[data-k="${k}"]`).scrollIntoViewIfNeeded();
      await press(page, screen, `#chunk-list a[data-k="${k}"]`);
      await frames(page);
      // The chunk pinned in A is outlined, in B, by the chunks that hold its text.
      const echoes = await page.evaluate(() => [...document.querySelectorAll('#v1-doc > .band.echo')].map((e) => Number(e.getAttribute('data-k'))));
      const c = a.chunks[k]!;
      expect(echoes).toEqual(b.chunks.map((x, j) => (x.start < c.end && x.end > c.start ? j : -1)).filter((j) => j >= 0));
      /** The offset drawn at the top of a view, and the offsets of the element there. */
      const topOf = (id: string) =>
        page.evaluate((which) => {
          const doc = document.getElementById(which) as HTMLElement;
          const segs = [...doc.querySelectorAll(':scope > [data-s]')] as HTMLElement[];
          const seg = segs.filter((s) => s.offsetTop <= doc.scrollTop + 1).at(-1) as HTMLElement;
          const s = Number(seg.getAttribute('data-s'));
          const e = Number(seg.getAttribute('data-e'));
          return { s, e, at: s + ((doc.scrollTop - seg.offsetTop) / Math.max(1, seg.offsetHeight)) * (e - s) };
        }, id);
      const tops = async () => ({ a: await topOf('doc'), b: await topOf('v1-doc') });
      const aligned = (t: Awaited<ReturnType<typeof tops>>) => t.a.at >= t.b.s - 1 && t.a.at <= t.b.e + 1;
      let first: Awaited<ReturnType<typeof tops>>;
      if (screen.touch) {
        // One view shows at a time: the tab bar switches to B, at the place A was showing.
        const a0 = await topOf('doc');
        await press(page, screen, '.view-tabs [data-tab="1"]');
        await frames(page);
        expect(await page.locator('#v1-doc').isVisible()).toBe(true);
        expect(await page.locator('#doc').isVisible()).toBe(false);
        first = { a: a0, b: await topOf('v1-doc') };
      } else first = await tops();
      // The offset at the top of A lies in the element at the top of B.
      expect(aligned(first), JSON.stringify(first)).toBe(true);
      if (!screen.touch) {
        // And again after scrolling A with the wheel.
        await page.mouse.move(300, 400);
        for (let i = 0; i < 3; i++) {
          await page.mouse.wheel(0, 600);
          await frames(page);
        }
        await frames(page);
        const wheeled = await tops();
        expect(wheeled.a.at).toBeGreaterThan(first.a.at);
        expect(aligned(wheeled), JSON.stringify(wheeled)).toBe(true);
      }

      await page.screenshot({ path: join(ARTIFACTS, `ui-compare-${screen.name}.png`) });
      expect(v.problems).toEqual([]);
      await v.close();
    }
  });
});

