/**
 * The stylesheet of the HTML report, inlined into the page. Bands alternate blue and violet, colours no warning
 * uses; text two chunks share is striped in both and edged in both; warnings are red (above max), orange
 * (heading only) and mustard (undersized), in the bands, the minimap and the histogram alike.
 */
/** Styles of the report, desktop first; at 820 px and narrower, the phone layout. */
export const REPORT_CSS = String.raw`
*{box-sizing:border-box}
html,body{margin:0;height:100%;overflow:hidden}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f4f5f7;display:flex;flex-direction:column}
button{font:inherit;color:inherit}
header.top{padding:7px 16px 6px;background:#1d2330;color:#fff}
.head-main{display:flex;align-items:baseline;gap:4px 16px;flex-wrap:wrap;min-width:0}
header.top h1{font-size:16px;margin:0;font-weight:600;overflow-wrap:anywhere}
header.top .sub{color:#c6ccd8;font-size:13px}
details.more>summary{display:none;cursor:pointer;font-size:12px;color:#c6ccd8}
.more-body{display:flex;flex-wrap:wrap;align-items:center;gap:3px 18px;margin-top:2px}
.settings{font-size:12.5px;color:#dfe3ea;min-width:0}
.settings p{margin:0}
.settings code{font:12px ui-monospace,monospace;color:#fff}
.legend{display:flex;gap:6px 8px;font-size:11.5px;margin-left:auto;flex-wrap:wrap}
.legend span{padding:0 6px;border-radius:3px;color:#1d2330;background:#eef0f4}
.lg-b0{background:#e6eefc!important;border-left:4px solid #3f72d6}
.lg-b1{background:#f0eafa!important;border-left:4px solid #8557c7}
.lg-shared{background:repeating-linear-gradient(135deg,#cddcf7 0 5px,#e2d5f3 5px 10px)!important;border-left:4px solid #3f72d6}
.lg-add{background:#e3f6e8!important;border:1px dashed #2f9e55}
.lg-lost{background:#ffd6d6!important}
.lg-lonely{outline:2px dashed #c45100;outline-offset:-2px}
.lg-under{border-left:4px solid #c99700}
.lg-over{background:#ffe9e9!important;border-left:4px solid #d22}
.tag{display:inline-block;min-width:18px;padding:0 5px;border-radius:4px;font:700 11.5px/1.55 system-ui,sans-serif;color:#fff;text-align:center;font-style:normal}
.tag.t0{background:#2f6fd6}.tag.t1{background:#b0457d}.tag.t2{background:#2f9e55}.tag.t3{background:#8a5a00}
.layout{flex:1;display:grid;grid-template-columns:minmax(0,1fr) 380px;grid-template-rows:minmax(0,1fr);grid-template-areas:"views side";min-height:0}
.view-tabs{display:none;grid-area:tabs}
.views{grid-area:views;display:grid;grid-template-columns:repeat(var(--views),minmax(0,1fr));min-height:0;min-width:0}
.view{display:flex;flex-direction:column;min-height:0;min-width:0;border-right:1px solid #d5d9e0}
.view-title{font:600 13px/1.4 system-ui,sans-serif;margin:0;padding:5px 12px;background:#e9ecf1;border-bottom:1px solid #d5d9e0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.view-title code{font:12.5px ui-monospace,monospace}
.view-title .count{color:#6b7383;font-weight:400}
.view-body{flex:1;display:grid;grid-template-columns:minmax(0,1fr) 16px;min-height:0}
.doc{position:relative;overflow:auto;padding:14px 16px 40vh;font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;outline:none;min-width:0}
.minimap{position:relative;background:#e4e8ee;border-left:1px solid #d5d9e0;cursor:pointer;touch-action:none;user-select:none}
.mm-marks{position:absolute;top:4px;bottom:4px;left:0;right:0}
.mm-marks i{position:absolute;left:3px;right:3px;min-height:1px;background:#a9c0ec}
.mm-marks i.s2{background:#6f95dd}.mm-marks i.s3{background:#2f5bb7}
.mm-marks i.under{background:#c99700;left:0;right:0;min-height:3px;z-index:1}
.mm-marks i.lonely{background:#e0640b;left:0;right:0;min-height:3px;z-index:1}
.mm-marks i.over{background:#d42020;left:0;right:0;min-height:3px;z-index:2}
.mm-marks i.cur{background:#1d2330;left:0;right:0;min-height:4px;z-index:3}
.mm-view{position:absolute;left:0;right:0;top:0;height:0;min-height:6px;border:2px solid #1d2330;border-radius:2px;background:rgba(29,35,48,.1);pointer-events:none;z-index:4}
.band,.shared{position:relative;white-space:pre-wrap;overflow-wrap:anywhere;cursor:pointer;content-visibility:auto}
.doc>.near{content-visibility:visible}
.band{padding:4px 8px 4px 20px;margin-top:3px;border-left:5px solid;border-radius:2px;contain-intrinsic-size:auto 4.5em}
.shared+.band{margin-top:0;border-top-left-radius:0;border-top-right-radius:0}
.band.b0{background:#e6eefc;border-color:#3f72d6}
.band.b1{background:#f0eafa;border-color:#8557c7}
.band::before,.shared::before{content:attr(data-label);float:right;margin:0 0 2px 10px;padding:0 5px;border-radius:3px;background:rgba(255,255,255,.82);color:#4a5261;font:11px/1.6 system-ui,sans-serif;white-space:nowrap;font-style:normal}
.shared{padding:4px 8px 4px 17px;border-left:5px solid;contain-intrinsic-size:auto 3em}
.shared::before{font-size:10.5px;color:#5c6473;background:rgba(255,255,255,.6)}
.shared.from0{border-left-color:#3f72d6;box-shadow:inset 3px 0 #8557c7;background:repeating-linear-gradient(135deg,rgba(63,114,214,.2) 0 6px,rgba(133,87,199,.24) 6px 12px)}
.shared.from1{border-left-color:#8557c7;box-shadow:inset 3px 0 #3f72d6;background:repeating-linear-gradient(135deg,rgba(133,87,199,.24) 0 6px,rgba(63,114,214,.2) 6px 12px)}
.band.oversized{border-color:#d22;background:#ffe9e9}
.band.oversized::before{color:#b00;font-weight:600}
.band.under::before{background:#fff0b8;color:#6b4d00;font-weight:600}
.band.lonely{outline:2px dashed #c45100;outline-offset:-2px}
.band.lonely::before{color:#a34400;font-weight:600}
.band.lit{box-shadow:0 0 0 2px #1d2330;z-index:1}
.shared.from0.lit{box-shadow:inset 3px 0 #8557c7,0 0 0 2px #1d2330;z-index:1}
.shared.from1.lit{box-shadow:inset 3px 0 #3f72d6,0 0 0 2px #1d2330;z-index:1}
.band.echo{box-shadow:inset 0 0 0 2px rgba(29,35,48,.45)}
.band.empty{min-height:1.6em}
.ov{background:repeating-linear-gradient(135deg,rgba(63,114,214,.25) 0 5px,rgba(133,87,199,.25) 5px 10px);border-radius:2px}
.ov.lit,.add.lit{outline:2px solid #1d2330}
.foreign{background:rgba(0,0,0,.06)}
.add{position:relative;background:#e3f6e8;color:#17633a;border:1px dashed #2f9e55;border-radius:3px;font-style:italic}
.add.pre::before,.add.suf::after{content:"+";font:700 11px/14px system-ui,sans-serif;font-style:normal;color:#fff;background:#2f9e55;border-radius:3px;text-align:center;width:13px;height:14px}
.add.pre::before{position:absolute;left:-17px;top:1px}
.add.suf::after{display:inline-block;margin-left:3px;vertical-align:1px}
.gap{white-space:pre-wrap;margin:3px 0 0}
.lost{background:#ffd6d6;color:#900;text-decoration:underline wavy #d22}
.lost.lit{outline:2px solid #1d2330}
.ws{display:none}
.page{display:flow-root;margin:12px 0 6px;border-top:2px solid #8a93a3;font:600 11px/1.8 system-ui,sans-serif;color:#4a5261;white-space:normal}
.band>.page:first-child,.shared>.page:first-child{margin-top:0}
.page.approx{border-top-style:dashed}
#side{grid-area:side;overflow:auto;border-left:1px solid #d5d9e0;background:#fff;min-height:0;scroll-padding-top:150px}
#side details{border-bottom:1px solid #e3e6eb}
#side summary{cursor:pointer;padding:7px 14px;font-weight:600;background:#f7f8fa}
#side .pad{padding:8px 14px}
#info{position:sticky;top:0;z-index:3;background:#fff;border-bottom:2px solid #d5d9e0;padding:8px 14px 10px;min-height:132px}
.info-bar{display:flex;align-items:center;gap:8px;margin-bottom:4px;font-size:12px;color:#6b7383}
#info-state{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.nav{display:flex;gap:4px}
.nav button,.problem-bar button{font:600 15px/1 system-ui,sans-serif;min-width:30px;height:26px;border:1px solid #c9ced8;background:#f7f8fa;border-radius:5px;cursor:pointer;padding:0 6px}
.nav button:hover,.problem-bar button:hover{background:#eef3ff}
#info h2{font-size:14px;margin:0 0 4px;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
#info dl{display:grid;grid-template-columns:auto 1fr;gap:1px 10px;margin:0;font-size:12.5px}
#info dt{color:#6b7383}
#info dd{margin:0;overflow-wrap:anywhere}
.hint{color:#6b7383;margin:0;font-size:13px}
.hint.small{font-size:11.5px;margin:2px 0 4px}
.hint .for-touch{display:none}
@media (hover:none){.hint .for-mouse{display:none}.hint .for-touch{display:inline}}
.chip{display:inline-block;padding:0 6px;margin:0 3px 2px 0;border-radius:9px;background:#eef0f4;font-size:11.5px}
.chip.warn{background:#ffe1c2;color:#8a3b00}
.problem-bar{display:flex;align-items:center;gap:8px;margin:0 0 6px}
#problem-state{flex:1;font-size:12.5px;color:#4a5261}
.hist-title{margin:6px 0 0;font-size:12px;color:#4a5261}
table.stats{border-collapse:collapse;width:100%;font-size:12.5px;margin-top:6px}
table.stats th{font-weight:600;text-align:right;padding:2px 4px}
table.stats td{padding:2px 4px;border-bottom:1px solid #f0f1f4;vertical-align:top}
table.stats td:first-child{white-space:nowrap}
table.stats td+td{text-align:right;font-variant-numeric:tabular-nums}
table.stats tr.warn td{color:#a33b00;font-weight:600}
table.stats tr[data-problem] td:first-child{cursor:pointer}
button.prob{border:0;background:none;padding:0 3px;margin:0 -3px;border-radius:3px;cursor:pointer;color:#a33b00;font-weight:600;text-decoration:underline dotted;text-underline-offset:2px;font-variant-numeric:tabular-nums}
button.prob:hover,button.prob.sel{background:#ffe1c2}
.histogram{display:block;max-width:100%;height:auto}
.histogram .bin{cursor:pointer}
.histogram .bin.empty{cursor:default}
.histogram .hit{fill:transparent}
.histogram .bin:not(.empty):hover .hit{fill:rgba(63,114,214,.14)}
.histogram .bar{fill:#6b8fd6}
.histogram .bar.over{fill:#d33}
.histogram .bar.under{fill:#c99700}
.histogram .bin.sel .bar{fill:#1d2330}
.histogram .grid{stroke:#eef0f4}
.histogram .axis{stroke:#8a93a3}
.histogram .mark-line{stroke-width:1.5}
.histogram .mark-line.min{stroke:#c99700;stroke-dasharray:2 2}
.histogram .mark-line.target{stroke:#2f9e55;stroke-dasharray:4 3}
.histogram .mark-line.limit{stroke:#d22}
.histogram text{font:10px system-ui,sans-serif}
.histogram .tick{fill:#4a5261}
.histogram .mark.min{fill:#8a6400}.histogram .mark.target{fill:#23793f}.histogram .mark.limit{fill:#c01818}
ol.outline,ol.chunks{list-style:none;margin:0;padding:4px 0}
ol.scroll{position:relative;max-height:46vh;overflow:auto;overscroll-behavior:contain}
ol.outline a,ol.chunks a{display:block;padding:1px 14px;color:inherit;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:12.5px}
ol.outline a:hover,ol.chunks a:hover{background:#eef3ff}
ol.outline a.cur{background:#e3eaf8}
ol.outline .d1 a{padding-left:26px}ol.outline .d2 a{padding-left:38px}ol.outline .d3 a{padding-left:50px}ol.outline .d4 a{padding-left:62px}ol.outline .d5 a{padding-left:74px}
ol.outline .d0 a{font-weight:600}
ol.chunks li{content-visibility:auto;contain-intrinsic-size:auto 36px}
ol.chunks a{display:grid;grid-template-columns:44px 38px 46px minmax(0,1fr);grid-template-rows:auto auto;column-gap:6px;align-items:center;padding:2px 14px 3px}
ol.chunks .n{grid-row:1 / 3;align-self:start;font-family:ui-monospace,monospace;color:#6b7383}
ol.chunks .sz{text-align:right;font-variant-numeric:tabular-nums}
ol.chunks .meter{height:6px;background:#eef0f4;border-radius:3px;overflow:hidden}
ol.chunks .meter i{display:block;height:100%;background:#6b8fd6}
ol.chunks .meter i.over{background:#d33}
ol.chunks .hd{overflow:hidden;text-overflow:ellipsis;font-weight:600;color:#30394a}
ol.chunks .op{grid-column:2 / 5;overflow:hidden;text-overflow:ellipsis;color:#6b7383;font-size:11.5px}
ol.chunks a.cur{background:#1d2330;color:#fff}
ol.chunks a.cur .n,ol.chunks a.cur .hd,ol.chunks a.cur .op{color:#dfe3ea}
ol.chunks a.flag-over{box-shadow:inset 4px 0 #d22}
ol.chunks a.flag-lonely{box-shadow:inset 4px 0 #e0640b}
ol.chunks a.flag-under{box-shadow:inset 4px 0 #c99700}
@media (max-width:820px){
header.top{padding:5px 10px}
header.top h1{font-size:14px}
header.top .sub{font-size:12px}
details.more>summary{display:list-item}
details.more[open]{max-height:40vh;overflow:auto}
.legend{margin-left:0}
.layout{grid-template-columns:minmax(0,1fr);grid-template-rows:auto minmax(0,1fr) 36vh;grid-template-areas:"tabs" "views" "side"}
.compare .view-tabs{display:flex;gap:4px;padding:4px 8px;background:#e9ecf1;border-bottom:1px solid #d5d9e0;overflow-x:auto}
.view-tabs button{border:1px solid #c9ced8;background:#fff;border-radius:5px;padding:2px 8px;font-size:12.5px;white-space:nowrap}
.view-tabs button[aria-selected="true"]{background:#1d2330;color:#fff;border-color:#1d2330}
.compare .views{grid-template-columns:minmax(0,1fr)}
.compare .view{display:none}
.compare .view.active{display:flex}
.view-body{grid-template-columns:minmax(0,1fr) 12px}
.doc{padding:8px 8px 30vh 8px}
.band{padding-left:18px}
#side{border-left:0;border-top:2px solid #d5d9e0;scroll-padding-top:0}
ol.scroll{max-height:none}
#info{position:fixed;top:auto;left:0;right:0;bottom:36vh;z-index:20;max-height:25vh;overflow:auto;min-height:0;border-bottom:1px solid #d5d9e0;border-top:2px solid #1d2330;box-shadow:0 -4px 14px rgba(0,0,0,.18);padding:4px 12px 6px}
#info h2{font-size:13px;margin:0 0 2px}
#info .hint{font-size:12px}
#info dl{font-size:12px}
.nav button{min-width:38px;height:30px}
}
`;
