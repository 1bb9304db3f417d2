/**
 * The shape every synchronous core piece has: state lives in the closure, `write` takes one item and returns
 * what is ready, `end` returns what was held back. Stream adapters and the sync APIs both drive this shape,
 * which is what makes stream output identical to sync output.
 */
export interface Core<In, Out> {
  write(item: In): Out[];
  end(): Out[];
}

/** Runs a core over a list of inputs and returns every output, in order. */
export function runCore<In, Out>(core: Core<In, Out>, inputs: Iterable<In>): Out[] {
  const out = listOfObjects<Out>();
  for (const item of inputs) pushAll(out, core.write(item));
  pushAll(out, core.end());
  return out;
}

/** Chains two cores: the outputs of the first are the inputs of the second. */
export function pipeCores<A, B, C>(first: Core<A, B>, second: Core<B, C>): Core<A, C> {
  return {
    write(item) {
      const mids = first.write(item);
      // Most writes of a chunker make one item or none: the second core's own list is handed on without a copy.
      if (mids.length === 1) return second.write(mids[0] as B);
      const out = listOfObjects<C>();
      for (const mid of mids) pushAll(out, second.write(mid));
      return out;
    },
    end() {
      const out = listOfObjects<C>();
      for (const mid of first.end()) pushAll(out, second.write(mid));
      pushAll(out, second.end());
      return out;
    },
  };
}

/**
 * The items of `list` in a new array, `list` left empty with its store kept. `splice(0)` and `length = 0` let the
 * store go (`length = 0` through a call into the runtime), and the next push grows a new one: a heading per line
 * empties a list after every block.
 */
export function takeAll<T>(list: T[]): T[] {
  const out = list.slice();
  emptyInPlace(list);
  return out;
}

/** Empties `list` and keeps its store for the items to come (see `takeAll`). */
export function emptyInPlace(list: unknown[]): void {
  while (list.length > 0) list.pop();
}

/**
 * `{ ...source, ...fields }`, made by `Object.assign`. On Node 20 (V8 11.3) a literal that opens with a spread and
 * goes on with properties gets a map of its own, outside the transition tree, and costs about 2 µs against 0.2:
 * blocks and spans copied that way, one every few bytes in some documents, each had a map, and the property reads
 * of every stage after them went megamorphic. Copied this way, they share the maps of their kind.
 */
export function copyWith<T extends object, F extends object>(source: T, fields: F): T & F {
  return Object.assign({}, source, fields);
}

/**
 * Changes every field of `target` named in `changed` once, then sets each back to its own value. V8 takes a field
 * that no store has changed yet for a constant, and a field that has only held objects of one hidden class for a
 * field of that class (the first object a literal stores there; the literal's second run, which makes its
 * boilerplate, widens it); code compiled on either is thrown away at the first store that breaks it. For objects
 * made per document, that store can come documents later, in the middle of a pass whose code is compiled: over the
 * corpus's small files, the batcher's `scanLines` was compiled again at the first fence, the first HTML block and
 * the second batcher, the block scanner's functions at the first setext heading. Called once per process on an
 * object made by the same literal as the ones that follow (they share its hidden class), it leaves nothing to
 * break. `changed` holds, for each field, a value of another kind or class of object (`null` widens a class).
 */
export function settleFields<T extends object>(target: T, changed: { readonly [K in keyof T]?: unknown }): void {
  const own = Object.assign({}, target);
  Object.assign(target, changed);
  Object.assign(target, own);
}

/** What a new list holds for a moment, so that its store is one of objects from the start (see `listOfObjects`). */
const AN_OBJECT = {};

/**
 * An empty array whose store is already one of objects (V8's `PACKED_ELEMENTS`). `[]` starts as a list of small
 * integers, and its first object pushed changes its map: optimized code that had seen lists of one kind met a
 * fresh list of the other, was deoptimized ("not a Smi" at the push) and compiled again, over and over for the
 * span lists of a cut and the batcher's places to cut at. `pop` keeps the kind.
 */
export function listOfObjects<T>(): T[] {
  const list = [AN_OBJECT] as T[];
  list.pop();
  return list;
}

/** What a new list of doubles holds for a moment (see `listOfDoubles`). */
const A_DOUBLE = 0.5;

/**
 * An empty array whose store is already one of doubles (V8's `PACKED_DOUBLE_ELEMENTS`), for numbers that are not all
 * small integers (`listOfObjects` says why a list should not change kind). The packer's place values (a strength
 * times 2³² plus a hash) went into `[]`: the code that pushed them was compiled on a list of one kind, met a fresh
 * list of the other in the next document ("lost precision or NaN" at the push), and was compiled again.
 */
export function listOfDoubles(): number[] {
  const list = [A_DOUBLE];
  list.pop();
  return list;
}


/** Appends `items` to `target` without the argument-count limit of `push(...items)`. */
export function pushAll<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i] as T);
}

/**
 * What a stage core gives back from one call: the outputs ready now, or outputs that come later, one at a time
 * (the pages of a PDF read in a sandbox, batches parsed on a worker pool). `toTransform` pushes the first at once
 * and waits for its consumer between the items of the second.
 */
export type StageOutput<Out> = readonly Out[] | AsyncIterable<Out>;

/**
 * A core whose outputs may come asynchronously: the shape of a stage that reads through a worker pool, a
 * sandbox or a temporary file. A synchronous {@link Core} is one too.
 */
export interface StageCore<In, Out> {
  write(item: In): StageOutput<Out>;
  end(): StageOutput<Out>;
  /** Frees what the core holds (threads, a temporary file) when its stream is destroyed before the end. */
  close?(): void;
}
