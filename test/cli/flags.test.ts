/**
 * What a person typing flags meets: a misspelled flag gets the closest one that exists, a negative number after a
 * flag is that flag's value (so its own rule says what is wrong), and the help lists every command and exit code.
 */
import { describe, expect, it } from 'vitest';
import { helpText, parseArgsOptions, OPTIONS, parseCliArgs } from '../../src/cli/args.js';
import { closestFlag, withNegativeValues } from '../../src/cli/flags.js';
import { parseInspectArgs } from '../../src/cli/inspect.js';

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return `${(error as { code: string }).code} ${(error as Error).message}`;
  }
  throw new Error('expected an error');
}

describe('flags', () => {
  const options = parseArgsOptions(OPTIONS);

  it('suggest the flag meant for a misspelled one, and nothing for one far from every flag', () => {
    expect(usageError(() => parseCliArgs(['--max-sise', '5', 'a.md']))).toBe("ERR_INVALID_OPTION Unknown option '--max-sise': did you mean --max-size?");
    expect(usageError(() => parseCliArgs(['--overlpa', '5', 'a.md']))).toBe("ERR_INVALID_OPTION Unknown option '--overlpa': did you mean --overlap?");
    expect(usageError(() => parseCliArgs(['--unordred', 'a.md']))).toBe("ERR_INVALID_OPTION Unknown option '--unordred': did you mean --unordered?");
    expect(usageError(() => parseCliArgs(['--colour', 'a.md']))).toBe("ERR_INVALID_OPTION Unknown option '--colour'");
    expect(closestFlag('--out', options)).toBe('--out');
    expect(closestFlag('--xyz', options)).toBeUndefined();
  });

  it('read a negative number after a flag as its value, which the option then refuses by its own rule', () => {
    expect(usageError(() => parseCliArgs(['--max-size', '-1', 'a.md']))).toBe('ERR_INVALID_OPTION Invalid option maxSize: must be an integer >= 1, got -1');
    expect(usageError(() => parseCliArgs(['-j', '-2', 'a.md']))).toBe('ERR_INVALID_OPTION Invalid option jobs: must be an integer between 1 and 256, got -2');
    expect(withNegativeValues(['--quiet', '-1', '--', '--max-size', '-1'], options)).toEqual(['--quiet', '-1', '--', '--max-size', '-1']);
  });

  it('work the same for inspect', () => {
    expect(usageError(() => parseInspectArgs(['a.md', '--max-sise', '5']))).toMatch(/Unknown option '--max-sise': did you mean --max-size\?$/);
    // The value reaches the option, which inspect checks when it chunks: no 'ambiguous' refusal of the flag.
    expect(() => parseInspectArgs(['a.md', '--overlap', '-3'])).not.toThrow();
  });
});

describe('--help', () => {
  it('lists the other commands and every exit code, 130 for an interrupted run', () => {
    const help = helpText();
    for (const command of ['inspect', 'diff', 'enqueue', 'worker', 'status']) expect(help).toContain(`chunkstream ${command} `);
    expect(help).toMatch(/Exit codes: 0 every input done; 1 an input failed, every input was skipped, or the run was stopped/);
    expect(help).toContain('130 interrupted');
  });
});
