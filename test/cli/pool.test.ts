import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileRunner, createInlineRunner } from '../../src/cli/pool.js';
import type { InputFile } from '../../src/files/inputs.js';
import { DEFAULT_BATCH_BYTES, type FileResult, type ProcessConfig } from '../../src/files/process-file.js';
import { ROOT } from './support.js';

const config: ProcessConfig = { chunkOptions: { maxSize: 256 }, parseOptions: {}, batchBytes: DEFAULT_BATCH_BYTES };

function sample(name: string, format: InputFile['format']): InputFile {
  const path = join(ROOT, 'samples', name);
  return { path, source: `samples/${name}`, format, bytes: statSync(path).size };
}

describe('the file runner of this thread', () => {
  it('runs a second file while a PDF waits on its sandbox when it chunks alone (--jobs 1)', async () => {
    const runner = createFileRunner(1, config, new AbortController().signal, true);
    const finished: string[] = [];
    const track = (input: InputFile): Promise<FileResult> =>
      runner.run(input, async () => {}).then((result) => {
        finished.push(input.source);
        return result;
      });
    const pdf = track(sample('handbook.pdf', 'pdf'));
    expect(runner.ready()).toBe(true);
    const markdown = track(sample('guide.md', 'markdown'));
    expect(runner.ready()).toBe(false);
    const results = await Promise.all([pdf, markdown]);
    expect(results.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(results.map((r) => r.report.chunks > 0)).toEqual([true, true]);
    // The Markdown file, started second, did not wait for the PDF's pages.
    expect(finished).toEqual(['samples/guide.md', 'samples/handbook.pdf']);
    expect(runner.ready()).toBe(true);
    await runner.close();
  });

  it('runs one file at a time unless given more (what the file runner gives it beside worker threads)', async () => {
    const runner = createInlineRunner(config, new AbortController().signal);
    const running = runner.run(sample('guide.md', 'markdown'), async () => {});
    expect(runner.ready()).toBe(false);
    expect((await running).error).toBeUndefined();
    expect(runner.ready()).toBe(true);
  });
});
