/**
 * A micromark extension for the block-level parse: paragraphs whose text is never tokenized.
 *
 * micromark parses a paragraph three times over: as flow, as content (to find definitions and setext
 * underlines), and as text (inline constructs). With every inline construct disabled the text pass finds nothing
 * but still walks each character through the tokenizer, a large share of the block-level parse. This construct takes
 * the place of micromark's own paragraph in `contentInitial` (after the definition, which is tried first) and
 * makes the same paragraph token with the same `chunkText` line chunks, only without the `text` content type
 * that would send them to the text tokenizer. The tree gets paragraphs (and setext headings) without children;
 * the block mapping reads what it needs of them from the source.
 *
 * Typed structurally, with just the part of micromark's tokenizer API it uses.
 */

/** A character code: a UTF-16 unit, a negative virtual code (line endings, tabs), or null at the end. */
type Code = number | null;
type State = (code: Code) => State | undefined;
interface Effects {
  enter(type: string): unknown;
  exit(type: string): unknown;
  consume(code: Code): void;
}

/** micromark's virtual codes for line endings are -5 (CRLF), -4 (LF) and -3 (CR); -2 to -1 are tab parts. */
const isLineEnding = (code: Code): boolean => code !== null && code < -2;

const untokenizedParagraph = {
  name: 'untokenizedParagraph',
  tokenize(effects: Effects, ok: State): State {
    const lineStart: State = (code) => {
      effects.enter('chunkText');
      return data(code);
    };
    const data: State = (code) => {
      if (code === null) {
        effects.exit('chunkText');
        effects.exit('paragraph');
        return ok(code);
      }
      effects.consume(code);
      if (isLineEnding(code)) {
        effects.exit('chunkText');
        return lineStart;
      }
      return data;
    };
    return (code) => {
      effects.enter('paragraph');
      return lineStart(code);
    };
  },
};

/** The micromark extension: the paragraph above for content starting with any character. */
export const untokenizedParagraphs = { contentInitial: { null: [untokenizedParagraph] } };
