/**
 * Re-indexing after small edits: how many chunks must be embedded again, and how many unchanged chunks lost
 * their id, for chunkstream builds beside LangChain.js's recursive Markdown splitter; plus the quality set's score.
 *
 *   npx tsx bench/edits.ts                          # dist/ (built from src/ first) and LangChain
 *   npx tsx bench/edits.ts --dist /tmp/main/dist --dist dist    # compare two builds (not rebuilt)
 *   npx tsx bench/edits.ts --edits 5 --sizes 512    # a shorter run
 *   npx tsx bench/edits.ts --inputs corpus,nodedocs # Node's API docs too (long sections)
 *   npx tsx bench/edits.ts --every --inputs /usr/share/doc/nodejs/api/deprecations.md --no-langchain
 *                                                   # every paragraph start of one document (a file or a folder)
 *   npx tsx bench/edits.ts --every --parents ...     # and how many parents (`parents: true`) each edit changes
 *   npx tsx bench/edits.ts --every --worst 10 ...    # and the 10 edits that re-embed most (document, line, kind)
 *   npx tsx bench/edits.ts --dry-run ...             # prints the section, leaves bench/RESULTS.md alone
 *
 * For each corpus Markdown document with a prose paragraph, `--edits` (20) single-paragraph edits are drawn with a
 * seeded generator (insert a sentence, delete a sentence, change a word; `support/edits.mjs`), the same for every
 * contender and build. Each edited version is chunked; a chunk "must be embedded again" when its embedded text
 * (prefix + text + suffix) is in no chunk of the version before the edit. Among the chunks that are, the share
 * whose id differs from the old chunk of the same text (and occurrence) is the share of unchanged chunks that an
 * id-keyed store would still re-embed. LangChain's splitter assigns no ids. The quality set
 * (`../shared/corpus/quality/`) is scored as its README says: reference excerpts wholly inside one chunk, and
 * Precision Ω (excerpt characters over the characters of the chunks that touch an excerpt, per question,
 * averaged). Every measurement runs in its own process (`support/edits-child.mjs`).
 *
 * With `--every`, the edits are not sampled: a new paragraph is inserted before every prose paragraph of every
 * document, and every such paragraph is deleted, one edit at a time (`everyParagraphEdit`), so the worst cases
 * are all found. Each edit chunks the whole document again: Node's API docs take some 1.2 GB of chunking per size.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { numberFlag } from './support/args.js';
import { buildDist } from './support/runner.js';
import { markdownTable, writeResults } from './support/results.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHILD = join(import.meta.dirname, 'support/edits-child.mjs');

interface EditFigures {
  documents: number;
  edits: number;
  chunksBefore: number;
  mean: number;
  p90: number;
  p99: number;
  worst: number;
  /** With `--parents`: parents whose id is new, per edit. */
  parents?: { mean: number; p90: number; worst: number };
  over6: number;
  unchanged: number;
  idChanged: number | null;
  quality: { chunks: number; excerpts: number; inside: number; precisionOmega: number };
  /** With `--worst n`: the n edits that re-embed most; `line` is the edited paragraph's first line (1-based) before the edit. */
  worstEdits?: { document: string; kind: string; line?: number; reembedded: number }[];
}

