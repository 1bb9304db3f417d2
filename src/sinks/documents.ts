/**
 * `toDocuments()`: chunks as `{ pageContent, metadata }`, the document shape LangChain loads as is
 * (`new Document(doc)`) and LlamaIndex takes as `new Document({ text: doc.pageContent, metadata: doc.metadata })`.
 */
import { invalidOption } from '../config.js';
import type { ParentRecord } from '../types.js';
import type { Chunk, PageBox } from '../types.js';

/** What `toDocuments()` puts in `metadata`: flat values, except `headingPath`, LangChain's `loc` and a PDF's `boxes`. */
export interface ChunkDocumentMetadata {
  /** The chunk id: the document id and a digest of the embedded content (see `Chunk.id`). */
  readonly id: string;
  readonly documentId: string;
  /** `chunk.origin` (a path, a URL), when known. */
  readonly source?: string;
  /** The document's title, when it has one (`chunk.documentTitle`). */
  readonly documentTitle?: string;
  readonly index: number;
  /** The ids of the chunks before and after it in its document (`chunk.prevId`, `chunk.nextId`). */
  readonly prevId?: string;
  readonly nextId?: string;
  /** The id of its parent, with the option `parents`: the key of the parent documents (`toParentDocuments`). */
  readonly parentId?: string;
  /** Offsets of `chunk.text` in the source document (UTF-16), end exclusive. */
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  /** LangChain's own location convention, as its text splitters set it. */
  readonly loc: { readonly lines: { readonly from: number; readonly to: number } };
  /** Heading titles in force at the chunk's start, outermost first. */
  readonly headingPath: readonly string[];
  /** `headingPath` joined with `' > '`. */
  readonly breadcrumb: string;
  readonly pageStart?: number;
  readonly pageEnd?: number;
  /** PDF: where the chunk's text is drawn, one box per line (`Chunk.boxes`), to highlight it. */
  readonly boxes?: readonly PageBox[];
  readonly hasCode: boolean;
  readonly hasTable: boolean;
  readonly hasList: boolean;
  readonly hasImage: boolean;
  readonly hasFormula: boolean;
  readonly isSplit: boolean;
  readonly oversized: boolean;
  /** Size in the unit the chunks were made with. */
  readonly size: number;
  /** Hex sha-256 of `chunk.text`, for dedupe. */
  readonly hash: string;
}

/**
 * Where a document's positions (`index`, `prevId`, `nextId`, `parentId`, `start`, `end`, `startLine`, `endLine`, `loc`,
 * `pageStart`, `pageEnd`, `boxes`) go.
 * `'metadata'`: plain metadata keys, stored and hashed like any other. `'unhashed'`: still readable on `metadata`
 * (`doc.metadata.start`), but as non-enumerable properties, so that `Object.keys`, spreading and `JSON.stringify`
 * leave them out: an index that dedupes by a hash of content and metadata (LangChain's `index()` with a
 * RecordManager) then sees an unchanged chunk as unchanged when an edit elsewhere moved it. Stores that serialize
 * metadata do not keep them; the chunk `id` (stable) finds the chunk in a later run instead.
 */
export type PositionMode = 'metadata' | 'unhashed';

/** Options of `toDocument` and `toDocuments`. */
export interface ToDocumentOptions {
  /** Default `'metadata'`. */
  readonly positions?: PositionMode;
}

/** The metadata keys that say where a chunk is rather than what it holds: they change when an edit elsewhere moves it. */
export const POSITION_KEYS: readonly string[] = Object.freeze(['index', 'prevId', 'nextId', 'parentId', 'start', 'end', 'startLine', 'endLine', 'loc', 'pageStart', 'pageEnd', 'boxes']);

/** Turns the position keys of `metadata` into non-enumerable properties, in place. */
export function hidePositions<T extends object>(metadata: T): T {
  for (const key of POSITION_KEYS) {
    if (Object.hasOwn(metadata, key)) {
      Object.defineProperty(metadata, key, { enumerable: false, value: (metadata as Record<string, unknown>)[key], writable: true, configurable: true });
    }
  }
  return metadata;
}

