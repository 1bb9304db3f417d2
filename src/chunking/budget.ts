/**
 * The one budget of chunking, in the size unit: how large a chunk, or a span packed into one, may be. Packing adds
 * estimated sizes up to `desired`; the run it takes is then measured once, exactly, and never kept above `max`
 * (text-splitter's `ChunkCapacity { desired, max }`).
 */

/** How large a run of spans may grow. */
export interface Budget {
  /** What packing fills up to, adding the sizes of spans measured one by one. */
  readonly desired: number;
  /** What the run, measured whole as it will be seen, may not exceed. */
  readonly max: number;
}

/** A budget; `max` defaults to `desired`. */
export function budget(desired: number, max: number = desired): Budget {
  return { desired, max };
}

/**
 * The budgets of the spans one cut makes: the first may have less room (it joins a chunk already begun), every
 * other has `rest`.
 */
export interface CutBudget {
  readonly first: Budget;
  readonly rest: Budget;
}

/** The budgets of a cut whose first span has `first` units of room and every other `rest`. */
export function cutBudget(first: number, rest: number): CutBudget {
  return { first: budget(first), rest: budget(rest) };
}
