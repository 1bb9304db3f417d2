/**
 * Command-line flags of the bench scripts: the flags every script shares, and each script's own, read with
 * `node:util` `parseArgs` in strict mode (an unknown flag or a missing value stops the run before anything is
 * measured) from one table that also prints `--help`, so the help and the parser cannot drift apart.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** One flag: what `parseArgs` reads, and the line `--help` prints for it. */
export type BenchOption = NonNullable<ParseArgsConfig['options']>[string] & {
  /** One line for `--help`; say the default there when the script computes it (e.g. from `--quick`). */
  readonly description: string;
  /** What `--help` calls a string flag's value (`DIR`, `N`, `LIST`); `VALUE` when absent. */
  readonly value?: string;
};

/** A script's flags by name (`'base-mb'` for `--base-mb`). */
export type BenchOptions = Readonly<Record<string, BenchOption>>;

/** The flags every bench script takes. */
export const COMMON_OPTIONS = {
  quick: {
    type: 'boolean',
    default: false,
    description: 'the quickest mode (also BENCH_QUICK=1): checks that the script works; its figures are not for comparison',
  },
  timeout: { type: 'string', value: 'S', description: 'seconds a measured process may run before it is killed and reported as not finished' },
  'dry-run': { type: 'boolean', default: false, description: 'print the section without writing it into bench/RESULTS.md' },
  help: { type: 'boolean', short: 'h', default: false, description: 'print this help' },
} as const satisfies BenchOptions;

/** The values `parseArgs` gives for a table of flags. */
export type BenchValues<O extends BenchOptions> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>['values'];

/** What a script says about itself for `--help`. */
export interface BenchUsage {
  /** The script's path from the project root, e.g. `bench/chunk.ts`. */
  readonly script: string;
  /** What it measures, one or two lines. */
  readonly summary: string;
  /** The positional arguments it takes, e.g. `[corpus dir]`; none when absent. */
  readonly positionals?: string;
  /** The default of `--timeout`, in seconds: {@link DEFAULT_TIMEOUT_S} when absent. */
  readonly timeoutS?: number;
}

/** Seconds a measured process may run unless the script or `--timeout` says otherwise. */
export const DEFAULT_TIMEOUT_S = 1800;

/**
 * Reads `argv` against the common flags and `own`. `--quick` is also on when `BENCH_QUICK` is set (to anything
 * but `0` or nothing). Prints the help and exits on `--help`; throws on an unknown flag, a missing value, or a
 * positional argument the script does not take.
 */
export function readBenchArgs<const O extends BenchOptions>(
  usage: BenchUsage,
  own: O,
  argv: string[] = process.argv.slice(2),
): { values: BenchValues<typeof COMMON_OPTIONS & O>; positionals: string[] } {
  const table: BenchOptions = { ...COMMON_OPTIONS, ...own };
  // parseArgs rejects keys it does not know, so the descriptions stay in our table.
  const options = Object.fromEntries(Object.entries(table).map(([name, { description: _, value: __, ...config }]) => [name, config]));
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(helpText(usage, table));
    process.exit(0);
  }
  if (usage.positionals === undefined && positionals.length > 0) throw new Error(`${usage.script} takes no positional arguments (got ${positionals.join(' ')})`);
  const quickFromEnv = process.env.BENCH_QUICK !== undefined && process.env.BENCH_QUICK !== '' && process.env.BENCH_QUICK !== '0';
  return { values: { ...values, quick: values.quick === true || quickFromEnv } as unknown as BenchValues<typeof COMMON_OPTIONS & O>, positionals };
}

/** The `--help` text: the usage line, the summary, then one line per flag. */
export function helpText(usage: BenchUsage, table: BenchOptions): string {
  const flags = Object.entries(table).map(([name, option]) => {
    const value = option.type === 'string' ? ` ${option.value ?? 'VALUE'}${option.multiple ? ' (repeatable)' : ''}` : '';
    const fallback =
      name === 'timeout' ? ` (default ${usage.timeoutS ?? DEFAULT_TIMEOUT_S})` : option.default !== undefined && option.type === 'string' ? ` (default ${String(option.default)})` : '';
    return { left: `  ${option.short ? `-${option.short}, ` : ''}--${name}${value}`, right: `${option.description}${fallback}` };
  });
  const width = Math.max(...flags.map((f) => f.left.length)) + 2;
  return [
    `npx tsx ${usage.script} [flags]${usage.positionals ? ` ${usage.positionals}` : ''}`,
    '',
    usage.summary,
    '',
    ...flags.map((f) => `${f.left.padEnd(width)}${f.right}`),
  ].join('\n');
}

/** A comma-separated list flag (`--sizes 2,8`), or `fallback` when the flag was not given. */
export function listFlag(value: string | undefined, fallback: readonly string[]): string[] {
  return value === undefined ? [...fallback] : value.split(',').map((v) => v.trim()).filter((v) => v !== '');
}

/** A numeric flag; throws naming the flag when the value is not a positive number. */
export function numberFlag(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} takes a positive number (got ${value})`);
  return n;
}
