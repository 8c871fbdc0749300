// The schema browser's one style sheet: system fonts, a comfortable reading width, tables that fit
// (scrolled sideways on narrow screens, their header kept in view), light and dark schemes, a visible
// focus, the deep-linked column highlighted, and plain printing. It also carries the inlined
// pictures' rules, which the pages' security policy keeps out of the pictures themselves.

import { PALETTE, facilityColourRules, styleSheet } from '../pictures/svg.ts';

const LIGHT = {
  bg: '#ffffff',
  surface: '#f5f7fa',
  text: '#1d232b',
  muted: '#5b6573',
  border: '#d8dee6',
  link: '#1f5fbf',
  accent: '#1f5fbf',
  badgeBg: '#e3ecfa',
  badgeText: '#163f7a',
  target: '#fff4c2',
  focus: '#1f5fbf',
  head: '#eef2f7',
};

const DARK: typeof LIGHT = {
  bg: '#14171c',
  surface: '#1b1f26',
  text: '#e4e7ec',
  muted: '#9aa4b2',
  border: '#333a45',
  link: '#8ab4f8',
  accent: '#8ab4f8',
  badgeBg: '#22344f',
  badgeText: '#cfe0fb',
  target: '#3d3410',
  focus: '#8ab4f8',
  head: '#1f252e',
};

function variables(c: typeof LIGHT, dark: boolean): string {
  const own = Object.entries(c)
    .map(([k, v]) => `--${k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}:${v};`)
    .join('');
  const pic =
    `--pic-text:${c.text};--pic-muted:${c.muted};--pic-grid:${dark ? '#3e4450' : '#c9ced6'};--pic-sphere:${c.surface};` +
    `--pic-outline:${dark ? '#8a919c' : '#7d8591'};--pic-background:transparent;` +
    PALETTE.map((p, i) => `--pic-f${i}:${dark ? p.dark : p.light};`).join('');
  return `color-scheme:${dark ? 'dark' : 'light'};${own}${pic}`;
}

