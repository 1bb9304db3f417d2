/**
 * The core of the report's page script: the views and their geometry (offset ↔ scroll position), the chunk box,
 * hover, pin and release, and the keys. Plain ES2017 in one closure with `client-navigation.ts` and
 * `client-minimap.ts`; it never writes document text into markup, only facts from the JSON element, by `textContent`.
 */
/** The first part of the page script: state, geometry, the chunk box, pinning and keys. */
export const CLIENT_CORE = String.raw`
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var LEN = Math.max(1, data.length);
  var compare = data.views.length > 1;
  var infoBody = document.getElementById('info-body');
  var infoState = document.getElementById('info-state');
  var hint = infoBody.firstElementChild;
  var sel = { v: 0, k: -1, pinned: false };
  var lit = [];
  var curRow = null;
  var curMark = null;

  var views = data.views.map(function (d, i) {
    var p = i === 0 ? '' : 'v' + i + '-';
    var doc = document.getElementById(p + 'doc');
    var segs = Array.prototype.slice.call(doc.querySelectorAll(':scope > [data-s]'));
    return {
      i: i, p: p, d: d, doc: doc,
      list: document.getElementById(p + 'chunk-list'),
      segs: segs,
      segS: segs.map(function (s) { return Number(s.getAttribute('data-s')); }),
      segE: segs.map(function (s) { return Number(s.getAttribute('data-e')); }),
      starts: d.chunks.map(function (c) { return c.start; }),
      mm: document.querySelector('.minimap[data-view="' + i + '"]'),
      marks: [], expect: -1, problems: null
    };
  });

  function node(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = String(text);
    return n;
  }
  /** 12345.67 → "12,345.7". By hand: the first toLocaleString call sets up ICU, which costs the page's start-up. */
  function num(v) {
    var parts = String(Math.round(Number(v) * 10) / 10).split('.');
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return parts.join('.');
  }
  function row(dl, label, value) {
    if (value === undefined || value === null || value === '') return;
    dl.appendChild(node('dt', '', label));
    var dd = node('dd');
    if (typeof value === 'string' || typeof value === 'number') dd.textContent = String(value); else dd.appendChild(value);
    dl.appendChild(dd);
  }
  function chips(items, warn) {
    var span = node('span');
    items.forEach(function (t) { span.appendChild(node('span', warn.indexOf(t) >= 0 ? 'chip warn' : 'chip', t)); });
    return span;
  }
  function has(list, item) { return !!list && list.indexOf(item) >= 0; }
  function band(v, k) { return document.getElementById(v.p + 'c' + k); }
  function viewOf(el) {
    var holder = el.closest ? el.closest('[data-view]') : null;
    return holder ? views[Number(holder.getAttribute('data-view'))] || views[0] : views[0];
  }
  function visible(v) { return v.doc.offsetParent !== null; }

  /** The last index whose value is at most x (0 when there is none). */
  function floorIndex(values, x) {
    var lo = 0, hi = values.length - 1, found = 0;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (values[mid] <= x) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }
  /** The chunk holding offset at: the last one starting at or before it. */
  function chunkAt(v, at) { return v.d.chunks.length ? floorIndex(v.starts, at) : -1; }
  /** Top of an element in its view's scrolled text, wherever it is nested. */
  function topIn(v, el) { return el.getBoundingClientRect().top - v.doc.getBoundingClientRect().top + v.doc.scrollTop; }

  /** The document offset drawn y pixels from the top of a view's scrolled text (segments carry their offsets). */
  function offsetAtY(v, y) {
    var segs = v.segs;
    if (!segs.length) return 0;
    var lo = 0, hi = segs.length - 1, found = 0;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (segs[mid].offsetTop <= y) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    var s = segs[found];
    var f = Math.max(0, Math.min(1, (y - s.offsetTop) / (s.offsetHeight || 1)));
    return v.segS[found] + f * (v.segE[found] - v.segS[found]);
  }
  /** Where offset at is drawn in a view's scrolled text, in pixels from its top. */
  function yOfOffset(v, at) {
    if (!v.segs.length) return 0;
    var i = floorIndex(v.segS, at);
    var a = v.segS[i], b = v.segE[i], s = v.segs[i];
    var f = b > a ? Math.max(0, Math.min(1, (at - a) / (b - a))) : 0;
    return s.offsetTop + f * s.offsetHeight;
  }
  /** Scrolls a view's text; quiet means the other views of a comparison are not to follow (they are placed already). */
  function scrollDocTo(v, top, quiet) {
    v.doc.scrollTop = Math.max(0, top);
    v.expect = quiet ? v.doc.scrollTop : -1;
  }
  /** The element of a view's text that holds el: el itself, or its band, strip or gap. */
  function segmentOf(v, el) {
    while (el && el.parentNode !== v.doc) el = el.parentNode;
    return el;
  }
  /**
   * Lays out the elements within a screen and a half of a segment, up and down. With content-visibility they are
   * otherwise drawn at an estimated height until they come near the screen, and their real heights, arriving a few
   * frames after a scroll, would push what was scrolled to away. They stay laid out a few frames, long enough for
   * the browser to remember their sizes.
   */
  function layOutAround(v, seg) {
    if (!seg) return;
    var near = [];
    var reach = v.doc.clientHeight * 1.5;
    function walk(from, step) {
      for (var n = from, h = 0; n && h < reach; n = n[step]) {
        n.classList.add('near');
        near.push(n);
        h += n.offsetHeight;
      }
    }
    walk(seg, 'previousElementSibling');
    walk(seg.nextElementSibling, 'nextElementSibling');
    var frames = 0;
    (function release() {
      if (++frames < 4) { requestAnimationFrame(release); return; }
      near.forEach(function (n) { n.classList.remove('near'); });
    })();
  }
  /** Scrolls so an element is margin pixels below the top of its view. */
  function scrollToElement(v, el, margin, quiet) {
    layOutAround(v, segmentOf(v, el));
    scrollDocTo(v, topIn(v, el) - margin, quiet);
  }
  /** Scrolls so document offset at is drawn margin pixels below the top of a view. */
  function scrollToOffset(v, at, margin, quiet) {
    if (!v.segs.length) return;
    layOutAround(v, v.segs[floorIndex(v.segS, at)]);
    scrollDocTo(v, yOfOffset(v, at) - margin, quiet);
  }

  function highlight(v, k) {
    lit.forEach(function (n) { n.classList.remove('lit'); n.classList.remove('echo'); });
    lit = [];
    if (!v || k < 0) return;
    var b = band(v, k);
    if (b) lit.push(b);
    v.doc.querySelectorAll('[data-ov~="' + k + '"], .add[data-of="' + k + '"]').forEach(function (n) { lit.push(n); });
    lit.forEach(function (n) { n.classList.add('lit'); });
    if (compare) echo(v, k);
  }
  /** In the other views, outlines the chunks that hold any of this chunk's text: where its boundaries fall there. */
  function echo(v, k) {
    var c = v.d.chunks[k];
    views.forEach(function (w) {
      if (w === v) return;
      for (var j = Math.max(0, chunkAt(w, c.start) - 1); j < w.d.chunks.length && w.d.chunks[j].start < Math.max(c.end, c.start + 1); j++) {
        if (w.d.chunks[j].end <= c.start) continue;
        var b = band(w, j);
        if (b) { b.classList.add('echo'); lit.push(b); }
      }
    });
  }

  function markCurrent(v, k) {
    if (curRow) curRow.classList.remove('cur');
    if (curMark) curMark.classList.remove('cur');
    curRow = v && v.list && k >= 0 ? v.list.querySelector('a[data-k="' + k + '"]') : null;
    curMark = v && k >= 0 ? v.marks[k] || null : null;
    if (curMark) curMark.classList.add('cur');
    if (!curRow) return;
    curRow.classList.add('cur');
    // Only the list box scrolls, never the panel around it: the outline a reader clicked stays where it was.
    var list = v.list;
    if (sel.pinned && list.scrollHeight > list.clientHeight) {
      var t = curRow.offsetTop;
      if (t < list.scrollTop || t + curRow.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = t - list.clientHeight / 2;
    }
  }

  function show(v, k) {
    var c = v.d.chunks[k];
    if (!c) return;
    sel.v = v.i;
    sel.k = k;
    highlight(v, k);
    infoBody.textContent = '';
    // Ids made from the chunk's content do not show its place: its number goes first.
    var label = c.id.slice(-('#' + k).length) === '#' + k ? c.id : '#' + k + ' · ' + c.id;
    infoBody.appendChild(node('h2', 'chunk-id', (compare ? v.d.tag + ' · ' : '') + label));
    var dl = node('dl');
    var size = num(c.size) + ' ' + v.d.unit;
    if (v.d.maxSize) size += ' (' + Math.round((100 * c.size) / v.d.maxSize) + '% of max ' + num(v.d.maxSize) + ')';
    row(dl, 'size', size);
    row(dl, 'heading', v.d.crumbs[c.crumb] || '(before the first heading)');
    if (c.pageStart !== undefined) row(dl, 'pages', c.pageEnd !== undefined && c.pageEnd !== c.pageStart ? c.pageStart + '–' + c.pageEnd : String(c.pageStart));
    row(dl, 'lines', c.startLine === c.endLine ? String(c.startLine) : c.startLine + '–' + c.endLine);
    row(dl, 'offsets', '[' + num(c.start) + ', ' + num(c.end) + ')  ' + num(c.chars) + ' chars, ' + num(c.words) + ' words');
    var next = v.d.chunks[k + 1];
    var shared = [];
    if (c.overlapPrev > 0) shared.push(num(c.overlapPrev) + ' chars with the previous chunk');
    if (next && next.overlapPrev > 0) shared.push(num(next.overlapPrev) + ' with the next');
    if (shared.length) row(dl, 'shares', shared.join('; '));
    if (c.prefix > 0 || c.suffix > 0) row(dl, 'added', (c.prefix ? num(c.prefix) + ' chars before' : '') + (c.prefix && c.suffix ? ', ' : '') + (c.suffix ? num(c.suffix) + ' chars after' : ''));
    if (c.flags) row(dl, 'flags', chips(c.flags, ['oversized', 'above max', 'heading only', 'undersized', 'fallback']));
    if (c.kinds) row(dl, 'blocks', c.kinds.join(', '));
    if (c.languages) row(dl, 'languages', c.languages.join(', '));
    if (c.reason) row(dl, 'oversized', c.reason);
    infoBody.appendChild(dl);
    infoState.textContent = (sel.pinned ? 'Pinned' : 'Hovered') + ' · chunk ' + num(k + 1) + ' of ' + num(v.d.chunks.length) + (compare ? ' in ' + v.d.tag : '');
    markCurrent(v, k);
  }

  /** Scrolls a view so the chunk's first character (in the strip it shares with the previous chunk, if any) is at the top. */
  function scrollToChunk(v, k) {
    var first = band(v, k);
    var prev = first && first.previousElementSibling;
    if (prev && prev.classList.contains('shared') && (' ' + prev.getAttribute('data-ov') + ' ').indexOf(' ' + k + ' ') >= 0) first = prev;
    if (first) scrollToElement(v, first, 6);
  }

  function pin(v, k, scroll) {
    if (k < 0 || k >= v.d.chunks.length) return;
    sel.pinned = true;
    show(v, k);
    if (scroll) scrollToChunk(v, k);
    if (history.replaceState) history.replaceState(null, '', '#' + v.p + 'c' + k);
  }
  /** Releases the pinned chunk; the box goes back to its hint rather than describe a chunk no longer chosen. */
  function unpin() {
    sel.pinned = false;
    sel.k = -1;
    highlight(null, -1);
    markCurrent(null, -1);
    infoBody.textContent = '';
    infoBody.appendChild(hint);
    infoState.textContent = 'No chunk selected';
  }
  /** Pins the next or previous chunk; with none chosen, starts from the chunk at the top of the view. */
  function step(dir) {
    var v = views[sel.v];
    var n = v.d.chunks.length;
    if (!n) return;
    var k = sel.k < 0 ? chunkAt(v, offsetAtY(v, v.doc.scrollTop)) : Math.max(0, Math.min(n - 1, sel.k + dir));
    pin(v, k, true);
  }

  views.forEach(function (v) {
    v.doc.addEventListener('mouseover', function (e) {
      if (sel.pinned) return;
      var b = e.target.closest ? e.target.closest('.band, .shared') : null;
      if (b) show(v, Number(b.getAttribute('data-k')));
    });
    v.doc.addEventListener('click', function (e) {
      var b = e.target.closest ? e.target.closest('.band, .shared') : null;
      if (!b) return;
      if (window.getSelection && String(window.getSelection()).length > 0) return;
      var k = Number(b.getAttribute('data-k'));
      if (sel.pinned && sel.v === v.i && k === sel.k) unpin(); else pin(v, k, false);
    });
  });

  document.addEventListener('keydown', function (e) {
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape') unpin();
    else if (e.key === 'j') step(1);
    else if (e.key === 'k') step(-1);
    else if (e.key === 'n') stepProblem(1);
    else if (e.key === 'p' || e.key === 'N') stepProblem(-1);
  });
`;
