/**
 * chunkstream/llamaindex with the real @llamaindex/core: documents through the node parser and files through the
 * transform, embedded by the framework (`getContent(MetadataMode.EMBED)`), stored, retrieved.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeParser } from '@llamaindex/core/node-parser';
import { Document, MetadataMode, NodeRelationship, type TextNode } from '@llamaindex/core/schema';
import { VectorStoreQueryMode } from '@llamaindex/core/vector-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenSizer } from '../../src/chunking/sizers/index.js';
import { ChunkstreamFileTransform, ChunkstreamNodeParser } from '../../src/integrations/llamaindex/index.js';
import { parsePdf } from '../../src/parsers/pdf/reader.js';
import { guidePdf } from '../support/pdf-samples.js';
import { HashEmbedding, hashVector, MemoryNodeStore } from '../support/frameworks.js';

const tokens = createTokenSizer('cl100k_base');
const guide = readFileSync(new URL('../../samples/guide.md', import.meta.url), 'utf8');
const notes = 'Not a heading\n=============\n\n    not code\n\nA last paragraph of notes, long enough to be a chunk of its own.\n';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-llamaindex-'));
  writeFileSync(join(dir, 'guide.pdf'), guidePdf());
  writeFileSync(join(dir, 'notes.txt'), notes);
  writeFileSync(join(dir, 'guide.md'), guide);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Embeds nodes as the framework does, stores them, and returns the store and what was embedded. */
async function embedAndStore(nodes: TextNode[]) {
  const embedModel = new HashEmbedding();
  const embedded = await embedModel(nodes);
  const store = new MemoryNodeStore(embedModel);
  await store.add(embedded);
  return { store, embedModel, embedded };
}

