/**
 * Builds finished `Chunk` objects from drafts, so that every strategy fills ids, counts and hashes the same way.
 */
import type { Chunk, ChunkMetadata, HeadingContext } from '../types.js';
import { hashText, nextChunkId } from './chunk-id.js';
import { NO_HEADING } from './heading-tracker.js';
import { isSpaceCode } from '../unicode/segment-windows.js';
import type { DocumentContext } from './document-title.js';

/** What a strategy knows about a chunk before it is numbered. */
export interface ChunkDraft {
  text: string;
  start: number;
  end: number;
  startLine: number;
  endLine: number;
  size: number;
  heading?: HeadingContext;
  prefix?: string;
  suffix?: string;
  pageStart?: number;
  pageEnd?: number;
  metadata?: Partial<ChunkMetadata>;
  oversized?: boolean;
  embedText?: string;
  startTurn?: number;
  endTurn?: number;
}

/** Where a chunk belongs. */
export interface ChunkOwner {
  documentId: string;
  origin?: string | undefined;
  /** The document's context, whose title every chunk carries once it is settled (`document-title.ts`). */
  document?: DocumentContext;
}

/** Metadata with every flag off. */
export const EMPTY_METADATA: ChunkMetadata = Object.freeze({
  hasCode: false,
  hasTable: false,
  hasList: false,
  hasImage: false,
  hasFormula: false,
  isSplit: false,
  kinds: Object.freeze([]),
  languages: Object.freeze([]),
  images: Object.freeze([]),
});

/**
 * Whitespace-separated words (the runs `/\S+/g` finds): cheap, and what most users mean by "word count" for Latin
 * scripts. Counted in place: matching would build an array of every word of every chunk.
 */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const blank = isSpaceCode(text.charCodeAt(i));
    if (!blank && !inWord) words++;
    inWord = !blank;
  }
  return words;
}

/**
 * `{ ...EMPTY_METADATA, ...metadata }`, the same keys in the same order, built as a literal that `metadata` is
 * assigned onto: merging two spreads went through V8's slow path for clones, a fifth of a microsecond per chunk.
 */
function completeMetadata(metadata: Partial<ChunkMetadata> | undefined): ChunkMetadata {
  const { kinds, languages, images } = EMPTY_METADATA;
  const out = { hasCode: false, hasTable: false, hasList: false, hasImage: false, hasFormula: false, isSplit: false, kinds, languages, images };
  return metadata === undefined ? out : Object.assign(out, metadata);
}

/**
 * Numbers a draft and fills its id, counts and hash: the one place a chunk is finished. `id` defaults to the
 * owner's next stable id (see `chunk-id.ts`). The keys come in a fixed order (the order of the JSON lines).
 * `fullMetadata` says that the draft's metadata has every field, in the order of `EMPTY_METADATA` (the semantic
 * chunker's drafts, which nothing else holds once finished): the chunk takes it as it is, not a copy.
 *
 * A chunk without pages is built as one literal (`chunkLiteral`), the rare optional fields stored after it: an
 * object built by storing its fields one by one into `{}` holds four in the object and grows a separate store for
 * the rest five times over, and documents of one heading per line make a chunk every few bytes.
 */
export function finishChunk(draft: ChunkDraft, owner: ChunkOwner, index: number, id?: string, fullMetadata = false): Chunk {
  if (draft.pageStart !== undefined || draft.pageEnd !== undefined) return storedChunk(draft, owner, index, id);
  return withRareFields(chunkLiteral(id ?? nextChunkId(owner, draft), owner, index, draft, fullMetadata), draft);
}

/**
 * The fields of a chunk without pages, up to its hash, as one literal: one of four, as the owner has an origin and
 * the document a title or not (they come second and third).
 */
function chunkLiteral(id: string, owner: ChunkOwner, index: number, draft: ChunkDraft, fullMetadata: boolean): Record<string, unknown> {
  const { documentId, origin } = owner;
  const documentTitle = owner.document?.title;
  const { text, start, end, startLine, endLine, size } = draft;
  const prefix = draft.prefix ?? '';
  const suffix = draft.suffix ?? '';
  const heading = draft.heading ?? NO_HEADING;
  const metadata = fullMetadata ? (draft.metadata as ChunkMetadata) : completeMetadata(draft.metadata);
  const charCount = text.length;
  const wordCount = countWords(text);
  const hash = hashText(text);
  if (origin === undefined) {
    if (documentTitle === undefined) return { id, documentId, index, text, start, end, startLine, endLine, prefix, suffix, heading, metadata, size, charCount, wordCount, hash };
    return { id, documentId, documentTitle, index, text, start, end, startLine, endLine, prefix, suffix, heading, metadata, size, charCount, wordCount, hash };
  }
  if (documentTitle === undefined) return { id, documentId, origin, index, text, start, end, startLine, endLine, prefix, suffix, heading, metadata, size, charCount, wordCount, hash };
  return { id, documentId, origin, documentTitle, index, text, start, end, startLine, endLine, prefix, suffix, heading, metadata, size, charCount, wordCount, hash };
}

/** `finishChunk` for a chunk with pages (a PDF's), its fields stored one by one in the same order. */
function storedChunk(draft: ChunkDraft, owner: ChunkOwner, index: number, id?: string): Chunk {
  const chunk: Record<string, unknown> = {};
  chunk.id = id ?? nextChunkId(owner, draft);
  chunk.documentId = owner.documentId;
  if (owner.origin !== undefined) chunk.origin = owner.origin;
  const title = owner.document?.title;
  if (title !== undefined) chunk.documentTitle = title;
  chunk.index = index;
  chunk.text = draft.text;
  chunk.start = draft.start;
  chunk.end = draft.end;
  chunk.startLine = draft.startLine;
  chunk.endLine = draft.endLine;
  chunk.prefix = draft.prefix ?? '';
  chunk.suffix = draft.suffix ?? '';
  chunk.heading = draft.heading ?? NO_HEADING;
  if (draft.pageStart !== undefined) chunk.pageStart = draft.pageStart;
  if (draft.pageEnd !== undefined) chunk.pageEnd = draft.pageEnd;
  chunk.metadata = completeMetadata(draft.metadata);
  chunk.size = draft.size;
  chunk.charCount = draft.text.length;
  chunk.wordCount = countWords(draft.text);
  chunk.hash = hashText(draft.text);
  return withRareFields(chunk, draft);
}

/** Stores the fields a chunk has only sometimes, after its hash, in the order of the JSON lines. */
function withRareFields(chunk: Record<string, unknown>, draft: ChunkDraft): Chunk {
  if (draft.oversized) chunk.oversized = true;
  if (draft.embedText !== undefined) chunk.embedText = draft.embedText;
  if (draft.startTurn !== undefined) chunk.startTurn = draft.startTurn;
  if (draft.endTurn !== undefined) chunk.endTurn = draft.endTurn;
  return chunk as unknown as Chunk;
}
