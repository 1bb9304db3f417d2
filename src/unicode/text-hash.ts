/**
 * A hash of the text at a place, for cuts chosen by content: the same text around a place gives the same hash
 * wherever the place lies in a document, so a cut chosen by it survives edits elsewhere.
 *
 * It reads the text, not the marks Markdown sets in it: spaces, controls, the backquote, the backslash and
 * `#*_~[]<>|` are skipped. `### \`fs.open()\`` in Markdown and `fs.open()` in the HTML built from it or in a PDF
 * hash alike, so the same document cut from any format ends its chunks at the same places, and a change of
 * emphasis or of a heading's marks does not move a cut. Other punctuation is read: a line of code that is only `}`
 * must still differ from one that is `});`, or the ties leave a chunk's end to where it began.
 */

/** How many characters from a place its hash reads, skipped ones not counted. */
export const HASHED_CHARACTERS = 48;

/**
 * How far from a place its hash looks for them: the hash of a place depends on no character at or past this
 * distance. A long run of skipped ones (indentation, a rule of `*`) costs no more than a few words.
 */
export const HASH_REACH = 4 * HASHED_CHARACTERS;

/** Spaces, controls and the characters Markdown marks text with: a hash skips them. */
const SKIPPED = new Uint8Array(128);
for (let code = 0; code <= 0x20; code++) SKIPPED[code] = 1;
for (const mark of '#*_`~\\[]<>|') SKIPPED[mark.charCodeAt(0)] = 1;

/** True for the characters a hash reads. */
function isHashed(code: number): boolean {
  return code >= 128 || SKIPPED[code] === 0;
}

/**
 * FNV-1a of up to `HASHED_CHARACTERS` characters of `text` from `from` (see the file comment), looking no
 * further than `HASH_REACH` and not past `to`: an unsigned 32-bit integer.
 */
export function textHash(text: string, from = 0, to = text.length): number {
  let h = 0x811c9dc5;
  let hashed = 0;
  const end = Math.min(to, from + HASH_REACH);
  for (let i = from; i < end && hashed < HASHED_CHARACTERS; i++) {
    const code = text.charCodeAt(i);
    if (isHashed(code)) {
      h = Math.imul(h ^ code, 0x01000193);
      hashed++;
    }
  }
  return h >>> 0;
}
