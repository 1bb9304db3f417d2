import { resolve, sep } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkError } from '../../../src/errors.js';
import { formatFailedReason, isFinalErrorCode, parseFailedReason } from '../../../src/integrations/queue/failure.js';
import { decodeChunkOptions, encodeChunkOptions, isSafeOutputName, readJobData, type ChunkJobData } from '../../../src/integrations/queue/job-data.js';
import { fcParams } from '../../support/property.js';

/** Job data as `enqueueFiles` writes it. */
function job(extra: Partial<Record<keyof ChunkJobData, unknown>> = {}): Record<string, unknown> {
  return { version: 1, source: 'docs/a.md', output: 'docs/a.md.jsonl', format: 'markdown', path: '/data/docs/a.md', bytes: 12, chunkOptions: { maxSize: 200 }, parseOptions: {}, ...extra };
}

const marker = fc.oneof(
  fc.constantFrom('\n\n', '\n# ', '---'),
  fc.tuple(fc.constantFrom('\\n==', '^#+ ', '\\.\\s', '[|]'), fc.constantFrom('', 'm', 'u', 'mu', 'i')).map(([source, flags]) => new RegExp(source, flags)),
);

describe('job data', () => {
  it('carries chunking options through JSON unchanged, regular-expression markers included', () => {
    fc.assert(
      fc.property(
        fc.record({ maxSize: fc.integer({ min: 16, max: 4096 }), unit: fc.constantFrom('tokens', 'chars', 'words'), markers: fc.array(marker, { maxLength: 4 }) }, { requiredKeys: ['maxSize'] }),
        (options) => {
          const decoded = decodeChunkOptions(JSON.parse(JSON.stringify(encodeChunkOptions(options))));
          expect(decoded.maxSize).toBe(options.maxSize);
          expect(decoded.unit).toBe(options.unit);
          expect(decoded.markers?.map(String)).toEqual(options.markers?.map(String));
          expect(decoded.markers?.map((m) => m instanceof RegExp)).toEqual(options.markers?.map((m) => m instanceof RegExp));
        },
      ),
      fcParams(100),
    );
  });

  it('reads what enqueue writes', () => {
    const data = readJobData(job({ chunkOptions: encodeChunkOptions({ strategy: 'markers', markers: [/\n==/m, '\n\n'] }) }));
    expect(data).toMatchObject({ source: 'docs/a.md', output: 'docs/a.md.jsonl', format: 'markdown', path: '/data/docs/a.md', bytes: 12 });
    expect(data.chunkOptions.markers).toEqual([/\n==/m, '\n\n']);
    expect(readJobData(job({ path: undefined, content: Buffer.from('# Hi\n').toString('base64') })).content).toBe('IyBIaQo=');
  });

  it('rejects malformed data with a coded error, never anything else, whatever the queue holds', () => {
    const field = fc.constantFrom('version', 'source', 'output', 'format', 'path', 'content', 'bytes', 'chunkOptions', 'parseOptions', 'extra');
    fc.assert(
      fc.property(field, fc.anything(), fc.anything(), (key, value, junk) => {
        for (const candidate of [junk, job({ [key]: value })]) {
          try {
            readJobData(candidate);
          } catch (error) {
            expect(error).toBeInstanceOf(ChunkError);
            expect(['ERR_INVALID_INPUT', 'ERR_INVALID_OPTION']).toContain((error as ChunkError).code);
          }
        }
      }),
      fcParams(300),
    );
  });

  it('names the rule broken', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [job({ version: 2 }), /version must be 1/],
      [job({ output: '../../etc/passwd.jsonl' }), /output must be a relative \.jsonl path/],
      [job({ output: '/abs.jsonl' }), /output must be a relative/],
      [job({ path: 'relative/a.md' }), /path must be an absolute path/],
      [job({ content: 'AAAA' }), /exactly one of path and content/],
      [job({ format: 'rtf' }), /format must be one of/],
      [job({ chunkOptions: { documentId: 'x' } }), /chunkOptions.documentId is set per job/],
      [job({ parseOptions: { workers: 2 } }), /unknown parse option workers/],
      [job({ chunkOptions: { markers: [{ regex: '(', flags: '' }] } }), /invalid regular expression/],
    ];
    for (const [data, message] of cases) {
      expect(() => readJobData(data)).toThrow(message);
      try {
        readJobData(data);
      } catch (error) {
        expect((error as ChunkError).code).toBe('ERR_INVALID_INPUT');
      }
    }
    expect(() => readJobData(job({ chunkOptions: { maxSize: -1 } }))).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringContaining('maxSize') }));
  });

  it('accepts only output names that stay inside the output folder', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b.md', '..', '.', '', 'x y', '.hidden', '日本'), { maxLength: 5 }), fc.constantFrom('.jsonl', '.txt', ''), fc.boolean(), (parts, ext, absolute) => {
        const name = (absolute ? sep : '') + parts.join(sep) + ext;
        if (!isSafeOutputName(name)) return;
        const dir = resolve('/out');
        expect(resolve(dir, name).startsWith(dir + sep)).toBe(true);
        expect(name.endsWith('.jsonl')).toBe(true);
      }),
      fcParams(300),
    );
    expect(isSafeOutputName('docs/a.md.jsonl')).toBe(true);
    expect(isSafeOutputName('stdin.jsonl')).toBe(true);
    for (const bad of ['', '../a.jsonl', 'a/../../b.jsonl', '/a.jsonl', './a.jsonl', 'a//b.jsonl', 'a.md', 'a\0.jsonl']) expect(isSafeOutputName(bad)).toBe(false);
  });
});

describe('failed reasons', () => {
  it('carry the code in front of the message and read back the same', () => {
    fc.assert(
      fc.property(fc.constantFrom('ERR_PDF_INVALID', 'ERR_READ', 'ERR_INTERNAL', 'ERR_WRITE'), fc.string(), (code, message) => {
        expect(parseFailedReason(formatFailedReason(code, message))).toEqual({ code, message });
      }),
      fcParams(200),
    );
    expect(parseFailedReason('job stalled more than allowable limit')).toEqual({ code: undefined, message: 'job stalled more than allowable limit' });
    expect(parseFailedReason(undefined)).toEqual({ code: undefined, message: '' });
  });

  it('retry what a retry may fix, and nothing else', () => {
    for (const code of ['ERR_PDF_INVALID', 'ERR_PDF_ENCRYPTED', 'ERR_INVALID_UTF8', 'ERR_INVALID_INPUT', 'ERR_INVALID_OPTION', 'ERR_TRANSCRIPT_INVALID']) expect(isFinalErrorCode(code)).toBe(true);
    for (const code of ['ERR_READ', 'ERR_INTERNAL', 'ERR_WRITE']) expect(isFinalErrorCode(code)).toBe(false);
  });
});
