/** A small local cl100k_base token sizer for tests: one `encode` per call, no network. */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import type { Sizer } from '../../src/protocols.js';

const encoding = new Tiktoken(cl100k);

/** Counts cl100k_base tokens of a text. */
export const tiktokenSizer: Sizer = { size: (text) => encoding.encode(text, [], []).length };