const RULES = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
a{color:var(--link);text-underline-offset:.15em}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem}
header.site{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem max(1rem,calc((100% - 72rem)/2));border-bottom:1px solid var(--border);background:var(--surface)}
.site-name{font-weight:700;font-size:1.1rem;color:var(--text);text-decoration:none}
.search{display:flex;align-items:center;gap:.5rem;margin-left:auto;flex:1 1 16rem;max-width:26rem}
.search label{font-size:.875rem;color:var(--muted);white-space:nowrap}
.search input{flex:1;min-width:0;font:inherit;padding:.35rem .6rem;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--text)}
.search-panel{margin:0 max(1rem,calc((100% - 72rem)/2));padding:.75rem 1rem;border:1px solid var(--border);border-top:0;border-radius:0 0 8px 8px;background:var(--bg);box-shadow:0 6px 18px rgba(0,0,0,.12);max-height:70vh;overflow-y:auto}
.search-filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;font-size:.875rem;color:var(--muted)}
.search-filters select{font:inherit;color:var(--text);background:var(--bg);border:1px solid var(--border);border-radius:4px;padding:.15rem .3rem;margin-left:.25rem;max-width:14rem}
.search-status{font-size:.875rem;color:var(--muted);margin:.5rem 0}
.search-results{list-style:none;margin:0;padding:0}
.search-results li+li{border-top:1px solid var(--border)}
.search-results a{display:block;padding:.45rem .35rem;color:var(--text);text-decoration:none;overflow-wrap:anywhere}
.search-results a:hover,.search-results a:focus-visible{background:var(--surface)}
.search-results .name{font-weight:600;color:var(--link)}
.search-results .type{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.search-results .where,.search-results .facts,.search-results .description{display:block;font-size:.85rem;color:var(--muted)}
.search-results .facts{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8rem}
.search-results .description{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.search-help{font-size:.8rem;color:var(--muted);margin:.5rem 0 0}
button.copy-link{font:inherit;font-size:.75rem;padding:.05rem .4rem;margin-left:.25rem;border:1px solid var(--border);border-radius:4px;background:var(--surface);color:var(--muted);cursor:pointer}
button.copy-link:hover{color:var(--text)}
input.copy-field{display:block;width:100%;margin-top:.3rem;font:inherit;font-size:.75rem;padding:.15rem .3rem;border:1px solid var(--border);border-radius:4px;background:var(--bg);color:var(--text)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
nav.crumbs{padding:.6rem max(1rem,calc((100% - 72rem)/2)) 0;font-size:.9rem;color:var(--muted)}
nav.crumbs ol{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap}
nav.crumbs li+li::before{content:"/";padding:0 .45rem;color:var(--muted)}
main{padding:.5rem max(1rem,calc((100% - 72rem)/2)) 3rem}
h1{font-size:1.75rem;line-height:1.25;margin:.75rem 0 .5rem;overflow-wrap:anywhere}
h2{font-size:1.3rem;margin:2rem 0 .6rem}
h3{font-size:1.05rem;margin:0 0 .4rem}
.lead,.prose,.title{max-width:46rem}
.lead{font-size:1.05rem}
.title{color:var(--muted);margin:.25rem 0 .5rem}
.muted{color:var(--muted)}
.note{font-size:.9rem;color:var(--muted)}
.prose p{margin:.5rem 0}
.prose pre,.desc pre{overflow-x:auto;background:var(--surface);padding:.5rem;border-radius:4px}
blockquote{margin:.5rem 0;padding-left:1rem;border-left:3px solid var(--border)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:1rem 0;font-size:.95rem}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.badge,.tag{display:inline-block;font-size:.72rem;font-weight:600;line-height:1.4;padding:0 .4rem;border-radius:999px;vertical-align:.1em;letter-spacing:.02em}
.badge{background:var(--badge-bg);color:var(--badge-text);border:1px solid var(--accent)}
.tag{border:1px solid var(--border);color:var(--muted)}
.scroll{overflow-x:auto;margin:1rem 0;border:1px solid var(--border);border-radius:6px}
.scroll:has(>table:is(.columns,.products,.files)){overflow:visible}
table.files td.sum code{word-break:break-all;font-size:.8rem}
table{border-collapse:collapse;width:100%;font-size:.92rem}
caption{text-align:left;padding:.5rem .75rem;font-weight:600;color:var(--muted);font-size:.85rem}
th,td{padding:.45rem .75rem;text-align:left;vertical-align:top;border-top:1px solid var(--border)}
thead th{position:sticky;top:0;z-index:1;background:var(--head);border-top:0;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);white-space:nowrap}
tbody th{font-weight:400}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.columns th,table.columns td{padding:.25rem .6rem;line-height:1.35}
table.columns td.desc p{margin:0}
table.columns th[scope=row]{white-space:nowrap}
table.columns td.desc{min-width:14rem;max-width:30rem}
table.columns td.unit{white-space:nowrap}
table.columns td.num{color:var(--muted)}
tr.main th[scope=row] .name{font-weight:700}
code.name{font-size:.95em}
.pretty{font-size:.85rem;color:var(--muted);white-space:normal}
.permalink{margin-left:.35rem;color:var(--muted);text-decoration:underline dotted;font-weight:400;opacity:.35}
tr:hover .permalink,article:hover .permalink,.permalink:focus-visible{opacity:1}
@media (hover:none){.permalink{opacity:1}}
tr:target{background:var(--target);scroll-margin-top:3.5rem}
tr:target th[scope=row]{box-shadow:inset 4px 0 0 var(--accent)}
article:target{outline:3px solid var(--accent)}
code.ucd{overflow-wrap:anywhere;white-space:normal}
dl.ucd-words{margin:.3rem 0 0;font-size:.78rem;color:var(--muted);line-height:1.35}
dl.ucd-words dt{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;display:inline}
dl.ucd-words dt::after{content:": "}
dl.ucd-words dd{display:inline;margin:0}
dl.ucd-words dd::after{content:"";display:block}
td.ucd-cell{min-width:9rem;max-width:26rem}
table.columns dl.ucd-words{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
table.columns tr:target dl.ucd-words{position:static;width:auto;height:auto;overflow:visible;clip-path:none;white-space:normal}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,22rem),1fr));gap:1rem;margin:1rem 0}
.card{border:1px solid var(--border);border-radius:8px;padding:1rem;background:var(--bg);min-width:0}
.card.survey h2{margin:0 0 .25rem;font-size:1.25rem}
.card .scroll{max-height:24rem}
table.fits{font-size:.82rem}
table.fits td:nth-child(2){white-space:nowrap}
details summary{cursor:pointer;color:var(--link);margin-top:.5rem}
ul.releases,ul.nodes{padding-left:1.1rem}
ul.nodes li{margin:.4rem 0}
ol.extensions{margin:.2rem 0 0;padding-left:1.2rem;columns:2 18rem;column-gap:2rem}
table.products tr:not(.detail) th,table.products tr:not(.detail) td{border-bottom:0}
table.products tr.detail td{padding-top:0;font-size:.92rem}
table.products td{overflow-wrap:anywhere}
table.products tr:target+tr.detail{background:var(--target)}
figure.picture{margin:1.5rem 0}
.picture-scroll{overflow-x:auto}
figure.picture svg{display:block;width:100%;min-width:36rem;height:auto;max-height:70vh}
.scroll-hint{display:none}
ul.facility-list{display:flex;flex-wrap:wrap;gap:.2rem 1.25rem;list-style:none;padding:0;margin:.25rem 0 0;font-size:.9rem}
figcaption{font-size:.85rem;color:var(--muted);margin-top:.35rem}
.api-ref section.path{border-top:1px solid var(--border);margin-top:1.5rem}
.api-ref h2{border-bottom:2px solid var(--border)}
.api-ref h3{margin-top:2rem}
.api-ref h3 code{font-size:1.05rem}
.api-ref :is(h3,h4,h5) code{overflow-wrap:anywhere}
.api-ref article.op{background:var(--surface);border:1px solid var(--border);border-radius:6px;padding:.25rem 1rem .75rem;margin:1rem 0;min-width:0}
.api-ref pre{background:var(--surface);padding:.5rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.api-ref table{margin:.5rem 0}
.api-ref th,.api-ref td{border:1px solid var(--border);padding:.25rem .5rem;overflow-wrap:anywhere}
.api-ref thead th{position:static;background:var(--head);white-space:normal;text-transform:none;letter-spacing:0;font-size:.85rem}
.api-ref td p{margin:.15rem 0}
.api-ref p.body{font-weight:700;margin-bottom:0}
.api-ref ul.headers{margin-top:0}
.api-ref nav ul{columns:2 16rem}
.api-ref .status{font-weight:700}
.api-ref :is(a:target,section:target>h3,article:target>h4,div:target>h5){background:var(--target)}
.method{display:inline-block;min-width:4.5rem;text-align:center;font-weight:700;border-radius:3px;padding:0 .25rem;color:#fff;background:#4a5568}
.method.get{background:#1f5fbf}.method.options{background:#6b46c1}.method:is(.post,.put,.patch,.delete,.trace){background:#5c6470}
footer.site{border-top:1px solid var(--border);background:var(--surface);padding:1rem max(1rem,calc((100% - 72rem)/2));font-size:.9rem}
footer.site ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.35rem 1.25rem}
@media (max-width:48rem){
table:is(.columns,.products,.files) thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table:is(.columns,.products,.files) tr{display:block;border-top:1px solid var(--border);padding:.5rem .75rem}
table:is(.columns,.products,.files) :is(th[scope=row],td){display:block;border:0;padding:.1rem 0;max-width:none;min-width:0;text-align:left;white-space:normal}
table:is(.columns,.products,.files) th[scope=row]{font-size:1rem}
table:is(.columns,.products,.files) td[data-label]::before{content:attr(data-label);display:inline-block;min-width:6.5rem;color:var(--muted);font-size:.75rem;text-transform:uppercase;letter-spacing:.04em}
table.columns td.desc::before{content:none}
table.columns td.ucd-cell::before{display:block}
table.columns dl.ucd-words{position:static;width:auto;height:auto;overflow:visible;clip-path:none;white-space:normal}
table.products tr.detail{border-top:0;padding-top:0}
}
@media (max-width:38rem){.scroll-hint{display:inline}}
@media (max-width:40rem){
body{font-size:15px}
h1{font-size:1.45rem}
.search{margin-left:0;max-width:none;flex-basis:100%}
th,td{padding:.4rem .55rem}
dl.facts{gap:.15rem .75rem}
}
@media print{
header.site .search,.search-panel,.skip,.permalink,button.copy-link{display:none}
body{background:#fff;color:#000;font-size:11pt}
a{color:#000}
.scroll{overflow:visible;max-height:none;border:0}
thead th{position:static}
tr{break-inside:avoid}
details>*{display:block}
}
`;

/** The browser's style sheet, as the text of `browse/style.css`. */
export function stylesheet(): string {
  const pictures = styleSheet().replace(/^<style>|<\/style>$/g, '');
  return (
    `:root{${variables(LIGHT, false)}}\n` +
    `@media (prefers-color-scheme:dark){:root{${variables(DARK, true)}}}\n` +
    RULES.trimStart() +
    `/* Pictures */\n${pictures}\n` +
    `/* A facility's colour on its own pages */\n${facilityColourRules()}\n`
  );
}
