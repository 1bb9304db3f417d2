/**
 * The job processor without Redis: a job is plain data, so the processor runs here on job-like objects. Its output
 * must be what `chunkstream FILE` prints, its failures must carry their code, and a stop must hand the job back.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { UnrecoverableError, WaitingError } from 'bullmq';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText } from '../../../src/api/chunk.js';
import { chunkLine } from '../../../src/files/process-file.js';
import { createChunkProcessor, type ChunkJobLike } from '../../../src/integrations/queue/processor.js';
import { encodeChunkOptions, type ChunkJobData } from '../../../src/integrations/queue/job-data.js';
import { ensureBuilt, BIN, ROOT } from '../../cli/support.js';
import { markdownDocument } from '../../support/markdown-arbitrary.js';
import { guidePdf } from '../../support/pdf-samples.js';
import { fcParams } from '../../support/property.js';

let dir: string;
let outDir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-processor-'));
  outDir = join(dir, 'out');
  mkdirSync(outDir);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const processor = () => createChunkProcessor({ outDir, workerId: 'test:1', inputRoots: [ROOT, dir] });

function jobFor(data: Partial<ChunkJobData>, extra: Partial<ChunkJobLike> = {}): ChunkJobLike {
  return { id: '1', data: { version: 1, format: 'auto', chunkOptions: {}, parseOptions: {}, ...data }, ...extra };
}

/** What the built command prints for `file`, run from the project root (the source is the path as given). */
function cliOutput(file: string, args: string[] = []): string {
  return execFileSync(process.execPath, [BIN, '-q', '--jobs', '1', ...args, file], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
}

function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );
}