describe('chunkstream/llamaindex', () => {
  it('parses documents into nodes with exact offsets, the SOURCE relationship, and neighbours', () => {
    const parser = new ChunkstreamNodeParser({ maxSize: 64 });
    expect(parser).toBeInstanceOf(NodeParser);
    const doc = new Document({ id_: 'guide.md', text: guide, metadata: { author: 'Ann' } });
    const nodes = parser.getNodesFromDocuments([doc]);
    expect(nodes.length).toBeGreaterThan(2);
    nodes.forEach((node, i) => {
      expect(guide.slice(node.startCharIdx, node.endCharIdx)).toBe(node.getText());
      expect(node.sourceNode?.nodeId).toBe('guide.md');
      expect(node.id_).toMatch(/^guide\.md#[0-9a-f]{16}/);
      expect(node.metadata).toMatchObject({ author: 'Ann', documentId: 'guide.md' });
      expect(node.relationships[NodeRelationship.PREVIOUS]?.nodeId).toBe(nodes[i - 1]?.id_);
      expect(node.relationships[NodeRelationship.NEXT]?.nodeId).toBe(nodes[i + 1]?.id_);
    });
    expect(nodes[0]!.startCharIdx).toBe(0);
  });

  it('with parents, relates each node to its parent section (PARENT), by the id the parents have', () => {
    const nodes = new ChunkstreamNodeParser({ maxSize: 64, parents: true }).getNodesFromDocuments([new Document({ id_: 'guide.md', text: guide })]);
    const parents = new Set(nodes.map((n) => n.relationships[NodeRelationship.PARENT]?.nodeId));
    expect(parents.size).toBeGreaterThan(1);
    for (const id of parents) expect(id).toMatch(/^guide\.md#p-[0-9a-f]{16}/);
    expect(nodes.every((n) => n.metadata.parentId === n.relationships[NodeRelationship.PARENT]?.nodeId)).toBe(true);
  });

  it('reads text documents without interpreting Markdown', () => {
    const nodes = new ChunkstreamNodeParser({ maxSize: 64, format: 'text' }).getNodesFromDocuments([new Document({ id_: 'notes.txt', text: notes })]);
    expect(nodes.map((n) => n.getText())).toEqual([notes.trim()]);
    expect(nodes[0]!.metadata.hasCode).toBe(false);
  });

  it('round trip: every embedded string, as the framework builds it, within maxSize; retrieved with metadata intact', async () => {
    const maxSize = 80;
    for (const contextualize of [false, true]) {
      const parser = new ChunkstreamNodeParser({ maxSize, contextualize });
      // Document metadata with long values: LlamaIndex would put "key: value" lines into what is embedded.
      const doc = new Document({ id_: 'guide.md', text: guide, metadata: { source: 'guide.md', summary: 'A long summary of the handbook. '.repeat(20) } });
      const nodes = parser.getNodesFromDocuments([doc]);
      const { store, embedModel, embedded } = await embedAndStore(nodes);
      const sizes = embedModel.embedded.map((s) => tokens.size(s));
      console.log(`llamaindex round trip${contextualize ? ' (contextualize)' : ''}: ${nodes.length} nodes, embedded sizes ${Math.min(...sizes)}–${Math.max(...sizes)} tokens, maxSize ${maxSize}`);
      expect(embedModel.embedded).toEqual(nodes.map((n) => n.getContent(MetadataMode.EMBED)));
      expect(Math.max(...sizes)).toBeLessThanOrEqual(maxSize);
      expect(embedded.every((n) => !n.getContent(MetadataMode.EMBED).includes('summary:'))).toBe(true);
      const wanted = nodes.find((n) => n.getText().includes('tar xzf'))!;
      const result = await store.query({ queryEmbedding: hashVector(wanted.getText()), similarityTopK: 1, mode: VectorStoreQueryMode.DEFAULT });
      const hit = result.nodes![0] as TextNode;
      expect(hit.id_).toBe(wanted.id_);
      expect(hit.metadata).toEqual(wanted.metadata);
      expect([hit.startCharIdx, hit.endCharIdx]).toEqual([wanted.startCharIdx, wanted.endCharIdx]);
      if (contextualize) expect(hit.getContent(MetadataMode.EMBED).startsWith(String(hit.metadata.breadcrumb))).toBe(true);
    }
  });

  it('the file transform reads Markdown, PDF and text files on the stream stages, asynchronously', async () => {
    const transform = new ChunkstreamFileTransform({ maxSize: 96 });
    const nodes = await transform([new Document({ id_: 'pdf', text: '', metadata: { file_path: join(dir, 'guide.pdf'), file_name: 'guide.pdf' } }), new Document({ id_: 'inline', text: '# Inline\n\nA document given as text.' })]);
    const pdfText = (await parsePdf(join(dir, 'guide.pdf'))).text;
    const pdf = nodes.filter((n) => n.sourceNode?.nodeId === 'pdf');
    expect(pdf.length).toBeGreaterThan(2);
    for (const n of pdf) {
      expect(pdfText.slice(n.startCharIdx, n.endCharIdx)).toBe(n.getText());
      expect(n.metadata.pageStart).toBeGreaterThanOrEqual(1);
      // Flat metadata: a PDF chunk's boxes stay on the chunk.
      expect(n.metadata).not.toHaveProperty('boxes');
      expect(n.metadata.file_name).toBe('guide.pdf');
      expect(tokens.size(n.getContent(MetadataMode.EMBED))).toBeLessThanOrEqual(96);
    }
    expect(nodes.filter((n) => n.sourceNode?.nodeId === 'inline').map((n) => n.getText())).toEqual(['# Inline\n\nA document given as text.']);
    const files = await transform.fromFiles([join(dir, 'notes.txt'), join(dir, 'guide.md')]);
    expect(files[0]!.getText()).toBe(notes.trim());
    expect(new Set(files.map((n) => n.sourceNode?.nodeId))).toEqual(new Set([join(dir, 'notes.txt'), join(dir, 'guide.md')]));
    const { embedModel } = await embedAndStore(files);
    expect(Math.max(...embedModel.embedded.map((s) => tokens.size(s)))).toBeLessThanOrEqual(96);
  });

  it('with incremental, positions stay readable but out of the node hash and the metadata text', () => {
    const parser = new ChunkstreamNodeParser({ maxSize: 48, incremental: true });
    const nodes = parser.getNodesFromDocuments([new Document({ id_: 'g', text: guide })]);
    const n = nodes[1]!;
    expect(typeof n.metadata.start).toBe('number');
    expect(Object.keys(n.metadata)).not.toContain('start');
    expect(n.getContent(MetadataMode.ALL)).not.toMatch(/^start: /m);
    expect(n.getContent(MetadataMode.ALL)).toMatch(/^breadcrumb: /m);
  });
});
