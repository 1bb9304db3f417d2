/**
 * `parse()`: bytes in, typed blocks out — one core (`createParseCore`) behind `toTransform`, as every stage is. The
 * format table (`parsers/formats.ts`) says how each format takes its input: as it arrives (Markdown, in bounded
 * batches, inline or on a shared pool of worker threads; plain text), or whole, held up to its cap and read at the
 * end with the consumer's backpressure respected: a PDF (which needs random access) in a temporary file, read page
 * by page from there, a transcript in memory. With `format: 'auto'` the first kilobyte is held until it shows the
 * format.
 */
import type { Transform } from 'node:stream';
import { normalizeParseOptions, type DocumentFormat, type ParseConfig, type ParseOptions } from '../config.js';
import { pushAll, type StageCore, type StageOutput } from '../core.js';
import { ChunkError } from '../errors.js';
import { DETECT_BYTES, detectFormat } from '../parsers/detect.js';
import { formatEntry, type ReaderEvents, type WholeReader } from '../parsers/formats.js';
import type { Block } from '../types.js';
import { Spool } from './spool.js';
import { toTransform } from './to-transform.js';

/** The detector of `format: 'auto'`, exported from here as it always was. */
export { detectFormat };

/** What `parse()` takes: bytes or strings. */
type ParseInput = string | Uint8Array;

/** The core of a format's reader, as the format table describes it. */
function createFormatCore(format: DocumentFormat, config: ParseConfig, events: ReaderEvents): StageCore<ParseInput, Block> {
  const { reader } = formatEntry(format);
  return reader.input === 'stream' ? reader.createCore(config, events) : createWholeInputCore(reader, config, events);
}

/**
 * The core of a reader that needs the whole input: the bytes are held (in memory, or in a temporary file) up to
 * the reader's limit, and read at the end, one block at a time. A file-held input is never in memory past a write.
 */
function createWholeInputCore(reader: WholeReader, config: ParseConfig, events: ReaderEvents): StageCore<ParseInput, Block> {
  const held = { bytes: 0, pieces: [] as Uint8Array[], spool: reader.input === 'file' ? new Spool() : null };

  /** Writes `bytes` to the spool; the write's output (none) comes once they are on disk. */
  const spoolWrite = (spool: Spool, bytes: Uint8Array): AsyncIterable<Block> => ({
    async *[Symbol.asyncIterator]() {
      await spool.write(bytes);
      yield* [];
    },
  });

  async function* readSpooled(spool: Spool): AsyncGenerator<Block> {
    try {
      const path = await spool.finish();
      yield* await reader.read(path, config, events);
    } finally {
      await spool.remove();
    }
  }

  async function* readHeld(): AsyncGenerator<Block> {
    const bytes = Buffer.concat(held.pieces);
    held.pieces = [];
    yield* await reader.read(bytes, config, events);
  }

  return {
    write(input) {
      const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
      held.bytes += bytes.length;
      if (held.bytes > reader.limit(config)) throw reader.tooLarge(config);
      if (held.spool !== null) return spoolWrite(held.spool, bytes);
      held.pieces.push(bytes);
      return [];
    },
    end: () => (held.spool !== null ? readSpooled(held.spool) : readHeld()),
    close() {
      void held.spool?.remove();
    },
  };
}

/**
 * The core of `format: 'auto'`: holds the writes until `DETECT_BYTES` have come (or the input ends), settles the
 * format from them (`detectFormat`), then hands the held writes, as they were, to that format's core.
 */
