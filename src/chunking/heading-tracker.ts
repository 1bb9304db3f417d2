/**
 * The heading stack and the stage that attaches it to every block.
 */
import type { HeadingTracker } from '../protocols.js';
import type { Block, HeadingContext } from '../types.js';
import { copyWith, type Core } from '../core.js';

/** Joins a heading path into a breadcrumb line: `Install > Linux`. */
export function formatBreadcrumb(path: readonly string[], separator = ' > '): string {
  return path.join(separator);
}

/** Builds a frozen `HeadingContext` from a path and its levels. */
export function headingContext(path: readonly string[], levels: readonly number[]): HeadingContext {
  return ownedContext([...path], [...levels]);
}

/** A frozen `HeadingContext` of arrays nobody else holds (they are frozen as they are, not copied). */
function ownedContext(path: string[], levels: number[]): HeadingContext {
  return Object.freeze({ path: Object.freeze(path), levels: Object.freeze(levels), breadcrumb: formatBreadcrumb(path) });
}

/** The empty heading context (before the first heading). */
export const NO_HEADING: HeadingContext = headingContext([], []);

/**
 * The default `HeadingTracker`: a stack of (level, title). An update pops every entry whose level is at least the
 * new one, so H1 → H2 → H2 replaces the second entry and H1 → H3 → H2 gives [H1, H2].
 */
export class DefaultHeadingTracker implements HeadingTracker {
  #levels: number[] = [];
  #titles: string[] = [];
  #version = 0;

  update(level: number, text: string): void {
    this.#version++;
    while (this.#levels.length > 0 && (this.#levels.at(-1) as number) >= level) {
      this.#levels.pop();
      this.#titles.pop();
    }
    this.#levels.push(level);
    this.#titles.push(text);
  }

  getPath(): string[] {
    return [...this.#titles];
  }

  getLevels(): number[] {
    return [...this.#levels];
  }

  reset(): void {
    this.#version++;
    this.#levels = [];
    this.#titles = [];
  }

  /** Counts the calls that changed the stack or may have: a path read at one count holds while it stays. */
  get version(): number {
    return this.#version;
  }

  /**
   * True when the stack ends with a heading of `level` titled `text`: an update with them would leave it as it is
   * (the entries below have lower levels).
   */
  endsWith(level: number, text: string): boolean {
    return this.#levels.at(-1) === level && this.#titles.at(-1) === text;
  }
}

/**
 * A copy of `text` that shares no memory with the string it was cut from. A heading title is a slice of the parsed
 * batch, and V8 keeps a slice's whole parent alive: a title in force for a long section would hold its whole batch,
 * long enough for V8 to promote it to the old generation. Concatenating and slicing makes V8 flatten into a new
 * string of the title's own length.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

/** A copy of `block` with `heading` set (`copyWith`: a document of one-letter paragraphs is a block every 3 bytes). */
export function withHeading(block: Block, heading: HeadingContext): Block {
  return copyWith(block, { heading });
}

/**
 * The heading context in force at each block, blocks given in order: a heading's own context holds it. What the
 * heading stage attaches to every block; the packer asks it directly, so that a block is not copied to carry it.
 */
export function createHeadingContexts(tracker: HeadingTracker = new DefaultHeadingTracker()): (block: Block) => HeadingContext {
  let context = headingContext(tracker.getPath(), tracker.getLevels());
  // Not a subclass: one could return arrays it keeps.
  const owned = Object.getPrototypeOf(tracker) === DefaultHeadingTracker.prototype ? (tracker as DefaultHeadingTracker) : undefined;
  // The default tracker's count of changes when `context` was read from it.
  let version = owned?.version;
  return (block) => {
    if (block.kind !== 'heading') return context;
    if (owned === undefined) {
      tracker.update(block.depth, detached(block.title));
      context = headingContext(tracker.getPath(), tracker.getLevels());
    } else if (owned.version !== version || !owned.endsWith(block.depth, block.title)) {
      owned.update(block.depth, detached(block.title));
      // The default tracker hands out copies: they need no second one.
      context = ownedContext(owned.getPath(), owned.getLevels());
      version = owned.version;
    }
    // Otherwise the heading repeats the last one (a heading per line under one title): the context stays, the
    // same object, whose budget the chunk measure keeps at hand.
    return context;
  };
}

/** Creates the core that attaches `heading: { path, levels, breadcrumb }` to every block. */
export function createHeadingStage(tracker: HeadingTracker = new DefaultHeadingTracker()): Core<Block, Block> {
  const contextOf = createHeadingContexts(tracker);
  return {
    write: (block) => [withHeading(block, contextOf(block))],
    end() {
      return [];
    },
  };
}
