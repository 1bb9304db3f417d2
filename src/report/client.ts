/**
 * The stylesheet and the script of the HTML report, as strings inlined into the page. The script never reads
 * document text into markup: it reads chunk facts from a JSON element and writes them with `textContent`.
 */

/** Styles of the report. Bands alternate two colours; shared (overlap) text is striped; added text is dashed green. */
export const REPORT_CSS = String.raw`
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f4f5f7;display:flex;flex-direction:column}
header.top{padding:8px 16px;background:#1d2330;color:#fff;display:flex;flex-wrap:wrap;align-items:baseline;gap:6px 18px}
header.top h1{font-size:16px;margin:0;font-weight:600;overflow-wrap:anywhere}
header.top .sub{color:#c6ccd8;font-size:13px}
.legend{display:flex;gap:10px;font-size:12px;margin-left:auto;flex-wrap:wrap}
.legend span{padding:0 6px;border-radius:3px;color:#1d2330}
.lg-b0{background:#e3edff;border-left:4px solid #4c7fe0}
.lg-b1{background:#fff1d6;border-left:4px solid #d99a22}
.lg-ov{background:repeating-linear-gradient(135deg,#d9c6f0 0 5px,#f1e9fb 5px 10px)}
.lg-add{background:#e3f6e8;border:1px dashed #2f9e55}
.lg-lost{background:#ffd6d6}
.layout{flex:1;display:grid;grid-template-columns:minmax(0,1fr) 380px;min-height:0}
#doc{overflow:auto;padding:14px 18px 40vh;font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;outline:none}
#side{overflow:auto;border-left:1px solid #d5d9e0;background:#fff}
.band{position:relative;white-space:pre-wrap;overflow-wrap:anywhere;padding:4px 8px 4px 10px;margin:0 0 3px;border-left:5px solid;border-radius:2px;content-visibility:auto;contain-intrinsic-size:auto 4.5em;cursor:pointer}
.band.b0{background:#e3edff;border-color:#4c7fe0}
.band.b1{background:#fff1d6;border-color:#d99a22}
.band::before{content:attr(data-label);float:right;margin:0 0 2px 10px;padding:0 5px;border-radius:3px;background:rgba(255,255,255,.8);color:#4a5261;font:11px/1.6 system-ui,sans-serif;white-space:nowrap}
.band.oversized{border-color:#d22;background:#ffe9e9}
.band.oversized::before{color:#b00;font-weight:600}
.band.lonely{outline:2px dashed #e06c00;outline-offset:-2px}
.band.lit{box-shadow:0 0 0 2px #1d2330;z-index:1}
.band.empty{min-height:1.6em}
.ov{background:repeating-linear-gradient(135deg,rgba(128,64,200,.28) 0 5px,rgba(128,64,200,.1) 5px 10px);border-radius:2px}
.ov.lit,.add.lit{outline:2px solid #1d2330}
.foreign{background:rgba(0,0,0,.06)}
.add{background:#e3f6e8;color:#17633a;border:1px dashed #2f9e55;border-radius:3px;font-style:italic}
.add::before{font:10px system-ui,sans-serif;font-style:normal;color:#fff;background:#2f9e55;border-radius:2px;padding:0 3px;margin-right:4px;vertical-align:1px}
.add.pre::before{content:"+ prefix"}
.add.suf::before{content:"+ suffix"}
.gap{white-space:pre-wrap;margin:0 0 3px}
.lost{background:#ffd6d6;color:#900;text-decoration:underline wavy #d22}
.page{display:block;margin:10px 0 6px;border-top:2px solid #8a93a3;font:600 11px/1.8 system-ui,sans-serif;color:#4a5261;white-space:normal}
.page.approx{border-top-style:dashed}
#side details{border-bottom:1px solid #e3e6eb}
#side summary{cursor:pointer;padding:8px 14px;font-weight:600;background:#f7f8fa}
#side .pad{padding:8px 14px}
#info{position:sticky;top:0;z-index:2;background:#fff;border-bottom:2px solid #d5d9e0;padding:10px 14px;min-height:118px}
#info h2{font-size:14px;margin:0 0 4px;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
#info .hint{color:#6b7383;margin:0}
#info dl{display:grid;grid-template-columns:auto 1fr;gap:1px 10px;margin:0;font-size:12.5px}
#info dt{color:#6b7383}
#info dd{margin:0;overflow-wrap:anywhere}
#info .pin{float:right;font-size:11px;color:#6b7383}
.chip{display:inline-block;padding:0 6px;margin:0 3px 2px 0;border-radius:9px;background:#eef0f4;font-size:11.5px}
.chip.warn{background:#ffe1c2;color:#8a3b00}
table.stats{border-collapse:collapse;width:100%;font-size:12.5px;margin-top:6px}
table.stats td{padding:2px 4px;border-bottom:1px solid #f0f1f4;vertical-align:top}
table.stats td:first-child{white-space:nowrap}
table.stats td:last-child{text-align:right;font-variant-numeric:tabular-nums}
table.stats tr.warn td{color:#a33b00;font-weight:600}
.histogram{display:block;max-width:100%;height:auto}
.histogram .bar{fill:#6b8fd6}
.histogram .bar.over{fill:#d33}
.histogram .axis{stroke:#8a93a3}
.histogram .target{stroke:#2f9e55;stroke-dasharray:4 3;fill:#2f9e55}
.histogram .limit{stroke:#d22;fill:#d22}
.histogram line.target,.histogram line.limit{stroke-width:1.5}
.histogram text{font:10px system-ui,sans-serif;stroke:none}
.histogram .tick{fill:#4a5261}
ol.outline,ol.chunks{list-style:none;margin:0;padding:4px 0}
ol.outline a,ol.chunks a{display:block;padding:1px 14px;color:inherit;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:12.5px}
ol.outline a:hover,ol.chunks a:hover{background:#eef3ff}
ol.outline .d1 a{padding-left:26px}ol.outline .d2 a{padding-left:38px}ol.outline .d3 a{padding-left:50px}ol.outline .d4 a{padding-left:62px}ol.outline .d5 a{padding-left:74px}
ol.outline .d0 a{font-weight:600}
ol.chunks li{content-visibility:auto;contain-intrinsic-size:auto 20px}
ol.chunks a{display:grid;grid-template-columns:48px 44px 60px minmax(0,1fr);gap:6px;align-items:center}
ol.chunks a.cur{background:#1d2330;color:#fff}
ol.chunks a.flag-over{box-shadow:inset 4px 0 #d22}
ol.chunks a.flag-lonely{box-shadow:inset 4px 0 #e06c00}
ol.chunks .n{font-family:ui-monospace,monospace;color:#6b7383}
ol.chunks a.cur .n{color:#c6ccd8}
ol.chunks .sz{text-align:right;font-variant-numeric:tabular-nums}
ol.chunks .meter{height:6px;background:#eef0f4;border-radius:3px;overflow:hidden}
ol.chunks .meter i{display:block;height:100%;background:#6b8fd6}
ol.chunks .meter i.over{background:#d33}
ol.chunks .bc{overflow:hidden;text-overflow:ellipsis;color:#4a5261}
ol.chunks a.cur .bc{color:#fff}
.keys{color:#6b7383;font-size:11.5px;margin:6px 0 0}
@media (max-width:820px){.layout{grid-template-columns:1fr;grid-template-rows:minmax(0,1fr) 42vh}#side{border-left:0;border-top:2px solid #d5d9e0}}
`;

