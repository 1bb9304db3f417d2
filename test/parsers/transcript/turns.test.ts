import { describe, expect, it } from 'vitest';
import { readTurns } from '../../../src/parsers/transcript/turns.js';

const read = (text: string) => [...readTurns(text)];

describe('readTurns', () => {
  it('reads "Speaker: text" lines into one paragraph block per turn, exact slices', () => {
    const text = 'Alice: Hello there.\nBob: Hi!\r\nAlice:\tHow are you?\n';
    const turns = read(text);
    expect(turns.map((t) => [t.speaker, t.utterance, t.turn, t.kind, t.startLine])).toEqual([
      ['Alice', 'Hello there.', 0, 'paragraph', 1],
      ['Bob', 'Hi!', 1, 'paragraph', 2],
      ['Alice', 'How are you?', 2, 'paragraph', 3],
    ]);
    for (const t of turns) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('continues a turn on lines without a speaker, blank lines included', () => {
    const text = 'Dr. Smith: First line\n  indented more\n\nstill Smith\nNurse: ok';
    const turns = read(text);
    expect(turns.map((t) => [t.speaker, t.utterance, t.startLine, t.endLine])).toEqual([
      ['Dr. Smith', 'First line\n  indented more\n\nstill Smith', 1, 4],
      ['Nurse', 'ok', 5, 5],
    ]);
  });

  it('does not take a URL for a speaker', () => {
    expect(read('A: see\nhttps://example.com/x\n').map((t) => t.utterance)).toEqual(['see\nhttps://example.com/x']);
  });

  it('reads JSONL records, with role/content accepted for speaker/text', () => {
    const text = '{"speaker":"A","text":"one","ts":1}\n\n  {"role":"user","content":"two"}  \n';
    const turns = read(text);
    expect(turns.map((t) => [t.speaker, t.utterance, t.turn, t.startLine])).toEqual([
      ['A', 'one', 0, 1],
      ['user', 'two', 1, 3],
    ]);
    expect(turns[1]!.text).toBe('{"role":"user","content":"two"}');
    for (const t of turns) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('reads a first speaker after a BOM, offsets into the text as given', () => {
    const text = '\ufeffAna: Shall we start?\nBen: Yes.';
    const turns = read(text);
    expect(turns.map((t) => [t.speaker, t.utterance, t.start, t.startLine])).toEqual([
      ['Ana', 'Shall we start?', 1, 1],
      ['Ben', 'Yes.', 22, 2],
    ]);
    for (const t of turns) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('gives no turns for empty or blank text', () => {
    expect(read('')).toEqual([]);
    expect(read('\n \n')).toEqual([]);
  });

  it('fails with ERR_TRANSCRIPT_INVALID naming the line of bad JSON', () => {
    expect(() => read('{"speaker":"A","text":"x"}\n{oops}\n')).toThrow(
      expect.objectContaining({ code: 'ERR_TRANSCRIPT_INVALID', line: 2, message: expect.stringMatching(/^Transcript line 2: not valid JSON/) }),
    );
  });

  it('fails on a record without a string speaker or text', () => {
    expect(() => read('{"text":"x"}')).toThrow('Transcript line 1: a turn needs a string "speaker" (or "role")');
    expect(() => read('{"speaker":"A","text":3}')).toThrow('Transcript line 1: a turn needs a string "text" (or "content")');
    expect(() => read('{"speaker":"A","text":"x"}\n[1]')).toThrow('Transcript line 2: a turn must be a JSON object');
  });

  it('says that WebVTT and SRT subtitles are not read', () => {
    const hint = '(WebVTT and SRT subtitles are not read: write their cues as "Speaker: text" lines or JSONL)';
    expect(() => read('WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ana>Hi\n')).toThrow(`Transcript line 1: expected "Speaker: text" ${hint}`);
    expect(() => read('\ufeffWEBVTT - meeting\r\n')).toThrow(hint);
    expect(() => read('1\r\n00:00:01,000 --> 00:00:04,000\r\nHi\r\n')).toThrow(`Transcript line 1: expected "Speaker: text" ${hint}`);
    expect(() => read('12 angry men\nA: hi')).toThrow(/^Transcript line 1: expected "Speaker: text"$/);
  });

  it('fails when the first line has no speaker', () => {
    expect(() => read('\nno speaker here\nA: hi')).toThrow(
      expect.objectContaining({ code: 'ERR_TRANSCRIPT_INVALID', line: 2, message: 'Transcript line 2: expected "Speaker: text"' }),
    );
  });
});
