/**
 * Runs pdf.js in a child process (`sandbox-child.ts`) under a watchdog, so that every PDF is read within a budget of
 * time and memory whatever it holds. pdf.js has no limits of its own: two million nested `q` operators keep it busy
 * for hours, and a small file whose content stream inflates to gigabytes takes that much memory. Neither can be
 * stopped from inside, since pdf.js runs synchronously for as long as it likes, so it runs where it can be killed.
 *
 * A worker thread was measured against a child process (pdf.js loaded, one five-page document read): about
 * 0.39 s against 0.50 s for a fresh one, the same 47–50 ms a document once warm, and the same CPU time on a 352-page
 * book. The child process was chosen because only it gives a document a memory budget of its own: a worker's
 * `resourceLimits` cap its JavaScript heap but not the buffers a decompression bomb fills, and the process-wide
 * resident size a watchdog can see from a thread counts every other document being read at the same time. A
 * process's own resident size (`/proc/<pid>/statm`) counts exactly what reading this document costs, a kill
 * always works, and what V8 prints when pdf.js overflows its stack stays in that process.
 *
 * Processes are kept for the next document once done (loading pdf.js takes a few hundred milliseconds of CPU) and
 * exit after a short idle time, so a finished run leaves none behind; one that went near its memory budget is not
 * kept, nor one that was killed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChunkError, type ChunkErrorCode } from '../../errors.js';
import type { OutlineEntry } from './headings.js';
import { unpackItems, type SandboxGraphics, type SandboxPage, type SandboxReply, type SandboxRequest, type SandboxSource } from './sandbox-messages.js';

/** The budget of one document. */
export interface PdfLimits {
  /** Seconds the sandbox may spend working on the document (time the consumer holds back the reader is not counted). */
  readonly seconds: number;
  /** Resident memory, in MB, the sandbox process may reach while it reads the document. */
  readonly memoryMb: number;
}

/** An open document in a sandbox. */
export interface PdfSession {
  readonly pages: number;
  readonly outline: readonly OutlineEntry[];
  readonly warnings: readonly string[];
  /** The document information dictionary's `Title`, when it has one. */
  readonly title?: string;
  /**
   * Reads one page. Pages are read one at a time in the order asked; asking for the next page before the current
   * one is used lets the sandbox read it meanwhile. Rejects with `ERR_PDF_LIMIT` (naming the page) when the budget
   * runs out, `ERR_PDF_INVALID` when the page cannot be read.
   */
  page(number: number): Promise<SandboxPage>;
  /** Reads what a page read with `page` draws, and the names of its fonts; within the same budget. */
  graphics(number: number): Promise<SandboxGraphics>;
  /** Ends the session; the sandbox is kept for another document when it is healthy. Idempotent. */
  close(): Promise<void>;
}

/** Options of `openPdfSession`. */
export interface PdfSessionOptions {
  readonly password: string | undefined;
  readonly limits: PdfLimits;
  readonly signal?: AbortSignal | undefined;
}

/** How often the resident size of a working sandbox is read. */
const MEMORY_POLL_MS = 10;
/** How long a new sandbox may take to load pdf.js; far more than it needs, even on a loaded machine. */
const STARTUP_MS = 60_000;
/** Longest delay `setTimeout` takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Idle sandboxes exit after this long. */
const IDLE_MS = 3000;
/** Most idle sandboxes kept. */
const MAX_IDLE = 2;
/**
 * A sandbox that ended a document above this share of its memory budget is not reused. What a closed document
 * leaves behind is memory V8 and malloc hand out again before asking for more, so the next document grows the
 * resident size past it only if it needs more itself, as it would in a fresh process; a process that grew far into
 * its budget is ended all the same. Ending it costs the next document a new process and pdf.js compiled again:
 * some 300 ms of CPU to start and as much again to warm up on a paper, 1 s on a 117-page book.
 *
 * A warm sandbox at the default budget of 256 MB ends a document at 110–170 MB (69 MB when it starts, then
 * pdf.js's compiled code and the garbage its capped heap holds until its next collection), so the share must sit
 * above that: at 0.6 (154 MB, set when the budget was 512 MB) most books ended their sandbox. With no share at all,
 * a sandbox reading freeculture.pdf again and again grew to 165, 189, then 267 MB and was killed at its budget on
 * the third pass (glibc keeps what it freed), so the share stays: at 0.7 (179 MB) GeoTopo-komprimiert.pdf and
 * tracemonkey.pdf keep their sandbox pass after pass, freeculture.pdf for most passes. Since the sandbox no longer
 * decodes images (`pdfjs-worker.ts`; the cover's 11 MB of pixels were held by page 1), freeculture.pdf ends its
 * passes at 146, 163, 168, 175, 178 and 178 MB and keeps its sandbox. What stays is not pdf.js's: after a full
 * collection the heap holds 17–18 MB after every pass (the document's caches go with it), and the resident size
 * 140–150 MB; the rest is garbage V8 leaves until the old generation reaches its first limit (`heapFlags`).
 */
