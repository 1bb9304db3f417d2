import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lines, runCli } from './support.js';

let dir: string;
const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} says what it has to say, in words of its own (${i}).`);

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-diff-'));
  writeFileSync(join(dir, 'doc.md'), `# Notes\n\n${paragraphs.join('\n\n')}\n`);
  const old = await runCli(['-q', '--max-size', '24', join(dir, 'doc.md'), '--out', join(dir, 'old.jsonl')]);
  expect(old.code).toBe(0);
  const edited = [...paragraphs.slice(0, 4), 'A paragraph added in the middle of the notes.', ...paragraphs.slice(4)];
  writeFileSync(join(dir, 'doc.md'), `# Notes\n\n${edited.join('\n\n')}\n`);
  const next = await runCli(['-q', '--max-size', '24', join(dir, 'doc.md'), '--out', join(dir, 'new.jsonl')]);
  expect(next.code).toBe(0);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chunkstream diff', () => {
  it('lists the added chunks with their line, the removed ids, and counts on stderr', async () => {
    const run = await runCli(['diff', join(dir, 'old.jsonl'), join(dir, 'new.jsonl')]);
    expect(run.code).toBe(0);
    const out = lines(run.stdout) as { change: string; id: string; chunk?: { text: string }; source?: string }[];
    const added = out.filter((l) => l.change === 'added');
    expect(added.length).toBeGreaterThanOrEqual(1);
    expect(added.length).toBeLessThanOrEqual(3);
    expect(added.some((l) => l.chunk!.text.includes('added in the middle'))).toBe(true);
    const counts = /(\d+) added, (\d+) removed, (\d+) kept/.exec(run.stderr)!;
    expect(Number(counts[1])).toBe(added.length);
    expect(Number(counts[2])).toBe(out.filter((l) => l.change === 'removed').length);
    expect(Number(counts[3])).toBeGreaterThan(added.length);
    expect(out.filter((l) => l.change === 'removed').every((l) => l.source === join(dir, 'doc.md'))).toBe(true);
  });

  it('says which removed lines were parents (--parents output), as their added lines do', async () => {
    const line = (record: object) => `${JSON.stringify(record)}\n`;
    writeFileSync(join(dir, 'old-parents.jsonl'), line({ type: 'parent', id: 'd#p-a', source: 'd.md' }) + line({ id: 'd#1', parentId: 'd#p-a', source: 'd.md' }));
    writeFileSync(join(dir, 'new-parents.jsonl'), line({ type: 'parent', id: 'd#p-b', source: 'd.md' }) + line({ id: 'd#1', parentId: 'd#p-b', source: 'd.md' }));
    const run = await runCli(['diff', join(dir, 'old-parents.jsonl'), join(dir, 'new-parents.jsonl')]);
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toEqual([
      { change: 'added', id: 'd#p-b', chunk: { type: 'parent', id: 'd#p-b', source: 'd.md' } },
      { change: 'removed', id: 'd#p-a', type: 'parent', source: 'd.md' },
    ]);
  });

  it('prints plain id lines with --ids, kept ones too with --kept', async () => {
    const run = await runCli(['diff', '--ids', '--kept', join(dir, 'old.jsonl'), join(dir, 'new.jsonl')]);
    expect(run.code).toBe(0);
    const rows = run.stdout.trim().split('\n');
    expect(rows.every((r) => /^[+=-] .+#[0-9a-f]{16}(-\d+)?$/.test(r))).toBe(true);
    expect(rows.filter((r) => r.startsWith('= ')).length).toBe(Number(/(\d+) kept/.exec(run.stderr)![1]));
  });

  it('fails with a coded error on a line that is not a chunk, and on a missing file; exit 2 on bad usage', async () => {
    writeFileSync(join(dir, 'bad.jsonl'), '{"id":"a#1"}\n{"text":"no id"}\n');
    const bad = await runCli(['diff', join(dir, 'old.jsonl'), join(dir, 'bad.jsonl')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('bad.jsonl:2: ERR_INVALID_INPUT');
    const missing = await runCli(['diff', join(dir, 'nope.jsonl'), join(dir, 'new.jsonl')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ERR_READ');
    expect((await runCli(['diff', join(dir, 'old.jsonl')])).code).toBe(2);
    expect((await runCli(['diff', '--what', 'a', 'b'])).code).toBe(2);
  });
});
