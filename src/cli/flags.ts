/**
 * What Node's `util.parseArgs` (strict mode, which every command here uses) leaves out for people typing flags:
 *
 * - a misspelled flag is refused with the closest flag that exists (`--max-sise`: did you mean `--max-size`?);
 * - a negative number after a flag that takes a value (`--max-size -1`) is that flag's value, so the option's own
 *   check says what is wrong with it, where parseArgs calls it an ambiguous flag and asks for `--max-size=-XYZ`.
 */
import { ChunkError } from '../errors.js';

/** The `options` of a `parseArgs` call, as far as these helpers need them. */
export type FlagOptions = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>>;

/** A negative number, as a value of a flag. */
const NEGATIVE_NUMBER = /^-\d/;
/** The flag parseArgs names in its error. */
const UNKNOWN_FLAG = /Unknown option '(-{1,2}[^']+)'/;

/** `args` with each `--flag -1` (or `-f -1`) of a flag that takes a value written `--flag=-1`. */
export function withNegativeValues(args: readonly string[], options: FlagOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const name = longNameOf(arg, options);
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** The long name a `--flag` or `-f` argument stands for, if it names one of `options`. */
function longNameOf(arg: string, options: FlagOptions): string | undefined {
  if (arg.startsWith('--') && !arg.includes('=')) return arg.slice(2);
  if (/^-[A-Za-z]$/.test(arg)) return Object.keys(options).find((name) => options[name]?.short === arg.slice(1));
  return undefined;
}

/**
 * The `ERR_INVALID_OPTION` error for an error `parseArgs` threw: its first sentence, and for an unknown flag the
 * closest that exists when one is close.
 */
export function flagError(error: unknown, options: FlagOptions): ChunkError {
  const message = (error as Error).message.split('. To specify')[0] as string;
  const unknown = UNKNOWN_FLAG.exec(message)?.[1];
  const suggestion = unknown === undefined ? undefined : closestFlag(unknown, options);
  return new ChunkError('ERR_INVALID_OPTION', suggestion === undefined ? message : `${message}: did you mean ${suggestion}?`, { cause: error });
}

/** The flag of `options` nearest to `typed` in edits, when it is near enough to be what was meant. */
export function closestFlag(typed: string, options: FlagOptions): string | undefined {
  const name = typed.replace(/^-+/, '').split('=')[0] as string;
  let best: { flag: string; distance: number } | undefined;
  for (const flag of Object.keys(options)) {
    const distance = editDistance(name, flag);
    if (best === undefined || distance < best.distance) best = { flag, distance };
  }
  // A third of the name, at least one edit, at most three: `--max-sise` finds `--max-size`, `--out` never `--quiet`.
  const allowed = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  return best !== undefined && best.distance <= allowed ? `--${best.flag}` : undefined;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal string alignment distance. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const above = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