const REUSE_MEMORY_SHARE = 0.7;

/** Sandboxes spawned so far and idle now, for tests. */
export function sandboxStats(): { spawned: number; idle: number } {
  return { spawned: spawnedCount, idle: idle.length };
}

let spawnedCount = 0;
const idle: Sandbox[] = [];

/**
 * Opens a document in a sandbox. Rejects with `ERR_PDF_INVALID`, `ERR_PDF_ENCRYPTED`, `ERR_READ` (a path that
 * cannot be read) or `ERR_PDF_LIMIT` (the document took its whole budget before its first page).
 */
export async function openPdfSession(source: SandboxSource, options: PdfSessionOptions): Promise<PdfSession> {
  const sandbox = acquire(options.limits.memoryMb);
  const budget = new Budget(options.limits);
  const abort = (): void => sandbox.fail(abortError(options.signal as AbortSignal));
  if (options.signal?.aborted === true) {
    release(sandbox, false);
    throw abortError(options.signal);
  }
  options.signal?.addEventListener('abort', abort, { once: true });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    options.signal?.removeEventListener('abort', abort);
    if (!sandbox.usable()) return release(sandbox, false);
    try {
      const reply = await sandbox.request({ op: 'close' }, budget, undefined, 0);
      release(sandbox, reply.op === 'closed');
    } catch {
      release(sandbox, false);
    }
  };
  let opened: SandboxReply;
  try {
    opened = await sandbox.request({ op: 'open', source, password: options.password }, budget, undefined, 0);
  } catch (error) {
    await close();
    throw error;
  }
  if (opened.op !== 'opened') {
    await close();
    throw replyError(opened);
  }
  const pages = opened.pages;
  const requested = new Map<number, Promise<SandboxReply>>();
  // Every field set, even when undefined: an object of one hidden class for every document (see `shapes.ts`).
  return {
    pages,
    outline: opened.outline,
    warnings: opened.warnings,
    title: opened.title,
    async page(number) {
      let pending = requested.get(number);
      if (pending === undefined) {
        pending = sandbox.request({ op: 'page', number }, budget, number, pages);
        // A page asked for ahead and never used must not become an unhandled rejection.
        pending.catch(() => {});
        requested.set(number, pending);
      }
      try {
        const reply = await pending;
        if (reply.op !== 'page') throw replyError(reply);
        return { number: reply.number, items: unpackItems(reply.packed), truncated: reply.truncated, frame: reply.frame };
      } finally {
        requested.delete(number);
      }
    },
    async graphics(number) {
      const reply = await sandbox.request({ op: 'graphics', number }, budget, number, pages);
      if (reply.op !== 'graphics') throw replyError(reply);
      return reply;
    },
    close,
  };
}

