/** The chunking settings a report was made with, as both views print them in their header. */
import type { SizeUnit, StrategyName } from '../config.js';
import { formatNumber, formatShare } from './summary.js';

/** The settings of the run a report shows; every one given is printed, so two reports can be told apart. */
export interface ReportSettings {
  /** Unit of `chunk.size`, for labels. Default `'tokens'`. */
  readonly unit?: SizeUnit | undefined;
  /** The tokenizer's name; printed with the unit when the unit is tokens. */
  readonly encoding?: string | undefined;
  readonly strategy?: StrategyName | undefined;
  /** The packer's target, marked on the histogram. */
  readonly targetSize?: number | undefined;
  /** Chunks below it count as undersized; marked on the histogram. */
  readonly minSize?: number | undefined;
  /** The hard limit, marked on the histogram; chunk sizes are shown as a share of it. */
  readonly maxSize?: number | undefined;
  /** Units of the previous chunk repeated at the start of the next. */
  readonly overlap?: number | undefined;
  /** Heading depths that start a new section. */
  readonly splitLevels?: readonly number[] | undefined;
}

/**
 * The settings as short phrases in a fixed order: strategy, unit (and encoding), target, min, max, overlap (with
 * the share of indexed text it repeats, when known), split levels.
 */
export function settingsPhrases(settings: ReportSettings, repeatedShare?: number): string[] {
  const unit = settings.unit ?? 'tokens';
  const out: string[] = [];
  if (settings.strategy !== undefined) out.push(settings.strategy);
  out.push(unit === 'tokens' && settings.encoding !== undefined ? `${unit} (${settings.encoding})` : unit);
  if (settings.targetSize !== undefined) out.push(`target ${formatNumber(settings.targetSize)}`);
  if (settings.minSize !== undefined) out.push(`min ${formatNumber(settings.minSize)}`);
  if (settings.maxSize !== undefined) out.push(`max ${formatNumber(settings.maxSize)}`);
  if (settings.overlap !== undefined) {
    const share = settings.overlap > 0 && repeatedShare !== undefined ? ` (${formatShare(repeatedShare)} of indexed text repeated)` : '';
    out.push(`overlap ${formatNumber(settings.overlap)}${share}`);
  }
  if (settings.splitLevels !== undefined) out.push(`split levels ${settings.splitLevels.length === 0 ? 'none' : settings.splitLevels.join(', ')}`);
  return out;
}