const { values } = parseArgs({
  options: {
    dist: { type: 'string', multiple: true },
    edits: { type: 'string', default: '20' },
    every: { type: 'boolean', default: false },
    parents: { type: 'boolean', default: false },
    worst: { type: 'string' },
    sizes: { type: 'string', default: '256,512' },
    inputs: { type: 'string', default: 'corpus' },
    'no-langchain': { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
  },
});
const dists = values.dist ?? ['dist'];
const sizes = values.sizes.split(',').map(Number);
const inputs = values.inputs.split(',');
if (!existsSync(resolve(ROOT, '../shared/corpus/md'))) {
  console.error('bench/edits.ts needs the corpus at ../shared/corpus');
  process.exit(2);
}
if (values.dist === undefined) buildDist(ROOT);

function measure(contender: string, input: string, size: number, dist?: string): EditFigures | { error: string } {
  const args = [CHILD, contender, input, String(size), values.every ? 'every' : values.edits, ...(dist === undefined ? [] : [resolve(ROOT, dist)])];
  const env = { ...process.env, ...(values.parents ? { EDITS_PARENTS: '1' } : {}), EDITS_WORST: String(numberFlag('worst', values.worst, 0)) };
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26, env });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !line.startsWith('{')) return { error: (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ') };
  return JSON.parse(line) as EditFigures;
}

/** A build's label: its path inside the project, or its absolute path. */
function labelOf(dist: string): string {
  const path = relative(ROOT, resolve(ROOT, dist));
  return path.startsWith('..') ? resolve(ROOT, dist) : path;
}

const contenders: { label: string; contender: string; dist?: string }[] = [
  ...dists.map((dist) => ({ label: `chunkstream (${labelOf(dist)})`, contender: 'chunkstream', dist })),
  ...(values['no-langchain'] ? [] : [{ label: 'LangChain.js recursive markdown', contender: 'langchain' }]),
];

/** The heading of an input's table. */
function inputLabel(input: string): string {
  if (input === 'corpus') return 'Corpus Markdown';
  if (input === 'nodedocs') return "Node's API docs";
  return `\`${input}\``;
}

const sections: string[] = [];
/** The worst edits of each table (`--worst`), printed after the tables. */
const worst: string[] = [];
const worstLine = (e: NonNullable<EditFigures['worstEdits']>[number]): string => `  ${e.reembedded} re-embedded: ${e.kind} at ${e.document}${e.line === undefined ? '' : `:${e.line}`}`;
for (const [input, size] of inputs.flatMap((i) => sizes.map((s) => [i, s] as const))) {
  const rows: (string | number)[][] = [];
  for (const c of contenders) {
    const t0 = performance.now();
    const m = measure(c.contender, input, size, c.dist);
    const seconds = ((performance.now() - t0) / 1000).toFixed(0);
    if ('error' in m) {
      rows.push([c.label, `failed: ${m.error}`, '', '', '', '', '', '', '', '', '']);
      continue;
    }
    const idShare = m.idChanged === null ? '– (no ids)' : `${((100 * m.idChanged) / Math.max(1, m.unchanged)).toFixed(1)}% (${m.idChanged} of ${m.unchanged})`;
    rows.push([
      c.label,
      `${m.documents} / ${m.edits}`,
      m.mean.toFixed(2),
      m.p90,
      m.p99,
      m.worst,
      m.over6,
      m.parents === undefined ? '–' : `${m.parents.mean.toFixed(2)} / ${m.parents.p90} / ${m.parents.worst}`,
      idShare,
      `${m.quality.inside} / ${m.quality.excerpts}`,
      m.quality.precisionOmega.toFixed(4),
    ]);
    console.error(`${input}, ${size} tokens, ${c.label}: done in ${seconds} s`);
    if (m.worstEdits !== undefined && m.worstEdits.length > 0) worst.push(`${inputLabel(input)}, ${size} tokens, ${c.label}:\n${m.worstEdits.map(worstLine).join('\n')}`);
  }
  sections.push(
    `### ${inputLabel(input)}, ${size} tokens\n\n` +
      markdownTable(
        ['contender', 'documents / edits', 're-embedded per edit: mean', 'p90', 'p99', 'worst', 'edits above 6', 'parents changed: mean / p90 / worst', 'unchanged chunks with a new id', 'quality: excerpts in one chunk', 'Precision Ω'],
        rows,
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
  );
}

const editsLine = values.every
  ? 'A paragraph inserted before, and deleted at, every prose paragraph of every document (`--every`), cl100k_base tokens. '
  : `${values.edits} single-paragraph edits per document (insert a sentence, delete a sentence, change a word), cl100k_base tokens. `;
writeResults(
  'bench/edits.ts',
  editsLine +
    '"Re-embedded" counts the chunks of the edited version whose embedded text no chunk of the version before had.\n\n' +
    sections.join('\n\n'),
  { write: !values['dry-run'] },
);
if (worst.length > 0) console.log(`\nThe edits that re-embed most (--worst):\n\n${worst.join('\n\n')}`);
