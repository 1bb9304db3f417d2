/**
 * `SemanticChunker`: the semantic chunker as one object, configured once, with its parts injected, for any number
 * of documents. A thin shell over `chunkText`, `chunkFile`, `chunkBlocks` and the `chunk()` stream stage, which it
 * calls with its config and parts: the chunks are the same.
 */
import { finished } from 'node:stream';
import { normalizeOptions, normalizeParseOptions, invalidOption, type ChunkConfig } from '../config.js';
import { resolveDeps, type ChunkDeps } from '../chunking/chunker.js';
import { ChunkError } from '../errors.js';
import type { HeadingTrackerProtocol } from '../protocols.js';
import { chunk, type ChunkStream } from '../stream/chunk.js';
import type { Block, ChunkingResult } from '../types.js';
import { chunkBlocks, chunkFile, chunkText, splitOptions, type ChunkFileOptions, type ChunkFileResult } from './chunk.js';
import { splitterUnitMismatch } from './parts.js';

/**
 * The semantic chunker, configured once:
 *
 * ```ts
 * const chunker = new SemanticChunker({ targetSize: 500, maxSize: 700 }, { textSplitter, headingTracker });
 * const { chunks, statistics, document } = chunker.chunk(markdown);
 * const paper = await chunker.chunkFile('paper.pdf');
 * await pipeline(createReadStream('guide.md'), parse(), chunker.stream(), sink);
 * ```
 *
 * An injected `headingTracker` is reset before each document. It keeps state while a document is chunked, so a
 * document started while one of this chunker's streams still uses it throws `ERR_IN_USE`: make one chunker per
 * concurrent stream, or leave the tracker out (each document then gets a tracker of its own).
 */
export class SemanticChunker {
  /** The chunking options, normalized (defaults filled in, validated, frozen). */
  readonly config: ChunkConfig;
  readonly #options: ChunkFileOptions;
  readonly #parts: ChunkDeps;
  readonly #tracker: HeadingTrackerProtocol | undefined;
  #streamsUsingTracker = 0;

  /** Checks the options and parts at once: a typo or a wrong part fails here, not at the first document. */
  constructor(config: ChunkFileOptions = {}, parts: ChunkDeps = {}) {
    const { parseOptions, chunkOptions } = splitOptions(config);
    normalizeParseOptions(parseOptions);
    this.config = normalizeOptions(chunkOptions);
    const unit = splitterUnitMismatch(parts.textSplitter, this.config);
    if (unit !== undefined) {
      throw invalidOption('textSplitter', `measures in ${unit} but the chunker in ${this.config.unit}: give it the same unit (new TextSplitter({ unit: '${this.config.unit}' }))`, parts.textSplitter);
    }
    resolveDeps(this.config, parts);
    this.#options = { ...config };
    this.#tracker = parts.headingTracker ?? parts.tracker;
    const { tracker: _, headingTracker: __, ...rest } = parts;
    this.#parts = rest;
  }

  /** Chunks a Markdown document (a string or its UTF-8 bytes), synchronously. */
  chunk(document: string | Uint8Array, documentId?: string): ChunkingResult {
    return chunkText(document, this.#withId(documentId), this.#partsForOneDocument());
  }

  /** Chunks a file (Markdown, PDF, transcript or text); the document id is the path unless the config gives one. */
  chunkFile(path: string): Promise<ChunkFileResult> {
    return chunkFile(path, this.#options, this.#partsForOneDocument());
  }

  /** Chunks blocks (from `parseMarkdown`, `parsePdf`, `parseText` or your own parser), synchronously. */
  chunkBlocks(blocks: Iterable<Block>, documentId?: string): ChunkingResult {
    const { chunkOptions } = splitOptions(this.#withId(documentId));
    return chunkBlocks(blocks, chunkOptions, this.#partsForOneDocument());
  }

  /**
   * The chunk stage with this chunker's config and parts: `Block` objects in (from `parse()`), `Chunk` objects
   * out, with `statistics()`. One stream chunks one document.
   */
  stream(documentId?: string): ChunkStream {
    const parts = this.#partsForOneDocument();
    const { chunkOptions } = splitOptions(this.#withId(documentId));
    const stream = chunk(chunkOptions, parts);
    if (this.#tracker !== undefined) {
      this.#streamsUsingTracker++;
      finished(stream, () => this.#streamsUsingTracker--);
    }
    return stream;
  }

  #withId(documentId: string | undefined): ChunkFileOptions {
    return documentId === undefined ? this.#options : { ...this.#options, documentId };
  }

  /**
   * The parts for one document. The injected tracker is reset when the document's chunking starts: its first
   * method call resets it, so a file read concurrently with another never starts from the other's headings.
   */
  #partsForOneDocument(): ChunkDeps {
    const tracker = this.#tracker;
    if (tracker === undefined) return this.#parts;
    if (this.#streamsUsingTracker > 0) {
      throw new ChunkError('ERR_IN_USE', 'this SemanticChunker’s headingTracker is in use by one of its open streams: make one chunker per concurrent stream');
    }
    let started = false;
    const start = (): HeadingTrackerProtocol => {
      if (!started) {
        started = true;
        tracker.reset();
      }
      return tracker;
    };
    const headingTracker: HeadingTrackerProtocol = {
      update: (level, text) => start().update(level, text),
      getPath: () => start().getPath(),
      getLevels: () => start().getLevels(),
      reset: () => start().reset(),
    };
    return { ...this.#parts, headingTracker };
  }
}
