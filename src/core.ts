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
  const out: Out[] = [];
  for (const item of inputs) pushAll(out, core.write(item));
  pushAll(out, core.end());
  return out;
}

/** Chains two cores: the outputs of the first are the inputs of the second. */
export function pipeCores<A, B, C>(first: Core<A, B>, second: Core<B, C>): Core<A, C> {
  return {
    write(item) {
      const out: C[] = [];
      for (const mid of first.write(item)) pushAll(out, second.write(mid));
      return out;
    },
    end() {
      const out: C[] = [];
      for (const mid of first.end()) pushAll(out, second.write(mid));
      pushAll(out, second.end());
      return out;
    },
  };
}

/** Appends `items` to `target` without the argument-count limit of `push(...items)`. */
export function pushAll<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i] as T);
}
