/**
 * Navigation in the report's page script: problem rows and histogram bars choose what to step through (the chunks
 * they count), ‹ › and n / p step through it, the outline scrolls to a heading's own position, the chunk lists
 * and the side panel's buttons. Runs in the closure `client-core.ts` opens.
 */
/** The second part of the page script: problems, histogram bins, outline, lists and buttons. */
export const CLIENT_NAVIGATION = String.raw`
  var NAMES = { oversized: 'oversized', above: 'above max', undersized: 'undersized', lonely: 'heading only', lost: 'text outside chunks' };
  var problemState = document.getElementById('problem-state');
  var filter = null;
  var activeControl = null;

  /** What a view counts as problems, by kind, each a list of targets (a chunk, or lost text) in document order. */
  function problems(v) {
    if (v.problems) return v.problems;
    var out = { oversized: [], above: [], undersized: [], lonely: [], lost: [], all: [] };
    v.d.chunks.forEach(function (c, k) {
      var t = { k: k, at: c.start };
      if (has(c.flags, 'oversized')) out.oversized.push(t);
      if (v.d.maxSize !== null && c.size > v.d.maxSize) out.above.push(t);
      if (has(c.flags, 'undersized')) out.undersized.push(t);
      if (has(c.flags, 'heading only')) out.lonely.push(t);
      if (has(c.flags, 'oversized') || has(c.flags, 'above max') || has(c.flags, 'undersized') || has(c.flags, 'heading only')) out.all.push(t);
    });
    v.doc.querySelectorAll('.lost').forEach(function (el) {
      var t = { el: el, at: Number(el.parentNode.getAttribute('data-s')) };
      out.lost.push(t);
      out.all.push(t);
    });
    out.all.sort(function (a, b) { return a.at - b.at; });
    v.problems = out;
    return out;
  }

  function choose(v, name, label, targets, control) {
    if (activeControl) activeControl.classList.remove('sel');
    activeControl = control || null;
    if (activeControl) activeControl.classList.add('sel');
    filter = { v: v, name: name, label: label, targets: targets, at: -1 };
  }
  function describeFilter() {
    if (!filter) {
      var counts = views.map(function (v) { return (compare ? v.d.tag + ' ' : '') + num(problems(v).all.length); });
      problemState.textContent = 'Problems: ' + counts.join(', ') + ' · ‹ › step through them';
      return;
    }
    var head = (compare ? filter.v.d.tag + ' · ' : '') + filter.label + ': ';
    problemState.textContent = filter.targets.length ? head + (filter.at < 0 ? num(filter.targets.length) : num(filter.at + 1) + ' of ' + num(filter.targets.length)) : head + 'none';
  }
  function go(v, t) {
    if (t.el) {
      unpin();
      sel.v = v.i;
      scrollToElement(v, t.el, 40);
      t.el.classList.add('lit');
      lit = [t.el];
    } else pin(v, t.k, true);
  }
  function stepFilter(dir) {
    if (filter && filter.targets.length) {
      var n = filter.targets.length;
      filter.at = filter.at < 0 ? (dir > 0 ? 0 : n - 1) : (filter.at + dir + n) % n;
      go(filter.v, filter.targets[filter.at]);
    }
    describeFilter();
  }
  /** Next or previous problem; without a choice yet, every problem of the current view, from the current chunk on. */
  function stepProblem(dir) {
    if (!filter) {
      var v = views[sel.v];
      var all = problems(v).all;
      choose(v, 'all', 'problems', all, null);
      var c = sel.k >= 0 ? v.d.chunks[sel.k] : null;
      if (c) {
        var i = 0;
        while (i < all.length && all[i].at <= c.start) i++;
        filter.at = dir > 0 ? i - 1 : i;
      }
    }
    stepFilter(dir);
  }

  function chooseProblem(control) {
    var tr = control.closest('tr');
    var name = tr && tr.getAttribute('data-problem');
    var button = control.tagName === 'BUTTON' ? control : tr && tr.querySelector('button.prob');
    if (!name || !button) return;
    var v = views[Number(button.getAttribute('data-view'))] || views[0];
    if (!filter || filter.v !== v || filter.name !== name) choose(v, name, NAMES[name] || name, problems(v)[name] || [], button);
    stepFilter(1);
  }

  function chooseBin(svg, bin) {
    var v = views[Number(svg.getAttribute('data-view'))] || views[0];
    var lo = Number(bin.getAttribute('data-lo'));
    var hi = Number(bin.getAttribute('data-hi'));
    var name = 'bin' + lo;
    if (!filter || filter.v !== v || filter.name !== name) {
      var targets = [];
      v.d.chunks.forEach(function (c, k) { if (c.size >= lo && c.size <= hi) targets.push({ k: k, at: c.start }); });
      choose(v, name, 'size ' + num(lo) + '–' + num(hi) + ' ' + v.d.unit, targets, bin);
    }
    stepFilter(1);
  }

  /** Scrolls every view to a heading's own position and pins, in the current view, the chunk that holds it. */
  function goHeading(n, link) {
    var current = views[sel.v];
    views.forEach(function (v) {
      var a = document.getElementById(v.p + 'h' + n);
      if (!a || !visible(v)) return;
      // Every view goes to its own copy of the heading; none follows another.
      scrollToElement(v, a, 8, true);
    });
    var a0 = document.getElementById(current.p + 'h' + n);
    var holder0 = a0 && a0.closest('[data-k]');
    if (holder0) pin(current, Number(holder0.getAttribute('data-k')), false);
    var old = document.querySelector('ol.outline a.cur');
    if (old) old.classList.remove('cur');
    if (link) link.classList.add('cur');
  }

  document.addEventListener('click', function (e) {
    var t = e.target;
    if (!t.closest) return;
    var act = t.closest('[data-act]');
    if (act) {
      var name = act.getAttribute('data-act');
      if (name === 'prev' || name === 'next') step(name === 'next' ? 1 : -1);
      else if (name === 'close') unpin();
      else if (name === 'next-problem') stepProblem(1);
      else if (name === 'prev-problem') stepProblem(-1);
      return;
    }
    var problem = t.closest('button.prob, tr[data-problem] td:first-child');
    if (problem) { chooseProblem(problem); return; }
    var bin = t.closest('svg.histogram .bin');
    if (bin) { if (!bin.classList.contains('empty')) chooseBin(bin.closest('svg'), bin); return; }
    var heading = t.closest('ol.outline a[data-h]');
    if (heading) { e.preventDefault(); goHeading(Number(heading.getAttribute('data-h')), heading); return; }
    var item = t.closest('ol.chunks a[data-k]');
    if (item) { e.preventDefault(); pin(viewOf(item), Number(item.getAttribute('data-k')), true); }
  });
`;
