/**
 * Generated text for token counting: the pieces where tokenizers of different families disagree with naive
 * counting, mixed at random. Words and numbers, every kind of whitespace, accents composed and decomposed, a final
 * sigma, CJK, emoji sequences, control and format characters (and characters whose Unicode category changed after
 * Unicode 9, which the BERT normalizer reads as of 9), words longer than WordPiece's 100 characters, characters no
 * small vocabulary holds, the word marker ▁, and special tokens written in the text.
 */
import fc from 'fast-check';

const FRAGMENTS = [
  'the', 'The', 'tokenizer', 'Chunking', "it's", "DON'T", 'don’t', 'e.g.', 'U.S.A.', '3.14159', '1234567', '42', '0x1F',
  'hello_world', 'camelCaseWord', 'snake_case', 'kebab-case', 'https://example.com/a?b=c', 'user@example.com', '#', '##',
  '...', '!!', '?', '(', ')', '[', ']', '{', '}', '"', '`', '~', '|', '\\', '/', '*', '$', '%', '&', '^', '<', '>',
  ' ', ' ', ' ', '  ', '   ', '\t', '\n', '\n\n', '\r\n', '\u00a0', '\u3000', '\u2003', '\u0085', '\ufeff', '\u200b', '\u200d',
  'café', 'cafe\u0301', 'naïve', 'Ångström', 'Ñandú', 'İstanbul', 'ΑΣ ΟΔΟΣ', 'σοφός', 'Straße', 'ﬁnance', 'Ａｂｃ１２３', '①②',
  '你好', '世界', '中文段落', '日本語のテキスト', 'カタカナ', '한국어', 'ภาษาไทย', 'العربية', 'עברית', 'हिन्दी', 'ᚠᚢᚦ', '𓀀', '𠀀',
  '👋', '👋🏽', '👩‍👩‍👧‍👦', '🇯🇵', '🥺', '🫠', '❤️', '©', '™', '€', '½',
  '\u0000', '\u0001', '\u0007', '\u001f', '\u007f', '\u0890', '\u2066', '\u061c', '\ue000', '\ufffd', '\u0301', '\u0308\u0301',
  '\u2e4f', '\u00a7', '▁', '▁▁', 'a▁b',
  '[CLS]', '[SEP]', '[MASK]', '[UNK]', '<s>', '</s>', '<unk>', '<mask>', ' <mask>', '<|endoftext|>', '<|im_start|>', '<tool_call>',
];

/** A long word, past WordPiece's `max_input_chars_per_word` or not. */
const longWord = fc.tuple(fc.constantFrom('a', 'ab', 'x9', 'é', '中', '🙂'), fc.integer({ min: 40, max: 130 })).map(([unit, n]) => unit.repeat(n));

/** Text as the tokenizers' tests generate it: up to `maxPieces` fragments, words, long words. */
export function tokenizerText(maxPieces = 40): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...FRAGMENTS) },
    { weight: 2, arbitrary: fc.stringMatching(/^[a-zA-Z]{1,12}$/) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
    { weight: 1, arbitrary: longWord },
  );
  return fc.array(piece, { maxLength: maxPieces }).map((parts) => parts.join(''));
}
