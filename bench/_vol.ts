import { readFileSync } from 'node:fs';
import { slidingWindow } from '../src/core/strategies/window.js';
const text = readFileSync('/work/shared/corpus/md/gfm-spec/spec.txt', 'utf8');
const hist = new Map<string, number>();
const sizer = { size(t: string) { const n = Math.round(t.length / 4); const k = n > 400 ? 'big' : n > 100 ? 'mid' : 'small'; hist.set(k, (hist.get(k) ?? 0) + t.length); hist.set(k + '#', (hist.get(k + '#') ?? 0) + 1); return n; } };
const out = slidingWindow({ size: 512, overlap: 64, sizer })({ id: 'x', text });
console.log(out.length, [...hist].map(([k, v]) => `${k}=${k.endsWith('#') ? v : (v / text.length).toFixed(2)}`).join(' '));