/** A chunk as a loader document. */
export interface ChunkDocument {
  /** `chunk.embedText` when set (contextualized), else `chunk.text`: what should be embedded. */
  readonly pageContent: string;
  readonly metadata: ChunkDocumentMetadata;
  /** The chunk id; LangChain's `Document` keeps it as `id`. */
  readonly id: string;
}

/** Maps one chunk to a loader document. */
export function toDocument(chunk: Chunk, options: ToDocumentOptions = {}): ChunkDocument {
  const m = chunk.metadata;
  const metadata: ChunkDocumentMetadata = {
    id: chunk.id,
    documentId: chunk.documentId,
    ...(chunk.origin !== undefined ? { source: chunk.origin } : {}),
    ...(chunk.documentTitle !== undefined ? { documentTitle: chunk.documentTitle } : {}),
    index: chunk.index,
    ...(chunk.prevId !== undefined ? { prevId: chunk.prevId } : {}),
    ...(chunk.nextId !== undefined ? { nextId: chunk.nextId } : {}),
    ...(chunk.parentId !== undefined ? { parentId: chunk.parentId } : {}),
    start: chunk.start,
    end: chunk.end,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    loc: { lines: { from: chunk.startLine, to: chunk.endLine } },
    headingPath: [...chunk.heading.path],
    breadcrumb: chunk.heading.breadcrumb,
    ...(chunk.pageStart !== undefined ? { pageStart: chunk.pageStart } : {}),
    ...(chunk.pageEnd !== undefined ? { pageEnd: chunk.pageEnd } : {}),
    ...(chunk.boxes !== undefined ? { boxes: chunk.boxes } : {}),
    hasCode: m.hasCode,
    hasTable: m.hasTable,
    hasList: m.hasList,
    hasImage: m.hasImage,
    hasFormula: m.hasFormula,
    isSplit: m.isSplit,
    oversized: chunk.oversized === true,
    size: chunk.size,
    hash: chunk.hash,
  };
  if (options.positions === 'unhashed') hidePositions(metadata);
  else if (options.positions !== undefined && options.positions !== 'metadata') {
    throw invalidOption('positions', "must be 'metadata' or 'unhashed'", options.positions);
  }
  return { pageContent: chunk.embedText ?? chunk.text, metadata, id: chunk.id };
}

/** A parent as a loader document: its text, and metadata that says where it is. */
export interface ParentDocument {
  readonly pageContent: string;
  readonly metadata: {
    readonly id: string;
    readonly documentId: string;
    readonly source?: string;
    readonly index: number;
    readonly start: number;
    readonly end: number;
    readonly startLine: number;
    readonly endLine: number;
    readonly headingPath: readonly string[];
    readonly breadcrumb: string;
    readonly size: number;
  };
  /** The parent id: what its chunks' `parentId` names. */
  readonly id: string;
}

/**
 * Maps parents (`result.parents`, or the `'parent'` events of `chunk()`) to loader documents, for a store of
 * parents keyed by id beside the vector store of chunks: LangChain's `MultiVectorRetriever` with
 * `idKey: 'parentId'` (docs/retrieval-context.md).
 */
export function toParentDocuments(parents: Iterable<ParentRecord>): ParentDocument[] {
  const out: ParentDocument[] = [];
  for (const p of parents) {
    const metadata = {
      id: p.id,
      documentId: p.documentId,
      ...(p.origin !== undefined ? { source: p.origin } : {}),
      index: p.index,
      start: p.start,
      end: p.end,
      startLine: p.startLine,
      endLine: p.endLine,
      headingPath: [...p.heading.path],
      breadcrumb: p.heading.breadcrumb,
      size: p.size,
    };
    out.push({ pageContent: p.text, metadata, id: p.id });
  }
  return out;
}

/** Maps chunks to loader documents, in order. */
export function toDocuments(chunks: Iterable<Chunk>, options: ToDocumentOptions = {}): ChunkDocument[] {
  const out: ChunkDocument[] = [];
  for (const chunk of chunks) out.push(toDocument(chunk, options));
  return out;
}
