/**
 * The chunk lists in the report's page script: built from the chunk facts after the first frame, a batch of rows
 * per task, so the page is drawn and answers before a thousand rows exist. Each row: number, size, a meter of the
 * size against the limit, the chunk's last heading and its opening words. Runs in the closure `client-core.ts` opens.
 */

/** The part of the page script that fills the chunk lists. */
export const CLIENT_LIST = String.raw`
  /** Rows added per task: small enough to keep each task short, large enough to finish in a few frames. */
  var LIST_BATCH = 200;

  function listRow(v, c, k, scale) {
    var f = c.flags;
    var over = has(f, 'oversized') || has(f, 'above max');
    var a = node('a', over ? 'flag-over' : has(f, 'heading only') ? 'flag-lonely' : has(f, 'undersized') ? 'flag-under' : '');
    a.href = '#' + v.p + 'c' + k;
    a.setAttribute('data-k', String(k));
    a.appendChild(node('span', 'n', '#' + (c.index === undefined ? k : c.index)));
    a.appendChild(node('span', 'sz', num(c.size)));
    var meter = node('span', 'meter');
    var bar = node('i', over ? 'over' : '');
    bar.style.width = Math.min(100, (100 * c.size) / scale).toFixed(1) + '%';
    meter.appendChild(bar);
    a.appendChild(meter);
    a.appendChild(node('span', 'hd', v.d.heads[c.head]));
    a.appendChild(node('span', 'op', c.open));
    var li = document.createElement('li');
    li.appendChild(a);
    return li;
  }

  function fillList(v) {
    if (!v.list) return;
    var chunks = v.d.chunks;
    // Meters are a share of the limit when there is one, so one huge outlier does not flatten every other bar.
    var scale = Math.max(1, v.d.maxSize || chunks.reduce(function (m, c) { return Math.max(m, c.size); }, 1));
    var k = 0;
    (function batch() {
      var frag = document.createDocumentFragment();
      for (var end = Math.min(chunks.length, k + LIST_BATCH); k < end; k++) frag.appendChild(listRow(v, chunks[k], k, scale));
      v.list.appendChild(frag);
      if (k < chunks.length) setTimeout(batch, 0);
      else if (sel.v === v.i && sel.k >= 0) markCurrent(v, sel.k);
    })();
  }
`;
