/** The priority queue of byte-pair merging, shared by the tiktoken and the Hugging Face BPE counters. */

/** A binary min-heap of numbers (a merge's candidate pairs, encoded as rank × stride + position). */
export interface MinHeap {
  push(value: number): void;
  pop(): number;
  size(): number;
}

/** Creates an empty heap with room for `capacity` items before it grows. */
export function createMinHeap(capacity: number): MinHeap {
  let items = new Float64Array(Math.max(16, capacity * 2));
  let length = 0;
  return {
    size: () => length,
    push(value) {
      if (length === items.length) {
        const grown = new Float64Array(items.length * 2);
        grown.set(items);
        items = grown;
      }
      let i = length++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (items[parent]! <= value) break;
        items[i] = items[parent]!;
        i = parent;
      }
      items[i] = value;
    },
    pop() {
      const top = items[0]!;
      const last = items[--length]!;
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= length) break;
        if (child + 1 < length && items[child + 1]! < items[child]!) child++;
        if (items[child]! >= last) break;
        items[i] = items[child]!;
        i = child;
      }
      if (length > 0) items[i] = last;
      return top;
    },
  };
}
