/**
 * fast-check arbitraries of typeset documents: headings at several sizes (numbered or not), paragraphs, lists, code,
 * tables with and without rulings, margin stamps, figures with labels, images, footnotes, text in a font without a
 * Unicode mapping, pages of one or two columns, with or without running headers, footers and hyphenation.
 */
import fc from 'fast-check';
import type { DocElement, TypesetOptions } from './pdf-builder.js';
import { prose } from './pdf-samples.js';

const title = fc.constantFrom('Overview', 'Getting Started', 'Tables and Lists', 'Notes on Memory', 'Reading Order', 'Appendix A', '2.1 Numbered Section', 'I. INTRODUCTION');
const cell = fc.constantFrom('alpha', 'beta beta', '42', '7.50', 'North Harbour', 'x');

const element: fc.Arbitrary<DocElement> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ heading: title, size: fc.constantFrom(13, 16, 20) }) },
  { weight: 5, arbitrary: fc.record({ paragraph: fc.tuple(fc.integer({ min: 3, max: 220 }), fc.integer({ min: 1, max: 10_000 })).map(([n, seed]) => prose(n, seed)) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      list: fc.array(fc.integer({ min: 1, max: 10_000 }).map((seed) => prose(6, seed)), { minLength: 1, maxLength: 5 }),
      ordered: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ code: fc.array(fc.constantFrom('const x = 1;', 'if (x) {', '  return f(x);', '}'), { minLength: 1, maxLength: 6 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ table: fc.array(fc.tuple(fc.constantFrom('alpha', 'beta', '42'), fc.constantFrom('x', 'y y', '7.5')), { minLength: 2, maxLength: 5 }) }),
  },
  { weight: 1, arbitrary: fc.record({ page: fc.constantFrom(1 as const, 2 as const) }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 2, max: 4 }).chain((columns) =>
      fc.record({ table: fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { minLength: 2, maxLength: 30 }), ruled: fc.boolean() }),
    ),
  },
  { weight: 1, arbitrary: fc.record({ stamp: fc.constantFrom('arXiv:2305.03393v1 [cs.CL] 5 May 2023', 'DRAFT COPY') }) },
  { weight: 1, arbitrary: fc.record({ figure: fc.array(fc.constantFrom('USER = ALICE', 'Request', 'Response', 'x(t)'), { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.constant({ image: true as const }) },
  { weight: 1, arbitrary: fc.record({ footnote: fc.integer({ min: 1, max: 9 }).map((n) => `${n} A note at the foot of the page.`) }) },
  { weight: 1, arbitrary: fc.record({ unreadable: fc.integer({ min: 1, max: 10_000 }).map((seed) => prose(60, seed)) }) },
);

const options: fc.Arbitrary<TypesetOptions> = fc.record({
  hyphenate: fc.boolean(),
  header: fc.option(fc.constant((_page: number) => 'RUNNING HEADER'), { nil: undefined }),
  footer: fc.option(fc.constant((page: number) => String(page)), { nil: undefined }),
});

/** A document to typeset, with its typesetting options. */
export const pdfDocumentArbitrary = fc.record({ elements: fc.array(element, { minLength: 1, maxLength: 14 }), options });