function createDetectingCore(config: ParseConfig, events: ReaderEvents): StageCore<ParseInput, Block> {
  const state = { held: [] as ParseInput[], bytes: 0, core: null as StageCore<ParseInput, Block> | null };

  /** Settles the format and writes the held inputs to its core. */
  const decide = (): { core: StageCore<ParseInput, Block>; out: StageOutput<Block> } => {
    const head = Buffer.concat(state.held.map((input) => (typeof input === 'string' ? Buffer.from(input, 'utf8') : input)));
    const core = createFormatCore(detectFormat(head), config, events);
    state.core = core;
    const held = state.held;
    state.held = [];
    return { core, out: writeAll(core, held) };
  };

  return {
    write(input) {
      if (state.core !== null) return state.core.write(input);
      state.held.push(input);
      state.bytes += typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length;
      return state.bytes < DETECT_BYTES ? [] : decide().out;
    },
    end() {
      if (state.core !== null) return state.core.end();
      const { core, out } = decide();
      return concatOutputs(out, () => core.end());
    },
    close: () => state.core?.close?.(),
  };
}

/** Writes `inputs` to `core` in order: the outputs of all, at once when each gives them at once. */
function writeAll(core: StageCore<ParseInput, Block>, inputs: readonly ParseInput[]): StageOutput<Block> {
  const out: Block[] = [];
  for (let index = 0; index < inputs.length; index++) {
    const blocks = core.write(inputs[index] as ParseInput);
    if (!Array.isArray(blocks)) return concatOutputs(out, () => concatOutputs(blocks, () => writeAll(core, inputs.slice(index + 1))));
    pushAll(out, blocks as readonly Block[]);
  }
  return out;
}

/** The outputs of `first`, then those `next` gives once `first` is through (at once when both are arrays). */
function concatOutputs(first: StageOutput<Block>, next: () => StageOutput<Block>): StageOutput<Block> {
  if (Array.isArray(first)) {
    const rest = next();
    if (Array.isArray(rest)) return first.length === 0 ? rest : [...first, ...rest];
    return first.length === 0 ? rest : chain(first, () => rest);
  }
  return chain(first, next);
}

async function* chain(first: StageOutput<Block>, next: () => StageOutput<Block>): AsyncGenerator<Block> {
  yield* first;
  yield* next();
}

/** Checks what was written: strings, Buffers or Uint8Arrays. */
function checkedInput(chunk: unknown): ParseInput {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return chunk;
  throw new ChunkError('ERR_INVALID_INPUT', `parse() takes strings, Buffers or Uint8Arrays, got ${chunk === null ? 'null' : typeof chunk}`);
}

/**
 * The parse core: bytes or strings in, blocks out, by the format table (with `format: 'auto'`, by the first bytes).
 * Outputs of the readers that work asynchronously (the worker pool, a PDF's sandbox) come as async iterables.
 */
export function createParseCore(config: ParseConfig, events: ReaderEvents = {}): StageCore<unknown, Block> {
  const core = config.format === 'auto' ? createDetectingCore(config, events) : createFormatCore(config.format, config, events);
  return {
    write: (input) => core.write(checkedInput(input)),
    end: () => core.end(),
    close: () => core.close?.(),
  };
}

/** Bytes of a write the parse stage reads at a time (see `ToTransformOptions.pieceBytes`): a batch's worth. */
const PARSE_PIECE_BYTES = 8 * 1024;

/**
 * Creates the parse stage: a Transform taking Buffers or strings and emitting `Block` objects.
 *
 * For a PDF, the stream emits `'info'` with a `PdfInfo` (`{ pages, needsOcr, warnings }`) after its last block and
 * before `'end'`.
 *
 * ```ts
 * await pipeline(fs.createReadStream('guide.md'), parse(), chunk(), toJsonl(), process.stdout);
 * ```
 */
export function parse(options?: ParseOptions): Transform {
  const config = normalizeParseOptions(options);
  const sink: { stream: Transform | null } = { stream: null };
  const core = createParseCore(config, { info: (info) => sink.stream?.emit('info', info) });
  const stage = { writableObjectMode: true, readableObjectMode: true, pieceBytes: PARSE_PIECE_BYTES };
  sink.stream = toTransform(core, config.signal ? { ...stage, signal: config.signal } : stage);
  return sink.stream;
}