/**
 * Behaviour of the report: hover shows a chunk's facts, click pins it, the side lists jump to chunks, `j`/`k` step
 * through them, `Esc` unpins. Written as plain ES2017 so it runs in any current browser from a `file://` URL.
 */
export const REPORT_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var chunks = data.chunks;
  var doc = document.getElementById('doc');
  var info = document.getElementById('info');
  var list = document.getElementById('chunk-list');
  var current = -1;
  var pinned = false;
  var lit = [];

  function node(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = String(text);
    return n;
  }
  function num(v) { return Number(v).toLocaleString('en-US', { maximumFractionDigits: 1 }); }
  function row(dl, label, value) {
    if (value === undefined || value === null || value === '') return;
    dl.appendChild(node('dt', '', label));
    var dd = node('dd');
    if (typeof value === 'string' || typeof value === 'number') dd.textContent = String(value); else dd.appendChild(value);
    dl.appendChild(dd);
  }
  function chips(items, warn) {
    var span = node('span');
    items.forEach(function (t) { span.appendChild(node('span', warn && warn.indexOf(t) >= 0 ? 'chip warn' : 'chip', t)); });
    return span;
  }
  function bandOf(k) { return document.getElementById('c' + k); }

  function highlight(k) {
    lit.forEach(function (n) { n.classList.remove('lit'); });
    lit = [];
    if (k < 0) return;
    var b = bandOf(k);
    if (b) lit.push(b);
    doc.querySelectorAll('[data-ov~="' + k + '"], .add[data-of="' + k + '"]').forEach(function (n) { lit.push(n); });
    lit.forEach(function (n) { n.classList.add('lit'); });
  }

  function show(k) {
    var c = chunks[k];
    if (!c) return;
    current = k;
    highlight(k);
    info.textContent = '';
    var pin = node('span', 'pin', pinned ? 'pinned · Esc to release' : 'click to pin');
    info.appendChild(pin);
    info.appendChild(node('h2', 'chunk-id', c.id));
    var dl = node('dl');
    var size = num(c.size) + ' ' + data.unit;
    if (data.maxSize) size += ' (' + Math.round((100 * c.size) / data.maxSize) + '% of max ' + num(data.maxSize) + ')';
    row(dl, 'size', size);
    row(dl, 'heading', data.crumbs[c.crumb] || '(before the first heading)');
    if (c.pageStart !== undefined) row(dl, 'pages', c.pageEnd !== undefined && c.pageEnd !== c.pageStart ? c.pageStart + '–' + c.pageEnd : String(c.pageStart));
    row(dl, 'lines', c.startLine === c.endLine ? String(c.startLine) : c.startLine + '–' + c.endLine);
    row(dl, 'offsets', '[' + num(c.start) + ', ' + num(c.end) + ')  ' + num(c.chars) + ' chars, ' + num(c.words) + ' words');
    if (c.overlapPrev > 0) row(dl, 'overlap', num(c.overlapPrev) + ' chars shared with the previous chunk');
    if (c.prefix > 0 || c.suffix > 0) row(dl, 'added', (c.prefix ? num(c.prefix) + ' chars before' : '') + (c.prefix && c.suffix ? ', ' : '') + (c.suffix ? num(c.suffix) + ' chars after' : ''));
    if (c.flags) row(dl, 'flags', chips(c.flags, ['oversized', 'heading only', 'fallback']));
    if (c.kinds) row(dl, 'blocks', c.kinds.join(', '));
    if (c.languages) row(dl, 'languages', c.languages.join(', '));
    if (c.reason) row(dl, 'oversized', c.reason);
    info.appendChild(dl);
    var prev = list.querySelector('a.cur');
    if (prev) prev.classList.remove('cur');
    var item = list.querySelector('a[data-k="' + k + '"]');
    if (item) {
      item.classList.add('cur');
      if (pinned) item.scrollIntoView({ block: 'nearest' });
    }
  }

  function pin(k, scroll) {
    pinned = true;
    show(k);
    if (scroll) {
      var b = bandOf(k);
      if (b) b.scrollIntoView({ block: 'start' });
    }
    if (history.replaceState) history.replaceState(null, '', '#c' + k);
  }
  function unpin() {
    pinned = false;
    if (current >= 0) show(current);
  }

  doc.addEventListener('mouseover', function (e) {
    if (pinned) return;
    var b = e.target.closest ? e.target.closest('.band') : null;
    if (b) show(Number(b.getAttribute('data-k')));
  });
  doc.addEventListener('click', function (e) {
    var b = e.target.closest ? e.target.closest('.band') : null;
    if (!b) return;
    var k = Number(b.getAttribute('data-k'));
    if (window.getSelection && String(window.getSelection()).length > 0) return;
    if (pinned && k === current) unpin(); else pin(k, false);
  });
  document.getElementById('side').addEventListener('click', function (e) {
    var a = e.target.closest ? e.target.closest('a[data-k]') : null;
    if (!a) return;
    e.preventDefault();
    pin(Number(a.getAttribute('data-k')), true);
  });
  document.addEventListener('keydown', function (e) {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA')) return;
    if (e.key === 'Escape') unpin();
    else if ((e.key === 'j' || e.key === 'n') && chunks.length) pin(Math.min(chunks.length - 1, current + 1), true);
    else if ((e.key === 'k' || e.key === 'p') && chunks.length) pin(Math.max(0, current - 1), true);
  });

  var m = /^#c(\d+)$/.exec(location.hash);
  if (m && Number(m[1]) < chunks.length) pin(Number(m[1]), true);
  document.documentElement.setAttribute('data-ready', '1');
})();
`;