/** Time spent by the sandbox on one document, against its budget. */
class Budget {
  #usedMs = 0;
  constructor(readonly limits: PdfLimits) {}
  get remainingMs(): number {
    return Math.max(0, this.limits.seconds * 1000 - this.#usedMs);
  }
  spend(ms: number): void {
    this.#usedMs += ms;
  }
}

/** The message of a failed reply as a `ChunkError`. */
function replyError(reply: SandboxReply): ChunkError {
  if (reply.op !== 'failed') return new ChunkError('ERR_INTERNAL', `The PDF sandbox answered ${reply.op} out of turn`);
  return new ChunkError(reply.code as ChunkErrorCode, reply.message, reply.page === undefined ? {} : { page: reply.page });
}

function abortError(signal: AbortSignal): Error {
  const error = new Error('The operation was aborted', { cause: signal.reason });
  error.name = 'AbortError';
  return error;
}

/** Takes an idle sandbox with the same heap cap, or starts one. */
function acquire(memoryMb: number): Sandbox {
  const index = idle.findIndex((s) => s.memoryMb === memoryMb && s.usable());
  if (index !== -1) {
    const sandbox = idle.splice(index, 1)[0] as Sandbox;
    sandbox.wake();
    return sandbox;
  }
  spawnedCount++;
  return new Sandbox(memoryMb);
}

/** Keeps a sandbox for the next document when it is healthy and has room, else ends it. */
function release(sandbox: Sandbox, healthy: boolean): void {
  const rss = sandbox.residentBytes();
  const roomy = rss === null || rss <= REUSE_MEMORY_SHARE * sandbox.memoryMb * 2 ** 20;
  if (!healthy || !sandbox.usable() || !roomy || idle.length >= MAX_IDLE) {
    sandbox.kill();
    return;
  }
  idle.push(sandbox);
  sandbox.sleep(() => {
    const at = idle.indexOf(sandbox);
    if (at !== -1) idle.splice(at, 1);
    sandbox.kill();
  });
}

let bundled: string | null = null;

/**
 * The file the sandbox runs: the compiled `sandbox-child.js` beside this module. From the TypeScript source (tests,
 * tsx scripts) only `sandbox-child.ts` exists, and running it through a TypeScript loader would also make the loader
 * transform pdf.js in the child, which then takes hundreds of megabytes and seconds to start: the budget would be
 * measured on another process than the one users run. So the child's own modules are bundled once per process with
 * esbuild (which tsx and vite bring), pdf.js left out, into `node_modules/.cache/`, from where pdf.js still resolves.
 */
function childPath(): string {
  const js = fileURLToPath(new URL('./sandbox-child.js', import.meta.url));
  if (existsSync(js)) return js;
  if (bundled !== null) return bundled;
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('pdfjs-dist/package.json'));
  const dir = join(root, '..', '.cache', 'chunkstream');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'pdf-sandbox-child.mjs');
  const temporary = `${out}.${process.pid}.tmp`;
  const esbuild = require('esbuild') as { buildSync(options: object): unknown };
  esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./sandbox-child.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: temporary,
    external: ['pdfjs-dist'],
    logLevel: 'silent',
  });
  // Test processes running side by side each write their own copy and move it into place whole.
  renameSync(temporary, out);
  bundled = out;
  return out;
}

/** Room for `/proc/<pid>/statm`: seven numbers of at most twenty digits. */
const STATM = Buffer.alloc(160);

/** Bytes per page of `/proc/<pid>/statm`, found by comparing this process's own figures; null without `/proc`. */
const PAGE_BYTES: number | null = (() => {
  try {
    const resident = Number(readFileSync('/proc/self/statm', 'latin1').split(' ')[1]);
    const bytes = process.memoryUsage.rss();
    if (!(resident > 0)) return null;
    // Page sizes are powers of two; the two figures were read a moment apart.
    return 2 ** Math.round(Math.log2(bytes / resident));
  } catch {
    return null;
  }
})();

/**
 * V8 flags of a sandbox. Its heap is capped below the budget by room for what is not heap (Node and pdf.js code,
 * the young generation, the file and its buffers), so that V8 collects before the resident size reaches the budget;
 * its first limit is set at three quarters of the cap, since V8 derives it from the cap and a small one made it
 * collect far more often than reading a book needs. (A full collection after each document, to start the next one
 * clean, was measured to cost 100 ms and more: the cap bounds what is left behind instead.)
 */
