/**
 * The page script's state: the views (one per run of the chunker) with the elements and positions read from the
 * markup once, and the one small object of what changes as a reader works (the chosen chunk, what is lit, the
 * problem filter). Every other module takes the `Page` as its first argument; none keeps state of its own.
 */
import type { PageData, ViewData } from '../page-data.js';
import { required } from './dom.js';

/** Something a reader steps to: a chunk, or text no chunk holds; `at` is its document offset, for ordering. */
export type Target = { readonly chunk: number; readonly at: number; readonly element?: undefined } | { readonly element: Element; readonly at: number };

/** What a view counts as problems, by kind (`oversized`, `above`, `undersized`, `lonely`, `lost`), and all of them. */
export interface Problems {
  readonly [kind: string]: Target[] | undefined;
  readonly all: Target[];
}

/** One view: its facts, its elements, and the offsets its text segments carry. */
export interface View {
  /** Position among the page's views; view 0 keeps the plain element ids. */
  readonly index: number;
  /** Prefix of the view's element ids (`''`, `v1-`, …). */
  readonly prefix: string;
  readonly data: ViewData;
  /** The scrolled text. */
  readonly doc: HTMLElement;
  /** The chunk list of the side panel, when the page has one. */
  readonly list: HTMLElement | null;
  /** The text's top-level elements (bands, strips, gaps), with the document offsets each starts and ends at. */
  readonly segments: readonly HTMLElement[];
  readonly segmentStarts: readonly number[];
  readonly segmentEnds: readonly number[];
  /** Each chunk's start offset, for finding the chunk at an offset. */
  readonly starts: readonly number[];
  readonly minimap: HTMLElement | null;
  /** The minimap's marks, one per chunk, once built. */
  readonly marks: HTMLElement[];
  /** The box of the minimap that shows what the text shows, once built. */
  viewport: HTMLElement | null;
  /** The scroll position this script itself set, so that the scroll event it causes is not followed; -1 for none. */
  expectedScroll: number;
  /** The view's problems, counted on first use. */
  problems: Problems | null;
}

/** The chunk the box describes: hovered, or pinned by a click or a key. */
export interface Selection {
  /** The view it is in (also the view keys step through when no chunk is chosen). */
  view: number;
  /** The chunk, or -1 for none. */
  chunk: number;
  pinned: boolean;
}

/** What ‹ › and n / p step through: a problem kind or a histogram bin of one view. */
export interface Filter {
  readonly view: View;
  /** The kind (`oversized`, `all`, `bin120`, …): choosing the same again steps on rather than starting over. */
  readonly name: string;
  readonly label: string;
  readonly targets: readonly Target[];
  /** The target stepped to last, or -1 before the first step. */
  at: number;
  /** The problem button or histogram bin that chose it, marked as chosen. */
  readonly control: Element | null;
}

/** The page: the views and the few things that change. */
export interface Page {
  readonly views: readonly View[];
  /** True when the page compares several runs. */
  readonly compare: boolean;
  /** The document's length in characters (at least 1, so positions can be divided by it). */
  readonly length: number;
  readonly infoBody: HTMLElement;
  readonly infoState: HTMLElement;
  /** What the chunk box shows when no chunk is chosen. */
  readonly hint: Element | null;
  readonly problemState: HTMLElement;
  readonly selection: Selection;
  /** The elements outlined now (the chosen chunk's band and strips, its echoes in other views, lost text). */
  lit: Element[];
  /** The chosen chunk's row in the list and mark in the minimap. */
  readonly current: { row: HTMLElement | null; mark: HTMLElement | null };
  filter: Filter | null;
}

/** A view from its facts and its elements (view 0 has the plain ids, view i the prefix `vi-`). */
function createView(data: ViewData, index: number): View {
  const prefix = index === 0 ? '' : `v${index}-`;
  const doc = required(`${prefix}doc`);
  const segments = Array.from(doc.querySelectorAll<HTMLElement>(':scope > [data-s]'));
  return {
    index,
    prefix,
    data,
    doc,
    list: document.getElementById(`${prefix}chunk-list`),
    segments,
    segmentStarts: segments.map((s) => Number(s.getAttribute('data-s'))),
    segmentEnds: segments.map((s) => Number(s.getAttribute('data-e'))),
    starts: data.chunks.map((c) => c.start),
    minimap: document.querySelector<HTMLElement>(`.minimap[data-view="${index}"]`),
    marks: [],
    viewport: null,
    expectedScroll: -1,
    problems: null,
  };
}

/** Reads the page's JSON element and its markup into the page state. */
export function createPage(): Page {
  const data = JSON.parse(required('report-data').textContent ?? '') as PageData;
  const infoBody = required('info-body');
  return {
    views: data.views.map(createView),
    compare: data.views.length > 1,
    length: Math.max(1, data.length),
    infoBody,
    infoState: required('info-state'),
    hint: infoBody.firstElementChild,
    problemState: required('problem-state'),
    selection: { view: 0, chunk: -1, pinned: false },
    lit: [],
    current: { row: null, mark: null },
    filter: null,
  };
}
