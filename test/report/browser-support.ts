/**
 * Headless chromium for the report's browser tests: Debian's `/usr/bin/chromium` driven by playwright-core, pages
 * opened from `file://` URLs at a desktop or a phone screen, with everything that goes wrong collected (console
 * errors and warnings, page errors, dialogs, requests that leave the file). Screenshots go to `test/artifacts/`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { runInspect } from '../../src/cli/inspect.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(import.meta.dirname, '../artifacts');
export const HAS_BROWSER = existsSync(CHROMIUM);

/** A screen to test at: a desktop window, or a phone with touch and no hover. */
export interface Screen {
  readonly name: 'desktop' | 'phone';
  readonly width: number;
  readonly height: number;
  readonly touch: boolean;
}

export const DESKTOP: Screen = { name: 'desktop', width: 1440, height: 900, touch: false };
export const PHONE: Screen = { name: 'phone', width: 390, height: 844, touch: true };
export const SCREENS: readonly Screen[] = [DESKTOP, PHONE];

/** Starts chromium before the suite's tests and closes it after; the getter gives the running browser. */
export function useBrowser(): () => Browser {
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

/** An open report: the page, what went wrong on it, and how long it took to be ready. */
export interface Visit {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly problems: string[];
  readonly dialogs: string[];
  /** Milliseconds from navigation to the report script having run. */
  readonly readyMs: number;
  close(): Promise<void>;
}

/** Opens a report from disk at a screen, collecting console errors, page errors, dialogs and outside requests. */
export async function openReport(browser: Browser, file: string, screen: Screen = { name: 'desktop', width: 1280, height: 800, touch: false }): Promise<Visit> {
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height },
    ...(screen.touch ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) problems.push(`request: ${r.url()}`);
  });
  const t0 = performance.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('html[data-ready="1"]', { timeout: 60_000 });
  const readyMs = performance.now() - t0;
  return { page, context, problems, dialogs, readyMs, close: () => context.close() };
}

/** Runs `chunkstream inspect` to an HTML file; returns what it reported on stderr. */
export async function inspectToHtml(args: readonly string[], out: string): Promise<string> {
  let err = '';
  const code = await runInspect([...args, '--html', out], { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) }, isTTY: false });
  expect(code, err).toBe(0);
  return err;
}

/** Clicks (desktop) or taps (phone) an element, then lets two frames pass for the page to settle. */
export async function press(page: Page, screen: Screen, selector: string): Promise<void> {
  if (screen.touch) await page.tap(selector);
  else await page.click(selector);
  await frames(page);
}

/** The chunk facts the report embeds, per view. */
export interface EmbeddedView {
  tag: string;
  unit: string;
  maxSize: number | null;
  targetSize: number | null;
  minSize: number | null;
  chunks: { id: string; size: number; start: number; end: number; flags?: string[]; overlapPrev?: number }[];
}

/** Reads the report's embedded facts. */
export function embedded(page: Page): Promise<{ length: number; views: EmbeddedView[] }> {
  return page.evaluate(() => JSON.parse((document.getElementById('report-data') as HTMLElement).textContent as string));
}

/** Band position of the chunk lit (hovered or pinned) in a view, or -1. */
export function litChunk(page: Page, view = 0): Promise<number> {
  return page.evaluate((v) => {
    const doc = document.getElementById(v === 0 ? 'doc' : `v${v}-doc`) as HTMLElement;
    const band = doc.querySelector(':scope > .band.lit');
    return band ? Number(band.getAttribute('data-k')) : -1;
  }, view);
}

/** True when some of the chunk's text (its band or the strip it begins with) shows in its view's scrolled area. */
export function chunkInView(page: Page, k: number, view = 0): Promise<boolean> {
  return page.evaluate(
    ([v, key]) => {
      const p = v === 0 ? '' : `v${v}-`;
      const doc = document.getElementById(`${p}doc`) as HTMLElement;
      const band = document.getElementById(`${p}c${key}`) as HTMLElement;
      const box = doc.getBoundingClientRect();
      const parts = [band];
      const prev = band.previousElementSibling as HTMLElement | null;
      if (prev?.classList.contains('shared') && (prev.getAttribute('data-ov') ?? '').split(' ').includes(String(key))) parts.push(prev);
      return parts.some((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom && r.height > 0;
      });
    },
    [view, k] as const,
  );
}

/** Waits for the next two frames, so scroll handlers and deferred layout have run. */
export function frames(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
