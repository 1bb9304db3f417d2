/**
 * The edits of `bench/edits.ts`, the same for every contender and every build: the corpus Markdown files, and for
 * each, single-paragraph edits drawn with a seeded generator (insert a sentence, delete a sentence, change a
 * word). Paragraphs are found by plain line rules (prose lines between blank lines, outside fences), not by any
 * build's parser, so two builds are measured on the same edits.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { filesUnder } from './measured.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
export const CORPUS_MD = resolve(ROOT, '../shared/corpus/md');
export const QUALITY = resolve(ROOT, '../shared/corpus/quality');
/** Node's API docs, one document a file: long sections of prose and code, where a greedy packer cascades most. */
export const NODE_DOCS = '/usr/share/doc/nodejs/api';

/**
 * The documents of an input: `corpus` (the corpus Markdown), `nodedocs`, or the path of a Markdown file or folder
 * (`/usr/share/doc/nodejs/api/deprecations.md`, the long section of small entries where cuts cascaded most).
 */
export function inputDocuments(input) {
  if (input === 'corpus') return corpusDocuments(CORPUS_MD);
  if (input === 'nodedocs') return corpusDocuments(NODE_DOCS);
  const path = resolve(input);
  if (statSync(path, { throwIfNoEntry: false })?.isFile()) return [{ name: basename(path), text: readFileSync(path, 'utf8') }];
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return corpusDocuments(path);
  throw new Error(`unknown input ${input}: corpus, nodedocs, or a Markdown file or folder`);
}

/** Corpus Markdown files, sorted, as `{ name, text }`. */
export function corpusDocuments(dir = CORPUS_MD) {
  return filesUnder(dir, ['.md']).map((p) => ({ name: relative(dir, p), text: readFileSync(p, 'utf8') }));
}

/** A small seeded generator (mulberry32) from a string. */
function random(seedText) {
  let h = 1779033703 ^ seedText.length;
  for (let i = 0; i < seedText.length; i++) h = Math.imul(h ^ seedText.charCodeAt(i), 3432918353);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Prose paragraphs of a Markdown text: `[start, end)` of runs of non-blank lines that start with a letter, outside fences. */
export function proseParagraphs(text) {
  const out = [];
  let fence = null;
  let start = -1;
  let end = -1;
  let prose = false;
  let offset = 0;
  const close = () => {
    if (start !== -1 && prose && end - start >= 80) out.push([start, end]);
    start = -1;
    prose = false;
  };
  for (const line of text.split('\n')) {
    const lineEnd = offset + line.length;
    const trimmed = line.trim();
    const marker = /^(`{3,}|~{3,})/.exec(trimmed);
    if (fence !== null) {
      if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
    } else if (marker) {
      close();
      fence = marker[1];
    } else if (trimmed === '') {
      close();
    } else {
      if (start === -1) {
        start = offset;
        prose = /^[A-Za-z]/.test(line) && !/[|<]/.test(line);
      }
      end = lineEnd;
    }
    offset = lineEnd + 1;
  }
  close();
  return out;
}

/** The paragraph `bench/edits.ts --every` inserts before every paragraph: two plain sentences. */
export const NEW_PARAGRAPH = 'A paragraph was added here by the editor. It says nothing the page did not say before.';

/**
 * Every single-paragraph edit of `doc` that inserts or deletes a paragraph: for each prose paragraph (as
 * `proseParagraphs` finds them, the same ones the sampled edits pick from), a new paragraph inserted before it, and
 * the paragraph deleted with the blank lines after it. Two edits per paragraph, in document order, no sampling;
 * made one at a time, since a long document's edited copies together would take hundreds of megabytes. Each edit
 * says where it is (`at`, the paragraph's offset in the original), so that the worst can be found again.
 */
export function* everyParagraphEdit(doc) {
  const text = doc.text;
  for (const [start, end] of proseParagraphs(text)) {
    yield { kind: 'insert', at: start, text: `${text.slice(0, start)}${NEW_PARAGRAPH}\n\n${text.slice(start)}` };
    // Up to the next non-blank line, so the paragraph goes with its separator and the rest keeps its spacing.
    const rest = /\S/.exec(text.slice(end));
    const to = rest === null ? text.length : text.lastIndexOf('\n', end + rest.index) + 1;
    yield { kind: 'delete', at: start, text: text.slice(0, start) + text.slice(Math.max(to, end)) };
  }
}

const SENTENCES = [
  'The team checked this twice before the release.',
  'Nothing else changes in the steps that follow.',
  'This was pointed out by several readers.',
  'See the notes at the end of this page for more.',
];
const WORDS = ['careful', 'quietly', 'several', 'modern', 'plain', 'useful'];

/**
 * `count` single-paragraph edits of `doc`, each `{ kind, text }` (the whole edited document), or none when the
 * document has no prose paragraph.
 */
export function editsOf(doc, count) {
  const paragraphs = proseParagraphs(doc.text);
  if (paragraphs.length === 0) return [];
  const next = random(doc.name);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const out = [];
  for (let k = 0; k < count; k++) {
    const [start, end] = pick(paragraphs);
    const paragraph = doc.text.slice(start, end);
    // Sentence ends: a full stop, question or exclamation mark before whitespace or the end.
    const ends = [...paragraph.matchAll(/[.!?](?=\s|$)/g)].map((m) => m.index + 1);
    let kind = pick(['insert', 'delete', 'change']);
    if (kind === 'delete' && ends.length < 2) kind = 'change';
    let edited;
    if (kind === 'insert') {
      const at = ends.length > 0 ? pick(ends) : paragraph.length;
      edited = `${paragraph.slice(0, at)} ${pick(SENTENCES)}${paragraph.slice(at)}`;
    } else if (kind === 'delete') {
      const i = Math.floor(next() * ends.length);
      const from = i === 0 ? 0 : ends[i - 1];
      const to = ends[i];
      edited = (paragraph.slice(0, from) + paragraph.slice(to)).replace(/^\s+/, '');
    } else {
      const words = [...paragraph.matchAll(/\b[A-Za-z]{4,}\b/g)];
      if (words.length === 0) {
        edited = `${paragraph} ${pick(SENTENCES)}`;
        kind = 'insert';
      } else {
        const w = pick(words);
        const replacement = WORDS.find((x) => x !== w[0].toLowerCase() && x.length === w[0].length) ?? pick(WORDS.filter((x) => x !== w[0]));
        edited = paragraph.slice(0, w.index) + replacement + paragraph.slice(w.index + w[0].length);
      }
    }
    out.push({ kind, text: doc.text.slice(0, start) + edited + doc.text.slice(end) });
  }
  return out;
}
