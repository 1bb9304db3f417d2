/**
 * Peak resident memory of this process.
 *
 * `process.resourceUsage().maxRSS` is not enough on Linux: the kernel carries the peak across `exec`, so a
 * process spawned by a large parent (a test runner, a benchmark holding its input) reports the parent's peak as
 * its own. The `VmHWM` line of `/proc/self/status` is the high-water mark of this process's memory alone; it is
 * used where it exists.
 */
import { readFileSync } from 'node:fs';

/** Peak RSS of this process in bytes (worker threads share it, so they are counted). */
export function peakRssBytes(): number {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall through to what the platform reports.
  }
  return process.resourceUsage().maxRSS * 1024;
}
