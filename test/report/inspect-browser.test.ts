/**
 * Reports made by `chunkstream inspect` from real documents, opened in headless chromium: a Markdown sample and the
 * 352-page freeculture.pdf. Screenshots land in `test/artifacts/` (the README's pictures in `docs/` are copies).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runInspect } from '../../src/cli/inspect.js';
import { chunkFile } from '../../src/api/chunk.js';
import { corpusPdf } from '../support/pdf-corpus.js';
import { describeCorpus, itWithCorpusFile } from '../support/corpus.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '../artifacts');
const SAMPLES = join(import.meta.dirname, '../../samples');
const FREECULTURE = corpusPdf('freeculture.pdf');

/** Runs inspect to an HTML file; returns the chunk count it reported. */
async function inspect(args: string[], out: string): Promise<number> {
  let err = '';
  const code = await runInspect([...args, '--html', out], { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) }, isTTY: false });
  expect(code, err).toBe(0);
  return Number(/: (\d+) chunks,/.exec(err)![1]);
}

/** Opens a report from disk, collecting console errors, failed or outside requests and dialogs. */
async function open(browser: Browser, file: string): Promise<{ page: Page; problems: string[]; readyMs: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) problems.push(`request: ${r.url()}`);
  });
  const t0 = performance.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('html[data-ready="1"]', { timeout: 60_000 });
  return { page, problems, readyMs: performance.now() - t0 };
}

/** Starts chromium before the suite's tests and closes it after; the getter gives the running browser. */
function useBrowser(): () => Browser {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser;
}

describe.skipIf(!existsSync(CHROMIUM))('inspect reports of the samples in chromium', () => {
  const browser = useBrowser();

  it('Markdown sample: bands equal chunks, a chunk with a repeated table header shows it as added text', async () => {
    const file = join(ARTIFACTS, 'inspect-guide.html');
    const count = await inspect([join(SAMPLES, 'guide.md'), '--max-size', '64', '--overlap', '8'], file);
    const { page, problems } = await open(browser(), file);
    expect(await page.locator('#doc .band').count()).toBe(count);
    const added = page.locator('#doc .add.pre').first();
    expect(await added.count()).toBe(1);
    const band = added.locator('xpath=ancestor::div[contains(@class, "band")]');
    await band.scrollIntoViewIfNeeded();
    await page.evaluate(() => {
      (document.getElementById('doc') as HTMLElement).scrollTop -= 160;
    });
    await band.hover();
    const k = Number(await band.getAttribute('data-k'));
    const info = await page.locator('#info').innerText();
    const { chunks } = await chunkFile(join(SAMPLES, 'guide.md'), { maxSize: 64, overlap: 8, documentId: 'guide.md' });
    expect(info).toContain(chunks[k]!.id);
    expect(info).toMatch(/\d+ tokens \(\d+% of max 64\)/);
    expect(info).toMatch(/added\s+\d+ chars before/);
    await page.screenshot({ path: join(ARTIFACTS, 'inspect-guide.png') });
    expect(problems).toEqual([]);
    await page.close();
  });

});

describeCorpus('inspect reports of real documents', () => describe.skipIf(!existsSync(CHROMIUM))('in chromium', () => {
  const browser = useBrowser();

  itWithCorpusFile('pdf/freeculture.pdf')('freeculture.pdf (352 pages): opens, scrolls end to end, hovers and jumps without errors', async () => {
    const file = join(ARTIFACTS, 'inspect-freeculture.html');
    const count = await inspect([FREECULTURE, '--max-size', '256', '--overlap', '32'], file);
    const { page, problems, readyMs } = await open(browser(), file);
    expect(await page.locator('#doc .band').count()).toBe(count);
    expect(await page.locator('#doc .page').count()).toBeGreaterThan(300);
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
    const middle = Math.floor(count / 2);
    await page.click(`#chunk-list a[data-k="${middle}"]`);
    await page.waitForTimeout(100);
    const { chunks } = await chunkFile(FREECULTURE, { maxSize: 256, overlap: 32, documentId: 'freeculture.pdf' });
    expect(await page.locator('#info').innerText()).toContain(chunks[middle]!.id);
    await page.keyboard.press('Escape');
    await page.evaluate(() => {
      (document.getElementById('side') as HTMLElement).scrollTop = 0;
    });
    const target = page.locator('#doc .page[data-page="41"]');
    await target.scrollIntoViewIfNeeded();
    const band = target.locator('xpath=ancestor::div[contains(@class, "band")]');
    await band.hover();
    const info = await page.locator('#info').innerText();
    expect(info).toMatch(/pages\s+\d+/);
    expect(info).toMatch(/\d+ tokens/);
    console.log(
      `inspect-freeculture: ${count} chunks, ready in ${readyMs.toFixed(0)} ms, 20 scroll steps in ${scrollMs.toFixed(0)} ms (median frame ${[...steps].sort((a, b) => a - b)[10]!.toFixed(0)} ms, slowest ${Math.max(...steps).toFixed(0)} ms)`,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'inspect-freeculture.png') });
    expect(problems).toEqual([]);
    await page.close();
  });
}));
