/**
 * Writes the small Hugging Face tokenizers the tests count with, one of each family chunkstream supports, under
 * `test/fixtures/tokenizers/`:
 *
 * - `wordpiece/`: BERT-style (BERT normalizer lowercasing and stripping accents, BERT pre-tokenizer, WordPiece,
 *   [CLS] … [SEP]), with a `tokenizer_config.json` naming `model_max_length` 256;
 * - `roberta/`: RoBERTa-style byte-level BPE (ByteLevel with GPT-2's pattern, <s> … </s>, a `<mask>` that takes
 *   the space before it);
 * - `llama/`: Llama 2-style SentencePiece BPE (normalizer prepending ▁ and turning spaces into ▁, no
 *   pre-tokenizer, byte fallback, <s> first), with a few merges across ▁ so that some cuts are not safe;
 * - `mistral/`: the newer conversion of the same (Metaspace with `prepend_scheme: first` and no split, merges
 *   ignored for words of the vocabulary);
 * - `unigram/`: XLM-R-style Unigram (a SentencePiece precompiled character map, written here as a double-array
 *   trie of a few dozen of nmt_nfkc's mappings, and runs of spaces to one; Metaspace; <s> … </s>).
 *
 * Vocabularies are trained here on a few of Node's API docs and `samples/multilingual.md` by plain frequency
 * counting (byte-pair merges for BPE and WordPiece, substring frequencies for Unigram): they tokenize like real
 * models of their family, only smaller. Rare characters stay out of each alphabet, so unknown tokens and byte
 * fallback happen. Deterministic: the same inputs give the same files.
 *
 *     node scripts/make-tokenizer-fixtures.mjs
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'test/fixtures/tokenizers');
const DOCS = '/usr/share/doc/nodejs/api';
const TRAINING = [join(DOCS, 'events.md'), join(DOCS, 'path.md'), join(DOCS, 'url.md'), join(ROOT, 'samples/multilingual.md'), join(ROOT, 'samples/guide.md')];
const text = TRAINING.map((f) => readFileSync(f, 'utf8')).join('\n\n');

const MIN_CHAR_COUNT = 3;

/** Counts of each item. */
function tally(items) {
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** Byte-pair training over words (arrays of symbols) with counts: `merges` rounds, ties to the smallest pair. */
function trainBpe(wordCounts, merges, join) {
  const words = [...wordCounts].map(([symbols, count]) => ({ symbols: [...symbols], count }));
  const learned = [];
  for (let round = 0; round < merges; round++) {
    const pairs = new Map();
    for (const w of words) {
      for (let i = 0; i < w.symbols.length - 1; i++) {
        const key = `${w.symbols[i]}\u0000${w.symbols[i + 1]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + w.count);
      }
    }
    let best;
    let bestCount = 1;
    for (const [key, count] of pairs) {
      if (count > bestCount || (count === bestCount && best !== undefined && key < best)) {
        best = key;
        bestCount = count;
      }
    }
    if (best === undefined) break;
    const [a, b] = best.split('\u0000');
    learned.push([a, b]);
    const merged = join(a, b);
    for (const w of words) {
      for (let i = 0; i < w.symbols.length - 1; i++) {
        if (w.symbols[i] === a && w.symbols[i + 1] === b) w.symbols.splice(i, 2, merged);
      }
    }
  }
  return learned;
}

function write(name, tokenizer, config) {
  const dir = join(OUT, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tokenizer.json'), `${JSON.stringify(tokenizer)}\n`);
  if (config !== undefined) writeFileSync(join(dir, 'tokenizer_config.json'), `${JSON.stringify(config, null, 2)}\n`);
  console.log(`${name}: ${Object.keys(tokenizer.model.vocab).length} tokens`);
}

function added(id, content, options = {}) {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true, ...options };
}

function template(first, last, specials) {
  const seq = [{ Sequence: { id: 'A', type_id: 0 } }];
  const sp = (id) => ({ SpecialToken: { id, type_id: 0 } });
  const single = [...(first ? [sp(first)] : []), ...seq, ...(last ? [sp(last)] : [])];
  return { type: 'TemplateProcessing', single, pair: [...single, { Sequence: { id: 'B', type_id: 1 } }, ...(last ? [sp(last)] : [])], special_tokens: specials };
}

// ---------------------------------------------------------------------------------------------------------------
// WordPiece

function wordPiece() {
  const normalized = text.normalize('NFD').replace(/\p{Mn}/gu, '').toLowerCase();
  const words = normalized.match(/[^\s\p{P}\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]+/gu) ?? [];
  const chars = [...tally([...normalized])].filter(([c, n]) => n >= MIN_CHAR_COUNT && !/\s/u.test(c)).map(([c]) => c).sort();
  const alphabet = new Set(chars);
  const counts = new Map();
  for (const [word, n] of tally(words)) {
    const symbols = [...word];
    if (!symbols.every((c) => alphabet.has(c))) continue;
    counts.set(symbols.map((c, i) => (i === 0 ? c : `##${c}`)), n);
  }
  const merges = trainBpe(counts, 1200, (a, b) => a + b.replace(/^##/, ''));
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const tokens = [...specials, ...chars, ...chars.map((c) => `##${c}`), ...merges.map(([a, b]) => a + b.replace(/^##/, ''))];
  const vocab = Object.fromEntries([...new Set(tokens)].map((t, i) => [t, i]));
  const specialTokens = { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } };
  write(
    'wordpiece',
    {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: specials.map((s, i) => added(i, s)),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: template('[CLS]', '[SEP]', specialTokens),
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
    },
    { do_lower_case: true, model_max_length: 256, tokenizer_class: 'BertTokenizer', unk_token: '[UNK]', cls_token: '[CLS]', sep_token: '[SEP]' },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Byte-level BPE

/** GPT-2's byte → character map. */
const BYTE_CHARS = (() => {
  const chars = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    chars.push(String.fromCharCode(printable ? b : 256 + extra++));
  }
  return chars;
})();

function roberta() {
  const pieces = text.match(/'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu) ?? [];
  const counts = new Map();
  for (const [piece, n] of tally(pieces)) counts.set([...Buffer.from(piece, 'utf8')].map((b) => BYTE_CHARS[b]), n);
  const merges = trainBpe(counts, 1500, (a, b) => a + b);
  const specials = ['<s>', '<pad>', '</s>', '<unk>'];
  const tokens = [...specials, ...BYTE_CHARS, ...merges.map(([a, b]) => a + b)];
  const vocab = Object.fromEntries([...new Set(tokens)].map((t, i) => [t, i]));
  const mask = Object.keys(vocab).length;
  vocab['<mask>'] = mask;
  write('roberta', {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [...specials.map((s, i) => added(i, s)), added(mask, '<mask>', { lstrip: true })],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'RobertaProcessing', sep: ['</s>', 2], cls: ['<s>', 0], trim_offsets: true, add_prefix_space: false },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, vocab, merges },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// SentencePiece BPE with byte fallback

const MARK = '\u2581';

function sentencePieceVocab() {
  const marked = MARK + text.replaceAll(' ', MARK);
  const chars = [...tally([...marked])].filter(([, n]) => n >= MIN_CHAR_COUNT).map(([c]) => c).sort();
  const alphabet = new Set(chars);
  // Words as SentencePiece splits them: each begins at a ▁, newlines apart.
  const words = marked.split(/(?=\u2581)|(?<=\n)|(?=\n)/u).filter((w) => w !== '');
  const counts = new Map();
  for (const [word, n] of tally(words)) {
    const symbols = [...word];
    if (symbols.every((c) => alphabet.has(c))) counts.set(symbols, n);
  }
  const merges = trainBpe(counts, 1500, (a, b) => a + b);
  // Merges across a word marker, as some SentencePiece vocabularies have (".▁", "\n▁"): cuts there are not safe.
  merges.push(['.', MARK], [',', MARK], ['\n', MARK]);
  const bytes = Array.from({ length: 256 }, (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
  const tokens = ['<unk>', '<s>', '</s>', ...bytes, ...chars, ...merges.map(([a, b]) => a + b)];
  return { vocab: Object.fromEntries([...new Set(tokens)].map((t, i) => [t, i])), merges };
}

function llama() {
  const { vocab, merges } = sentencePieceVocab();
  const bos = { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } };
  const base = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [added(0, '<unk>'), added(1, '<s>'), added(2, '</s>')],
    post_processor: template('<s>', undefined, bos),
    decoder: { type: 'Sequence', decoders: [{ type: 'Replace', pattern: { String: MARK }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' }] },
  };
  const model = { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: true, byte_fallback: true, vocab, merges };
  write('llama', {
    ...base,
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: MARK }, { type: 'Replace', pattern: { String: ' ' }, content: MARK }] },
    pre_tokenizer: null,
    model,
  });
  write('mistral', {
    ...base,
    normalizer: null,
    pre_tokenizer: { type: 'Metaspace', replacement: MARK, prepend_scheme: 'first', split: false },
    model: { ...model, ignore_merges: true },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// A SentencePiece precompiled character map

/**
 * Characters and clusters mapped as SentencePiece's nmt_nfkc map does some of them (controls removed, whitespace to
 * a space, compatibility characters to their NFKC form, a decomposed accent composed), for the Unigram tokenizer's
 * Precompiled normalizer.
 */
function charsMapEntries() {
  const entries = [];
  for (let c = 1; c < 0x20; c++) if (c !== 0x09 && c !== 0x0a && c !== 0x0d) entries.push([String.fromCharCode(c), '']);
  entries.push(['\u007f', ''], ['\u200b', ''], ['\ufeff', '']);
  for (const ws of ['\t', '\n', '\r', '\u00a0', '\u3000', '\u2002', '\u2003', '\u0085']) entries.push([ws, ' ']);
  for (let c = 0xff01; c <= 0xff5e; c++) entries.push([String.fromCharCode(c), String.fromCharCode(c - 0xfee0)]);
  for (const ch of ['ﬁ', 'ﬂ', '①', '②', '™', '…', '½', 'Ⅻ', 'ｶ', 'ﾟ', '㍿']) entries.push([ch, ch.normalize('NFKC')]);
  for (const [base, mark] of [['e', '\u0301'], ['a', '\u0308'], ['o', '\u0302'], ['n', '\u0303']]) entries.push([base + mark, (base + mark).normalize('NFC')]);
  entries.push(['\u1100\u1161', '가'], ['가', '가']);
  return entries;
}

/** A darts-clone double-array trie of the entries' UTF-8 keys, with the replacements after it, as Precompiled reads it. */
function buildCharsMap(entries) {
  const blob = [];
  const root = { children: new Map(), value: undefined };
  for (const [key, replacement] of entries) {
    let node = root;
    for (const b of Buffer.from(key, 'utf8')) {
      if (!node.children.has(b)) node.children.set(b, { children: new Map(), value: undefined });
      node = node.children.get(b);
    }
    node.value = blob.length;
    blob.push(...Buffer.from(replacement, 'utf8'), 0);
  }
  const units = [0];
  const used = new Set([0]);
  // Each node's children sit at base ^ label, its value (when a key ends there) at base ^ 0.
  const place = (node, pos) => {
    const labels = [...node.children.keys()].sort((a, b) => a - b);
    const slots = node.value === undefined ? labels : [0, ...labels];
    let base = 1;
    while (slots.some((c) => used.has(base ^ c))) base++;
    for (const c of slots) used.add(base ^ c);
    units[pos] = ((units[pos] ?? 0) | ((pos ^ base) << 10) | (node.value === undefined ? 0 : 1 << 8)) >>> 0;
    if (node.value !== undefined) units[base] = (node.value | 0x80000000) >>> 0;
    for (const c of labels) {
      units[base ^ c] = c;
      place(node.children.get(c), base ^ c);
    }
  };
  place(root, 0);
  // darts-clone arrays come in blocks of 256 units: a walk XORs a byte into a position, which stays in its block.
  while (units.length % 256 !== 0) units.push(0);
  const trie = Buffer.alloc(4 * units.length);
  for (let i = 0; i < units.length; i++) trie.writeUInt32LE(units[i] ?? 0, 4 * i);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(trie.length, 0);
  return Buffer.concat([size, trie, Buffer.from(blob)]).toString('base64');
}

// ---------------------------------------------------------------------------------------------------------------
// Unigram

function unigram() {
  const normalized = text.normalize('NFKC').replace(/ {2,}/g, ' ');
  const words = normalized.split(/\s+/u).filter((w) => w !== '').map((w) => MARK + w);
  const chars = [...tally([...words.join('')])].filter(([, n]) => n >= MIN_CHAR_COUNT).map(([c]) => c);
  const substrings = new Map();
  for (const word of words) {
    const cps = [...word];
    for (let i = 0; i < cps.length; i++) {
      for (let len = 2; len <= 8 && i + len <= cps.length; len++) {
        const s = cps.slice(i, i + len).join('');
        substrings.set(s, (substrings.get(s) ?? 0) + 1);
      }
    }
  }
  const charCounts = tally([...words.join('')]);
  const frequent = [...substrings].filter(([, n]) => n >= 8).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3000);
  const total = [...charCounts.values()].reduce((a, b) => a + b, 0);
  const score = (n) => Math.round(Math.log(n / total) * 1e4) / 1e4;
  const pieces = [...chars.sort().map((c) => [c, score(charCounts.get(c))]), ...frequent.map(([s, n]) => [s, score(n) - 1])];
  const vocab = [['<s>', 0], ['<pad>', 0], ['</s>', 0], ['<unk>', 0], ...pieces];
  const seen = new Set();
  const unique = vocab.filter(([p]) => !seen.has(p) && seen.add(p));
  unique.push(['<mask>', 0]);
  write('unigram', {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [added(0, '<s>'), added(1, '<pad>'), added(2, '</s>'), added(3, '<unk>'), added(unique.length - 1, '<mask>', { lstrip: true })],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: buildCharsMap(charsMapEntries()) }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: MARK, prepend_scheme: 'always', split: true },
    post_processor: template('<s>', '</s>', { '<s>': { id: '<s>', ids: [0], tokens: ['<s>'] }, '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } }),
    decoder: { type: 'Metaspace', replacement: MARK, prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 3, vocab: unique, byte_fallback: false },
  });
}

wordPiece();
roberta();
llama();
unigram();