describe('chunk job processor', () => {
  it('writes exactly what chunkstream FILE prints, for the samples and a typeset PDF', async () => {
    const pdf = join(dir, 'guide.pdf');
    writeFileSync(pdf, guidePdf());
    const inputs: [string, string, ChunkJobData['format']][] = [
      ...readdirSync(join(ROOT, 'samples')).filter((n) => n.endsWith('.md')).map((n): [string, string, 'markdown'] => [`samples/${n}`, join(ROOT, 'samples', n), 'markdown']),
      [pdf, pdf, 'pdf'],
    ];
    for (const [source, path, format] of inputs) {
      const output = `${basename(source)}.jsonl`;
      const result = await processor()(jobFor({ source, output, format, path }));
      const expected = cliOutput(source);
      expect(readFileSync(join(outDir, output), 'utf8')).toBe(expected);
      expect(result).toMatchObject({ source, output, chunks: expected.split('\n').length - 1, worker: 'test:1' });
      expect(result.bytes).toBeGreaterThan(0);
    }
  });

  it('says in its result what the reader had to make good, as the command line does', async () => {
    const latin1 = Buffer.from('# Caf\xe9\n\nNa\xefve text in Latin-1.\n', 'latin1');
    const result = await processor()(jobFor({ source: 'notes/latin1.md', output: 'latin1.jsonl', format: 'markdown', content: latin1.toString('base64') }));
    expect(result.warnings).toEqual([expect.stringMatching(/invalid UTF-8/i)]);
    const clean = await processor()(jobFor({ source: 'notes/clean.md', output: 'clean.jsonl', format: 'markdown', content: Buffer.from('# Cafe\n\nText.\n').toString('base64') }));
    expect(clean.warnings).toBeUndefined();
  });

  it('applies the job\'s chunking options as the command line applies its flags', async () => {
    const source = 'samples/guide.md';
    const options = { unit: 'chars' as const, maxSize: 300, overlap: 20 };
    await processor()(jobFor({ source, output: 'opts.jsonl', path: join(ROOT, source), chunkOptions: encodeChunkOptions(options) }));
    expect(readFileSync(join(outDir, 'opts.jsonl'), 'utf8')).toBe(cliOutput(source, ['--unit', 'chars', '--max-size', '300', '--overlap', '20']));
  });

  it('gives the chunks of chunkText, as JSON lines, for any Markdown carried inline', async () => {
    await fc.assert(
      fc.asyncProperty(markdownDocument, fc.constantFrom(48, 128, 512), async (text, maxSize) => {
        const source = 'notes/doc.md';
        const output = 'prop/doc.md.jsonl';
        const chunkOptions = { maxSize };
        await processor()(jobFor({ source, output, format: 'markdown', content: Buffer.from(text).toString('base64'), chunkOptions }));
        const expected = chunkText(text, { ...chunkOptions, documentId: source, origin: source }).chunks.map((c) => chunkLine(c, source)).join('');
        expect(readFileSync(join(outDir, output), 'utf8')).toBe(expected);
      }),
      fcParams(25),
    );
  });

  it('rewrites the same file when a job runs again, and leaves no temporary file behind', async () => {
    const source = 'samples/structures.md';
    const data = { source, output: 'again/s.md.jsonl', path: join(ROOT, source) };
    // A run killed mid-write leaves its temporary file; the next run of the job (BullMQ counts them) removes it.
    mkdirSync(join(outDir, 'again'), { recursive: true });
    writeFileSync(join(outDir, 'again/.s.md.jsonl.7.1.tmp'), 'half a file');
    await processor()(jobFor(data, { id: '7', attemptsStarted: 2 }));
    const first = readFileSync(join(outDir, 'again/s.md.jsonl'), 'utf8');
    expect(first.length).toBeGreaterThan(0);
    await processor()(jobFor(data, { id: '7', attemptsStarted: 3 }));
    expect(readFileSync(join(outDir, 'again/s.md.jsonl'), 'utf8')).toBe(first);
    expect(readdirSync(join(outDir, 'again'))).toEqual(['s.md.jsonl']);
  });

  it('fails a broken PDF with its code, for good, and writes nothing', async () => {
    const broken = join(dir, 'broken.pdf');
    writeFileSync(broken, Buffer.from(guidePdf()).subarray(0, 600));
    const error = await rejection(processor()(jobFor({ source: broken, output: 'broken.pdf.jsonl', format: 'pdf', path: broken })));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toMatch(/^ERR_PDF_INVALID /);
    expect(existsSync(join(outDir, 'broken.pdf.jsonl'))).toBe(false);
    expect(readdirSync(outDir).filter((n) => n.startsWith('.broken'))).toEqual([]);
  });

  it('fails an encrypted PDF for good, and a file that cannot be read for a retry', async () => {
    const encrypted = join(ROOT, 'test/fixtures/encrypted-aes256.pdf');
    const locked = await rejection(processor()(jobFor({ source: encrypted, output: 'enc.jsonl', format: 'pdf', path: encrypted })));
    expect(locked).toBeInstanceOf(UnrecoverableError);
    expect(locked.message).toMatch(/^ERR_PDF_ENCRYPTED /);
    const missing = await rejection(processor()(jobFor({ source: 'gone.md', output: 'gone.jsonl', format: 'markdown', path: join(dir, 'gone.md') })));
    expect(missing).not.toBeInstanceOf(UnrecoverableError);
    expect(missing.message).toMatch(/^ERR_READ /);
  });

  it('fails a job whose output cannot be written with ERR_WRITE, for a retry', async () => {
    // The output folder's place is taken by a file: nothing can be created under it.
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'a file, not a folder');
    const error = await rejection(createChunkProcessor({ outDir: blocked, workerId: 'test:1', inputRoots: [ROOT] })(jobFor({ source: 'samples/guide.md', output: 'g.jsonl', format: 'markdown', path: join(ROOT, 'samples/guide.md') })));
    expect(error).not.toBeInstanceOf(UnrecoverableError);
    expect(error.message).toMatch(/^ERR_WRITE Cannot write /);
  });

  it('fails malformed job data for good, with ERR_INVALID_INPUT, and never writes outside its folder', async () => {
    const escaped = await rejection(processor()(jobFor({ source: 'x', output: '../escape.jsonl', path: join(ROOT, 'samples/guide.md') })));
    expect(escaped).toBeInstanceOf(UnrecoverableError);
    expect(escaped.message).toMatch(/^ERR_INVALID_INPUT Invalid job data: output must be/);
    expect(existsSync(join(dir, 'escape.jsonl'))).toBe(false);
    const junk = await rejection(processor()({ id: '2', data: 'not an object' }));
    expect(junk.message).toMatch(/^ERR_INVALID_INPUT /);
    const option = await rejection(processor()(jobFor({ source: 'x', output: 'x.jsonl', path: join(ROOT, 'samples/guide.md'), chunkOptions: { maxSize: -5 } })));
    expect(option).toBeInstanceOf(UnrecoverableError);
    expect(option.message).toMatch(/^ERR_INVALID_OPTION Invalid option maxSize/);
  });

  it("renames its output into place only once the file is complete and the job's lock is confirmed still its own", async () => {
    const text = '# Fenced\n\nA paragraph of the fenced document.\n';
    const data = { source: 'fenced.md', output: 'fenced/f.md.jsonl', format: 'markdown' as const, content: Buffer.from(text).toString('base64') };
    const seen: { token: string; duration: number; target: boolean; temps: string[] }[] = [];
    const extendLock = async (token: string, duration: number): Promise<number> => {
      seen.push({ token, duration, target: existsSync(join(outDir, 'fenced/f.md.jsonl')), temps: readdirSync(join(outDir, 'fenced')) });
      return 1;
    };
    await createChunkProcessor({ outDir, workerId: 'test:1', lockDuration: 4321 })(jobFor(data, { id: '9', attemptsStarted: 1, extendLock }), 'token-9');
    expect(seen).toEqual([{ token: 'token-9', duration: 4321, target: false, temps: ['.f.md.jsonl.9.1.tmp'] }]);
    expect(readdirSync(join(outDir, 'fenced'))).toEqual(['f.md.jsonl']);
  });

  it("discards a late run's output: its lock passed to another run, or that run removed its temporary file", async () => {
    const doc = (text: string) => ({ source: 'late.md', output: 'late/l.md.jsonl', format: 'markdown' as const, content: Buffer.from(text).toString('base64') });
    const target = join(outDir, 'late/l.md.jsonl');
    // Cut off for longer than the lock: the lock is another run's, and its token no longer matches.
    const lost = await rejection(processor()(jobFor(doc('# Late\n\nFirst run.\n'), { id: '5', attemptsStarted: 1, extendLock: async () => 0 }), 'token-a'));
    expect(lost).not.toBeInstanceOf(UnrecoverableError);
    expect(lost.message).toBe(`ERR_WRITE Discarded this run's ${target}: the job passed to another worker while this one was cut off from Redis for longer than its lock; the worker that holds the job writes it`);
    expect(existsSync(join(outDir, 'late')) ? readdirSync(join(outDir, 'late')) : []).toEqual([]);
    // Cut off just after it confirmed its lock: the next run starts, removes its temporary file and finishes first.
    const second = doc('# Late\n\nSecond run, which took the job over.\n');
    const overtaken = async (): Promise<number> => {
      await processor()(jobFor(second, { id: '5', attemptsStarted: 2, extendLock: async () => 1 }), 'token-b');
      return 1;
    };
    const stale = await rejection(processor()(jobFor(doc('# Late\n\nFirst run again.\n'), { id: '5', attemptsStarted: 1, extendLock: overtaken }), 'token-a'));
    expect(stale.message).toBe(`ERR_WRITE Discarded this run's ${target}: a later run of the job removed its temporary file; the worker that holds the job writes it`);
    expect(readFileSync(target, 'utf8')).toContain('Second run, which took the job over.');
    expect(readdirSync(join(outDir, 'late'))).toEqual(['l.md.jsonl']);
  });

  it('hands the job back when stopped mid-job, and writes nothing', async () => {
    const big = join(dir, 'big.md');
    writeFileSync(big, '# Big\n\n' + 'A sentence of words that go on. '.repeat(40).concat('\n\n').repeat(3000));
    const handedBack: (string | undefined)[] = [];
    const controller = new AbortController();
    const job = jobFor({ source: big, output: 'big.md.jsonl', format: 'markdown', path: big }, { moveToWait: async (token) => handedBack.push(token) });
    const run = processor()(job, 'token-1', controller.signal);
    setTimeout(() => controller.abort(new Error('stopped')), 50);
    const error = await rejection(run);
    expect(error).toBeInstanceOf(WaitingError);
    expect(handedBack).toEqual(['token-1']);
    expect(existsSync(join(outDir, 'big.md.jsonl'))).toBe(false);
    expect(readdirSync(outDir).filter((n) => n.startsWith('.big'))).toEqual([]);
  });
});
