/**
 * A hash of the text at a place, for cuts chosen by content: the same text around a place gives the same hash
 * wherever the place lies in a document, so a cut chosen by it survives edits elsewhere.
 */

/** How many characters from a place its hash reads. */
export const HASHED_CHARACTERS = 48;

/** FNV-1a of up to `HASHED_CHARACTERS` characters of `text` from `from`, not past `to`: an unsigned 32-bit integer. */
export function textHash(text: string, from = 0, to = text.length): number {
  let h = 0x811c9dc5;
  const end = Math.min(to, from + HASHED_CHARACTERS);
  for (let i = from; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
