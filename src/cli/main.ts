#!/usr/bin/env node
/** The `chunkstream` command. For now: print the blocks of each Markdown file as JSON lines. */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from '../stream/parse.js';
import { trackHeadings } from '../stream/track-headings.js';

async function expand(path: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const entries = (await readdir(path)).sort();
  const files: string[] = [];
  for (const entry of entries) files.push(...(await expand(join(path, entry))));
  return files;
}

async function main(args: string[]): Promise<number> {
  let failed = 0;
  for (const input of args) {
    for (const file of await expand(input)) {
      const lines: string[] = [];
      try {
        await pipeline(
          createReadStream(file),
          parse(),
          trackHeadings(),
          new Writable({
            objectMode: true,
            write(block, _e, cb) {
              lines.push(JSON.stringify({ source: file, ...block }));
              cb();
            },
          }),
        );
        process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
      } catch (error) {
        failed++;
        const e = error as { code?: string; message: string };
        process.stderr.write(`${file}: ${e.code ?? 'ERR_INTERNAL'} ${e.message}\n`);
      }
    }
  }
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => (process.exitCode = code));