function heapFlags(memoryMb: number): string[] {
  const cap = Math.max(64, Math.min(MAX_HEAP_MB, memoryMb - HEAP_HEADROOM_MB));
  return [`--max-old-space-size=${cap}`, `--initial-old-space-size=${Math.round(cap * 0.75)}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];
}

/**
 * Largest semi-space of the young generation, in MB (Node's default is 16). The smaller it is, the more often pdf.js
 * scavenges: bare pdf.js reading freeculture.pdf took 1.93 s of CPU with 4, 1.68 with 8 and 1.53 with 16 (medians of
 * three runs in turns), and the PDF reader over four corpus books 8.2–9.0 s with 4 against 7.7–8.2 with 8. A larger
 * one keeps more garbage resident between documents (up to twice the semi-space more), which counts against the
 * reuse share: at 8 the corpus books still end below it. The hostile PDFs at 8 MB are stopped as with 4, at the same
 * peak resident size (193–354 MB against 195–358).
 */
const SEMI_SPACE_MB = 8;

/**
 * glibc's malloc arenas for the sandbox, unless the user set their own. With the default (eight per core) the
 * threads of V8 take arenas of their own, each keeping what it freed, and a sandbox reading books one after the
 * other ended them some 20 MB higher, past the reuse share after a few books, then started again with pdf.js to
 * load and compile. Other C libraries ignore the variable.
 */
const MALLOC_ARENAS = '2';

/** The sandbox's environment: this process's, with `MALLOC_ARENA_MAX` (see `MALLOC_ARENAS`). */
function sandboxEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? MALLOC_ARENAS };
}

/** What a sandbox holds besides its old generation, in MB: Node, pdf.js's code, the young generation, the file. */
const HEAP_HEADROOM_MB = 96;
/**
 * Largest heap cap, in MB, whatever the budget: with more, V8 lets garbage pile up as far as the cap allows, and a
 * sandbox reading books would sit at hundreds of megabytes for nothing.
 */
const MAX_HEAP_MB = 320;

/** Most of a sandbox's standard error kept, for the message of an unexpected exit. */
const STDERR_TAIL = 2048;

/** One sandbox process and the request in flight on it. */
class Sandbox {
  readonly #child: ChildProcess;
  #exited = false;
  /**
   * The sandbox's `/proc/<pid>/statm`, opened on first use and kept open until it exits: it is read every
   * `MEMORY_POLL_MS` while the sandbox works, and opening, sizing and closing it each time cost some six times the read (45 µs a reading against 7).
   */
  #statm: number | null = null;
  #stderr = '';
  /** The error every request gets once the sandbox has failed (killed at a limit, aborted, crashed). */
  #failure: Error | null = null;
  #inFlight: { resolve: (reply: SandboxReply) => void; reject: (error: Error) => void; where: string; page: number | undefined } | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #idleTimer: NodeJS.Timeout | null = null;
  /** Settles once the child has loaded pdf.js (or failed to start). */
  readonly #ready: Promise<void>;
  #onReady: ((failure?: Error) => void) | null = null;

  constructor(readonly memoryMb: number) {
    this.#ready = new Promise<void>((resolve, reject) => {
      const startup = setTimeout(() => this.fail(new ChunkError('ERR_INTERNAL', `The PDF sandbox did not start within ${STARTUP_MS / 1000} s`)), STARTUP_MS);
      startup.unref();
      this.#onReady = (failure) => {
        clearTimeout(startup);
        this.#onReady = null;
        if (failure === undefined) resolve();
        else reject(failure);
      };
    });
    this.#ready.catch(() => {});
    this.#child = fork(childPath(), [], {
      execArgv: heapFlags(memoryMb),
      env: sandboxEnvironment(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#child.stderr?.setEncoding('utf8');
    this.#child.stderr?.on('data', (text: string) => (this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL)));
    this.#child.on('message', (reply: SandboxReply) => {
      if (this.#onReady !== null) {
        this.#onReady(reply.op === 'ready' ? undefined : new ChunkError('ERR_INTERNAL', reply.op === 'failed' ? reply.message : 'The PDF sandbox did not start'));
        return;
      }
      const pending = this.#inFlight;
      this.#inFlight = null;
      pending?.resolve(reply);
    });
    this.#child.on('error', (error) => this.fail(new ChunkError('ERR_INTERNAL', `The PDF sandbox could not run: ${error.message}`, { cause: error })));
    this.#child.on('exit', (code, signal) => {
      this.#exited = true;
      if (this.#statm !== null) closeSync(this.#statm);
      this.#statm = null;
      this.fail(this.#exitError(code, signal));
    });
  }

  /** True while the sandbox can take requests. */
  usable(): boolean {
    return !this.#exited && this.#failure === null && this.#child.connected;
  }

  /** Resident bytes of the sandbox, or null where `/proc` cannot tell. */
  residentBytes(): number | null {
    const pid = this.#child.pid;
    if (PAGE_BYTES === null || pid === undefined || this.#exited) return null;
    try {
      this.#statm ??= openSync(`/proc/${pid}/statm`, 'r');
      const length = readSync(this.#statm, STATM, 0, STATM.length, 0);
      return Number(STATM.toString('latin1', 0, length).split(' ')[1]) * PAGE_BYTES;
    } catch {
      return null;
    }
  }

  /**
   * Sends a request once the previous one is answered and resolves with the reply, within the document's budget:
   * past its time or memory the sandbox is killed and the request rejects with `ERR_PDF_LIMIT` naming `page`.
   */
  request(request: SandboxRequest, budget: Budget, page: number | undefined, pages: number): Promise<SandboxReply> {
    const run = this.#queue.then(() => this.#ready).then(() => this.#send(request, budget, page, pages));
    this.#queue = run.catch(() => {});
    return run;
  }

  #send(request: SandboxRequest, budget: Budget, page: number | undefined, pages: number): Promise<SandboxReply> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    const started = performance.now();
    const where = page === undefined ? 'while opening the document' : `while reading page ${page} of ${pages}`;
    const context = page === undefined ? {} : { page };
    return new Promise<SandboxReply>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        budget.spend(performance.now() - started);
      };
      this.#inFlight = {
        resolve: (reply) => (done(), resolve(reply)),
        reject: (error) => (done(), reject(error)),
        where,
        page,
      };
      const limits = budget.limits;
      // Past setTimeout's range (some 24 days) there is no time limit to keep.
      const remaining = budget.remainingMs;
      const timer = remaining > MAX_TIMER_MS ? undefined : setTimeout(() => {
        this.fail(
          new ChunkError('ERR_PDF_LIMIT', `The PDF took longer than maxPdfSeconds (${limits.seconds} s) ${where}; raise maxPdfSeconds to read it`, context),
        );
      }, remaining);
      const poll = setInterval(() => {
        const rss = this.residentBytes();
        if (rss === null || rss <= limits.memoryMb * 2 ** 20) return;
        this.fail(
          new ChunkError(
            'ERR_PDF_LIMIT',
            `The PDF needed more than maxPdfMemoryMb (${limits.memoryMb} MB) of memory ${where}; raise maxPdfMemoryMb to read it`,
            context,
          ),
        );
      }, MEMORY_POLL_MS);
      try {
        this.#child.send(request);
      } catch (error) {
        this.fail(new ChunkError('ERR_INTERNAL', `The PDF sandbox could not be reached: ${(error as Error).message}`, { cause: error }));
      }
    });
  }

  /** Fails the sandbox: it is killed, and the request in flight (and every later one) rejects with `error`. */
  fail(error: Error): void {
    this.#onReady?.(error);
    if (this.#failure === null) {
      // The first cause wins: the exit that follows a kill must not replace the limit that caused it.
      this.#failure = error;
      this.kill();
    }
    const pending = this.#inFlight;
    this.#inFlight = null;
    pending?.reject(this.#failure);
  }

  kill(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    if (!this.#exited) this.#child.kill('SIGKILL');
  }

  /** Lets the process exit while this sandbox idles, and ends it after `IDLE_MS`. */
  sleep(onIdle: () => void): void {
    this.#child.unref();
    this.#child.channel?.unref();
    (this.#child.stderr as { unref?: () => void } | null)?.unref?.();
    this.#idleTimer = setTimeout(onIdle, IDLE_MS);
    this.#idleTimer.unref();
  }

  /** Takes the sandbox out of idling for a new document. */
  wake(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    this.#child.ref();
    this.#child.channel?.ref();
    (this.#child.stderr as { ref?: () => void } | null)?.ref?.();
  }

  /** The error of an exit nobody asked for: pdf.js out of memory (its heap is capped at the budget), or crashed. */
  #exitError(code: number | null, signal: NodeJS.Signals | null): Error {
    const where = this.#inFlight?.where ?? 'while idle';
    const page = this.#inFlight?.page;
    const context = page === undefined ? {} : { page };
    if (/heap out of memory|Reached heap limit|Allocation failed/i.test(this.#stderr)) {
      return new ChunkError(
        'ERR_PDF_LIMIT',
        `The PDF needed more than maxPdfMemoryMb (${this.memoryMb} MB) of memory ${where}; raise maxPdfMemoryMb to read it`,
        context,
      );
    }
    const how = signal !== null ? `signal ${signal}` : `code ${code}`;
    return new ChunkError('ERR_PDF_INVALID', `The PDF reader stopped unexpectedly (${how}) ${where}`, context);
  }
}
