import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';

function fakeTerminal(): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  Object.assign(stream, { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  let text = '';
  (stream as unknown as PassThrough).on('data', (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
}

describe('createProgress', () => {
  it('draws files, bytes and chunks on a terminal', () => {
    const t = fakeTerminal();
    const p = createProgress({ enabled: true, files: 2, totalBytes: 2_000_000, stream: t.stream });
    p.advance(1_000_000, 42);
    p.fileDone();
    p.log('a.png: skipped, unsupported file type (.png)');
    p.stop();
    const out = t.text();
    expect(out).toContain('1/2 files');
    expect(out).toContain('1.0 MB');
    expect(out).toContain('42 chunks');
    expect(out).toContain('a.png: skipped');
  });

  it('draws nothing when disabled, but still passes notes through', () => {
    const t = fakeTerminal();
    const p = createProgress({ enabled: false, files: 2, totalBytes: 10, stream: t.stream });
    p.advance(5, 1);
    p.fileDone();
    p.log('note');
    p.stop();
    expect(t.text()).toBe('note\n');
  });
});
