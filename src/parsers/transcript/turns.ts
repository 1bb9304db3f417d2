/**
 * Reads a conversation transcript into one block per turn. Two forms: JSONL records `{ speaker, text, ... }`
 * (`role` and `content` are accepted for `speaker` and `text`), or "Speaker: text" lines, where a line without a
 * speaker prefix continues the turn before it. The form is JSONL when the first non-blank character is `{`.
 */
import { ChunkError } from '../../errors.js';
import type { PlainBlock } from '../../types.js';

/** A transcript turn: a paragraph block with its speaker, turn index and utterance. */
export interface TurnBlock extends PlainBlock {
  readonly kind: 'paragraph';
  readonly speaker: string;
  readonly turn: number;
  readonly utterance: string;
}

/** `Speaker:` at the start of a line: a name without colons, then a space, a tab or the end of the line. */
const SPEAKER = /^([^\s:][^:\r\n]{0,63}):(?:[ \t]|$)/;

/** One line of the text: `[start, end)` without its terminator, and its 1-based number. */
interface Line {
  readonly start: number;
  readonly end: number;
  readonly number: number;
}

/** The byte order mark an editor may leave at the start of a file read as a string (`readFileSync(path, 'utf8')`). */
const BOM = 0xfeff;

/** The lines of `text` (`\n`, `\r\n` or a lone `\r` end a line); a BOM before the first is in no line. */
function* linesOf(text: string): Generator<Line> {
  // The BOM is no part of the first line: a `Speaker:` after it still starts its line.
  let start = text.charCodeAt(0) === BOM ? 1 : 0;
  let number = 1;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    yield { start, end: i, number: number++ };
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    start = i + 1;
  }
  if (start < text.length) yield { start, end: text.length, number };
}

function invalid(line: number, offset: number, why: string): ChunkError {
  return new ChunkError('ERR_TRANSCRIPT_INVALID', `Transcript line ${line}: ${why}`, { line, offset });
}

/** `[start, end)` without the whitespace at either end. */
function trimmed(text: string, start: number, end: number): [number, number] {
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return [start, end];
}

function block(text: string, start: number, end: number, startLine: number, endLine: number, speaker: string, turn: number, utterance: string): TurnBlock {
  return { kind: 'paragraph', text: text.slice(start, end), start, end, startLine, endLine, speaker, turn, utterance };
}

/** JSONL: one turn per non-blank line; the block's text is the record's line. */
function* jsonlTurns(text: string): Generator<TurnBlock> {
  let turn = 0;
  for (const line of linesOf(text)) {
    const [start, end] = trimmed(text, line.start, line.end);
    if (start === end) continue;
    let record: unknown;
    try {
      record = JSON.parse(text.slice(start, end));
    } catch (error) {
      throw invalid(line.number, start, `not valid JSON (${(error as Error).message})`);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throw invalid(line.number, start, 'a turn must be a JSON object');
    const r = record as Record<string, unknown>;
    const speaker = r.speaker ?? r.role;
    const said = r.text ?? r.content;
    if (typeof speaker !== 'string') throw invalid(line.number, start, 'a turn needs a string "speaker" (or "role")');
    if (typeof said !== 'string') throw invalid(line.number, start, 'a turn needs a string "text" (or "content")');
    yield block(text, start, end, line.number, line.number, speaker, turn++, said);
  }
}

/** A WebVTT header, or an SRT cue's number line followed by its timing line. */
const SUBTITLES = /^(?:WEBVTT(?:[ \t].*)?|\d+[ \t]*\r?\n[ \t]*\d[\d:.,]*[ \t]+-->)/;

/**
 * What to say of a first line that is the start of subtitles: a user with a `.vtt` or `.srt` file learns that its
 * cues are not read, rather than only that line 1 lacks a speaker.
 */
function subtitleHint(text: string, start: number, end: number): string {
  // The timing line is looked for just past the first line: a cue number is short.
  return SUBTITLES.test(text.slice(start, Math.max(end, start + 64))) ? ' (WebVTT and SRT subtitles are not read: write their cues as "Speaker: text" lines or JSONL)' : '';
}

/** "Speaker: text" lines; a line without a speaker continues the previous turn, blank lines included. */
function* lineTurns(text: string): Generator<TurnBlock> {
  let turn = 0;
  let open: { start: number; end: number; startLine: number; endLine: number; speaker: string; saidFrom: number } | null = null;
  const close = (o: NonNullable<typeof open>): TurnBlock =>
    block(text, o.start, o.end, o.startLine, o.endLine, o.speaker, turn++, text.slice(o.saidFrom, Math.max(o.saidFrom, o.end)));
  for (const line of linesOf(text)) {
    const [start, end] = trimmed(text, line.start, line.end);
    if (start === end) continue;
    const m = start === line.start ? SPEAKER.exec(text.slice(start, end)) : null;
    if (m === null) {
      if (open === null) throw invalid(line.number, start, `expected "Speaker: text"${subtitleHint(text, start, end)}`);
      open.end = end;
      open.endLine = line.number;
      continue;
    }
    if (open !== null) yield close(open);
    // One space or tab after the colon belongs to the prefix; anything beyond is what was said.
    const saidFrom = Math.min(end, start + m[0].length);
    open = { start, end, startLine: line.number, endLine: line.number, speaker: (m[1] as string).trimEnd(), saidFrom };
  }
  if (open !== null) yield close(open);
}

/**
 * Reads a whole transcript into turn blocks, in order. Each block's `text` is the exact source slice of the
 * turn (its record's line, or its lines), `speaker` and `utterance` say who said what, `turn` counts from 0.
 * Throws `ERR_TRANSCRIPT_INVALID` naming the line of a record that is not a JSON object with string `speaker`
 * and `text`, or of a first line without a `Speaker:` prefix.
 */
export function* readTurns(text: string): Generator<TurnBlock> {
  const first = /\S/.exec(text);
  if (first === null) return;
  yield* first[0] === '{' ? jsonlTurns(text) : lineTurns(text);
}
