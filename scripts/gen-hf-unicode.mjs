/**
 * Writes `src/chunking/sizers/hf-unicode-9.ts`: the character classes the Rust `tokenizers` library takes from the
 * `unicode_categories` crate 0.1.1 (tables of Unicode 9.0), which its BERT normalizer and pre-tokenizer use:
 * "other" (Cc, Cf, Co) for the clean-up, Mn for stripping accents, P* for punctuation. A JavaScript `\p{…}` class is
 * of Unicode 15 and differs on every character given a category since 2016 (U+0890 is Cf since Unicode 14, which
 * the BERT clean-up keeps), so the counts would not be the embedder's. And every character Unicode 9 assigns: the
 * library normalizes (NFC, NFKC, NFD…) with the tables of Unicode 9, leaving newer characters as they are.
 *
 *     node scripts/gen-hf-unicode.mjs path/to/unicode_categories-0.1.1/src/tables.rs
 *
 * The tables file is the crate's `src/tables.rs` at its 0.1.1 release (git commit 92bb246 of
 * swgillespie/unicode-categories).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const source = readFileSync(process.argv[2], 'utf8');

/** The code points of one `pub static NAME : &'static [char] = &[ ... ];` table. */
function table(name) {
  const start = source.indexOf(`pub static ${name} `);
  if (start === -1) throw new Error(`no table ${name}`);
  const end = source.indexOf('];', start);
  return [...source.slice(start, end).matchAll(/'\\u\{([0-9A-F]+)\}'/g)].map((m) => Number.parseInt(m[1], 16));
}

/** Sorted code points → [start, end] pairs, inclusive. */
function ranges(points) {
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  const out = [];
  for (const p of sorted) {
    const last = out.at(-1);
    if (last !== undefined && last[1] === p - 1) last[1] = p;
    else out.push([p, p]);
  }
  return out;
}

function span(lo, hi) {
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

// `is_other` = Cc, Cf, Co; Co is matched by its three ranges before the table (lib.rs, is_other_private_use).
const other = ranges([...table('OTHER_CONTROL'), ...table('OTHER_FORMAT'), ...table('OTHER_PRIVATE_USE'), ...span(0xe000, 0xf8ff), ...span(0xf0000, 0xffffd), ...span(0x100000, 0x10fffd)]);
const mn = ranges(table('MARK_NONSPACING'));
const marks = ranges(['MARK_NONSPACING', 'MARK_SPACE_COMBINING', 'MARK_ENCLOSING'].flatMap(table));
const punctuation = ranges(
  ['PUNCTUATION_CONNECTOR', 'PUNCTUATION_DASH', 'PUNCTUATION_CLOSE', 'PUNCTUATION_FINAL_QUOTE', 'PUNCTUATION_INITIAL_QUOTE', 'PUNCTUATION_OTHER', 'PUNCTUATION_OPEN'].flatMap(table),
);

// Every character of Unicode 9: the union of the tables, with the ranges lib.rs matches before them (private use,
// CJK ideographs, Hangul syllables, Tangut). The Unicode normalization the library runs (the
// unicode-normalization-alignments crate) is of Unicode 9 too: a character added since is left as it is.
const assigned = ranges([
  ...[...source.matchAll(/pub static (\w+) /g)].flatMap((m) => table(m[1])),
  ...span(0xe000, 0xf8ff), ...span(0xf0000, 0xffffd), ...span(0x100000, 0x10fffd),
  ...span(0x3400, 0x4db5), ...span(0x4e00, 0x9fd5), ...span(0xac00, 0xd7a3), ...span(0x17000, 0x187ec),
  ...span(0x20000, 0x2a6d6), ...span(0x2a700, 0x2b734), ...span(0x2b740, 0x2b81d), ...span(0x2b820, 0x2cea1),
]);

/** Ranges as one string of hex pairs, `start-end` or `point`, comma-separated: compact and easy to read back. */
const encode = (rs) => rs.map(([a, b]) => (a === b ? a.toString(16) : `${a.toString(16)}-${b.toString(16)}`)).join(',');

const out = `/**
 * Character classes of Unicode 9.0 as the Rust \`tokenizers\` library sees them, through the \`unicode_categories\`
 * crate 0.1.1: written by \`scripts/gen-hf-unicode.mjs\` from the crate's tables; do not edit. Each is a list of
 * inclusive ranges of code points in hex.
 */

/** \`is_other\`: Cc, Cf and Co (the BERT normalizer's clean-up removes them, tab and line breaks aside). */
export const OTHER_RANGES = '${encode(other)}';

/** \`is_mark_nonspacing\`: Mn (the BERT normalizer strips them after NFD). */
export const NONSPACING_MARK_RANGES = '${encode(mn)}';

/** \`is_punctuation\`: Pc, Pd, Pe, Pf, Pi, Po, Ps (the BERT pre-tokenizer isolates them, besides ASCII punctuation). */
export const PUNCTUATION_RANGES = '${encode(punctuation)}';

/** Mn, Mc, Me: the marks StripAccents removes (\`is_combining_mark\` of the Unicode 9 normalization crate). */
export const MARK_RANGES = '${encode(marks)}';

/** Every character Unicode 9 assigns (the library's normalization leaves any other one as it is). */
export const ASSIGNED_RANGES = '${encode(assigned)}';
`;
const target = resolve(import.meta.dirname, '../src/chunking/sizers/hf-unicode-9.ts');
writeFileSync(target, out);
console.log(`wrote ${target}: ${other.length} + ${mn.length} + ${punctuation.length} + ${assigned.length} ranges`);
