/**
 * One measurement of `bench/edits.ts`, in its own plain Node process:
 *
 *   node bench/support/edits-child.mjs <contender> <input> <maxSize> <edits> [distPath]
 *
 * `edits` is a number of sampled edits per document, or `every` for an insertion and a deletion at every paragraph
 * start (`everyParagraphEdit`).
 * `contender` is `chunkstream` (the build in `distPath`) or `langchain` (recursive Markdown splitter, js-tiktoken
 * length function); `input` is `corpus` or `nodedocs` (see `edits.mjs`). For every edit of every document, counts the chunks of the new version whose embedded
 * text was in no chunk of the old one (what must be embedded again), and among the others, those whose id
 * changed. Then scores the quality set. Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { editsOf, everyParagraphEdit, inputDocuments, QUALITY } from './edits.mjs';

const [contender, input, sizeArg, editsArg, distArg] = process.argv.slice(2);
const maxSize = Number(sizeArg);
const every = editsArg === 'every';
const editCount = every ? 0 : Number(editsArg);
const ROOT = resolve(import.meta.dirname, '../..');

/** A function from (text, documentId) to chunks `{ embedded, id, start, end }`. */
async function chunker() {
  if (contender === 'chunkstream') {
    const dist = resolve(ROOT, distArg ?? 'dist');
    const { chunkText } = await import(pathToFileURL(join(dist, 'index.js')).href);
    // With EDITS_PARENTS=1 (`bench/edits.ts --parents`), parents too: their ids are counted like chunks' texts.
    const withParents = process.env.EDITS_PARENTS === '1';
    return (text, documentId) => {
      const result = chunkText(text, { maxSize, documentId, ...(withParents ? { parents: true } : {}) });
      const chunks = result.chunks.map((c) => ({ embedded: c.prefix + c.text + c.suffix, id: c.id, start: c.start, end: c.end }));
      if (withParents) chunks.parentIds = (result.parents ?? []).map((p) => p.id);
      return chunks;
    };
  }
  if (contender === 'langchain') {
    const [{ Tiktoken }, { default: ranks }, { RecursiveCharacterTextSplitter }] = await Promise.all([
      import('js-tiktoken/lite'),
      import('js-tiktoken/ranks/cl100k_base'),
      import('@langchain/textsplitters'),
    ]);
    const encoder = new Tiktoken(ranks);
    const splitter = RecursiveCharacterTextSplitter.fromLanguage('markdown', { chunkSize: maxSize, chunkOverlap: 0, lengthFunction: (t) => encoder.encode(t, [], []).length });
    return async (text) => {
      // Its chunks carry no offsets: each is looked for from where the previous one started.
      let from = 0;
      return (await splitter.splitText(text)).map((t) => {
        const at = text.indexOf(t, from);
        if (at >= 0) from = at;
        return { embedded: t, id: undefined, start: at, end: at < 0 ? -1 : at + t.length };
      });
    };
  }
  throw new Error(`unknown contender ${contender}`);
}

/** The first `n` values of an iterable. */
function* take(iterable, n) {
  if (n <= 0) return;
  let k = 0;
  for (const value of iterable) {
    yield value;
    if (++k >= n) return;
  }
}

const percentile = (sorted, p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);

const run = await chunker();
const reembed = [];
// Parents whose id no parent of the version before had, per edit (with EDITS_PARENTS=1).
const parentsChanged = [];
let unchanged = 0;
let idChanged = 0;
let documents = 0;
let chunksBefore = 0;
// With EDITS_WORST=n (`bench/edits.ts --worst n`), the n edits that re-embed most, to find them again.
const worstCount = Number(process.env.EDITS_WORST ?? 0);
const worstEdits = [];
const noteEdit = (doc, edit, fresh) => {
  if (worstCount <= 0 || (worstEdits.length >= worstCount && fresh <= worstEdits.at(-1).reembedded)) return;
  const line = edit.at === undefined ? undefined : doc.text.slice(0, edit.at).split('\n').length;
  worstEdits.push({ document: doc.name, kind: edit.kind, ...(line === undefined ? {} : { line }), reembedded: fresh });
  worstEdits.sort((a, b) => b.reembedded - a.reembedded);
  worstEdits.length = Math.min(worstEdits.length, worstCount);
};
for (const doc of inputDocuments(input)) {
  const edits = every ? [...take(everyParagraphEdit(doc), 1)] : editsOf(doc, editCount);
  if (edits.length === 0) continue;
  documents++;
  const before = await run(doc.text, doc.name);
  chunksBefore += before.length;
  // Old chunks by embedded text, each occurrence's id in order.
  const old = new Map();
  for (const c of before) {
    const list = old.get(c.embedded) ?? [];
    list.push(c.id);
    old.set(c.embedded, list);
  }
  const oldParents = new Set(before.parentIds ?? []);
  for (const edit of every ? everyParagraphEdit(doc) : edits) {
    const after = await run(edit.text, doc.name);
    if (after.parentIds !== undefined) parentsChanged.push(after.parentIds.filter((id) => !oldParents.has(id)).length);
    const seen = new Map();
    let fresh = 0;
    for (const c of after) {
      const ids = old.get(c.embedded);
      if (ids === undefined) {
        fresh++;
        continue;
      }
      const k = seen.get(c.embedded) ?? 0;
      seen.set(c.embedded, k + 1);
      unchanged++;
      if (contender === 'chunkstream' && ids[Math.min(k, ids.length - 1)] !== c.id) idChanged++;
    }
    reembed.push(fresh);
    noteEdit(doc, edit, fresh);
  }
}

// Quality: excerpts wholly inside one chunk, and Precision Ω (excerpt characters over the characters of the
// chunks that touch an excerpt), per question, averaged.
const text = readFileSync(join(QUALITY, 'state_of_the_union.md'), 'utf8');
const questions = JSON.parse(readFileSync(join(QUALITY, 'state_of_the_union.questions.json'), 'utf8'));
const chunks = (await run(text, 'state_of_the_union.md')).filter((c) => c.start >= 0);
let excerpts = 0;
let inside = 0;
let precisionSum = 0;
for (const q of questions) {
  let excerptChars = 0;
  const touching = new Set();
  for (const r of q.references) {
    excerpts++;
    excerptChars += r.end_index - r.start_index;
    if (chunks.some((c) => c.start <= r.start_index && c.end >= r.end_index)) inside++;
    chunks.forEach((c, i) => {
      if (c.start < r.end_index && c.end > r.start_index) touching.add(i);
    });
  }
  const chunkChars = [...touching].reduce((s, i) => s + (chunks[i].end - chunks[i].start), 0);
  precisionSum += chunkChars === 0 ? 0 : excerptChars / chunkChars;
}

const sorted = [...reembed].sort((a, b) => a - b);
console.log(
  JSON.stringify({
    documents,
    edits: reembed.length,
    chunksBefore,
    mean: reembed.reduce((s, x) => s + x, 0) / Math.max(1, reembed.length),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    ...(parentsChanged.length > 0 ? { parents: { mean: parentsChanged.reduce((s, x) => s + x, 0) / parentsChanged.length, p90: percentile([...parentsChanged].sort((a, b) => a - b), 0.9), worst: Math.max(...parentsChanged) } } : {}),
    worst: sorted.at(-1) ?? 0,
    over6: reembed.filter((x) => x > 6).length,
    unchanged,
    idChanged: contender === 'chunkstream' ? idChanged : null,
    quality: { chunks: chunks.length, excerpts, inside, precisionOmega: precisionSum / questions.length },
    ...(worstCount > 0 ? { worstEdits } : {}),
  }),
);
