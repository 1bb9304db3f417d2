/**
 * The minimap in the report's page script: one mark per chunk, placed by offset and coloured by size and flag,
 * the viewport drawn over them, click to go to a chunk, drag to scroll. Also the scroll handling that keeps the
 * views of a comparison aligned by document position, the phone's view tabs, and the start-up.
 */
/** The last part of the page script: the minimap, aligned scrolling, the view tabs and start-up. */
export const CLIENT_MINIMAP = String.raw`
  function markClass(v, c) {
    var f = c.flags;
    if (has(f, 'oversized') || has(f, 'above max')) return 'over';
    if (has(f, 'heading only')) return 'lonely';
    if (has(f, 'undersized')) return 'under';
    var target = v.d.targetSize || v.d.maxSize;
    if (!target) return 's2';
    return c.size < target / 2 ? 's1' : c.size <= target ? 's2' : 's3';
  }

  function buildMinimap(v) {
    if (!v.mm) return;
    var box = v.mm.querySelector('.mm-marks');
    v.mmView = box.querySelector('.mm-view');
    var frag = document.createDocumentFragment();
    v.d.chunks.forEach(function (c, k) {
      var m = document.createElement('i');
      m.className = markClass(v, c);
      m.setAttribute('data-k', String(k));
      m.style.top = ((100 * c.start) / LEN).toFixed(3) + '%';
      m.style.height = ((100 * (c.end - c.start)) / LEN).toFixed(3) + '%';
      frag.appendChild(m);
      v.marks.push(m);
    });
    box.appendChild(frag);
    function offsetAtPointer(clientY) {
      var r = box.getBoundingClientRect();
      return Math.max(0, Math.min(1, (clientY - r.top) / (r.height || 1))) * LEN;
    }
    function markAt(e) {
      var t = document.elementFromPoint(e.clientX, e.clientY);
      if (t && t.parentNode === box && t.hasAttribute('data-k')) return Number(t.getAttribute('data-k'));
      return chunkAt(v, offsetAtPointer(e.clientY));
    }
    // A click (or a tap) goes to the chunk marked there; a drag scrolls the text along with the pointer.
    var drag = null;
    var dragged = false;
    v.mm.addEventListener('pointerdown', function (e) {
      drag = { y: e.clientY };
      dragged = false;
    });
    v.mm.addEventListener('pointermove', function (e) {
      if (!drag || !e.buttons) return;
      if (Math.abs(e.clientY - drag.y) > 4) dragged = true;
      if (dragged) scrollToOffset(v, offsetAtPointer(e.clientY), v.doc.clientHeight / 2);
    });
    v.mm.addEventListener('pointerup', function () { drag = null; });
    v.mm.addEventListener('pointercancel', function () { drag = null; });
    v.mm.addEventListener('click', function (e) {
      if (dragged) { dragged = false; return; }
      pin(v, markAt(e), true);
    });
  }

  function updateViewport(v) {
    if (!v.mmView) return;
    var top = offsetAtY(v, v.doc.scrollTop);
    var bottom = offsetAtY(v, v.doc.scrollTop + v.doc.clientHeight);
    v.mmView.style.top = ((100 * top) / LEN).toFixed(3) + '%';
    v.mmView.style.height = ((100 * Math.max(0, bottom - top)) / LEN).toFixed(3) + '%';
  }

  /** After a view scrolled (not by this script), scrolls the other views so the same offset is at their top. */
  function follow(v) {
    var own = v.expect >= 0 && Math.abs(v.doc.scrollTop - v.expect) < 2;
    v.expect = -1;
    if (own) return;
    var at = offsetAtY(v, v.doc.scrollTop);
    views.forEach(function (w) {
      if (w === v || !visible(w)) return;
      scrollToOffset(w, at, 0, true);
      updateViewport(w);
    });
  }

  views.forEach(function (v) {
    var queued = false;
    v.doc.addEventListener('scroll', function () {
      if (queued) return;
      queued = true;
      requestAnimationFrame(function () {
        queued = false;
        updateViewport(v);
        if (compare) follow(v);
      });
    }, { passive: true });
  });

  document.querySelectorAll('.view-tabs [data-tab]').forEach(function (tab) {
    tab.addEventListener('click', function () {
      var i = Number(tab.getAttribute('data-tab'));
      var from = views.filter(visible)[0];
      var at = from ? offsetAtY(from, from.doc.scrollTop) : 0;
      document.querySelectorAll('.view').forEach(function (s) { s.classList.toggle('active', Number(s.getAttribute('data-view')) === i); });
      document.querySelectorAll('.view-tabs [data-tab]').forEach(function (t) { t.setAttribute('aria-selected', String(t === tab)); });
      var w = views[i];
      scrollToOffset(w, at, 0, true);
      updateViewport(w);
      if (sel.v !== i) { unpin(); sel.v = i; }
    });
  });

  views.forEach(buildMinimap);
  // The viewport box needs the text laid out, and the lists can wait: both after the first frame, instead of
  // forcing a layout, or building a thousand rows, before the page is drawn.
  requestAnimationFrame(function () {
    views.forEach(updateViewport);
    setTimeout(function () { views.forEach(fillList); }, 0);
  });
  describeFilter();
  var more = document.getElementById('more');
  if (more && !(window.matchMedia && window.matchMedia('(max-width: 820px)').matches)) more.open = true;
  var m = /^#(v(\d+)-)?(c|h)(\d+)$/.exec(location.hash);
  if (m) {
    var hv = views[Number(m[2] || 0)];
    if (hv && m[3] === 'c' && Number(m[4]) < hv.d.chunks.length) pin(hv, Number(m[4]), true);
    else if (hv && m[3] === 'h') goHeading(Number(m[4]), null);
  }
  document.documentElement.setAttribute('data-ready', '1');
`;
