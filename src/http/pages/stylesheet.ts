import { createHash } from "node:crypto";

/**
 * The one stylesheet of every page, served as a file by http/routes/assets.ts so the CSP
 * needs no `'unsafe-inline'` for styles and the CSS never passes through the HTML escaper (which
 * would turn the font stack's quotes into `&quot;` and every page serif).
 *
 * Colours are chosen for WCAG 2.2 AA (docs/decisions.md): text ≥ 4.5:1, control borders and focus
 * rings ≥ 3:1 (1.4.11), targets at least 24×24 CSS px (2.5.8).
 */
const CSS = `
:root{--ink:#1d2d3e;--muted:#5f6b77;--bg:#f4f6f8;--card:#fff;--line:#dde3e8;--primary:#00679e;--primary-dark:#004f7a;
--danger:#b3261e;--border:#6b7785;--focus:#00679e;--radius:6px;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue","Noto Sans","Liberation Sans",Arial,sans-serif;
font-size:100%;line-height:1.5;color:var(--ink);background:var(--bg)}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column}
a{color:var(--primary)}
a:hover{color:var(--primary-dark)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip-link{position:absolute;left:.5rem;top:-4rem;background:var(--card);color:var(--primary);padding:.6rem 1rem;border-radius:var(--radius);z-index:10}
.skip-link:focus{top:.5rem}
.site-header{background:var(--ink);color:#fff}
.site-header .bar{max-width:60rem;margin:0 auto;padding:.5rem 1.25rem;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem}
.site-header a,.site-header button{color:#fff}
.site-header :focus-visible{outline-color:#9fd3f5}
.brand{font-weight:700;font-size:1.15rem;text-decoration:none;padding:.35rem 0;min-height:2.75rem;display:inline-flex;align-items:center;gap:.5rem}
.brand::before{content:"";width:1.1rem;height:1.1rem;border-radius:50%;background:conic-gradient(#9fd3f5 0 50%,#fff 0)}
.main-nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}
.main-nav a{display:inline-flex;align-items:center;min-height:2.75rem;padding:0 .6rem;border-radius:var(--radius);text-decoration:none}
.main-nav a:hover{background:#2b3f54}
.main-nav a[aria-current=page]{background:#2b3f54;box-shadow:inset 0 -3px 0 #9fd3f5}
.admin-nav{margin:0 0 1rem}
.admin-nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:1px solid var(--border)}
.admin-nav a{display:inline-flex;align-items:center;min-height:2.75rem;padding:0 .8rem;text-decoration:none;border-radius:var(--radius) var(--radius) 0 0}
.admin-nav a:hover{background:#e8f1f8}
.admin-nav a[aria-current=page]{font-weight:700;box-shadow:inset 0 -3px 0 var(--primary)}
.account{margin-left:auto;display:flex;align-items:center;gap:.75rem;flex-wrap:wrap}
.account form{margin:0}
.account .who{font-size:.9rem}
.site-header button.logout{background:transparent;border:1px solid #fff;color:#fff;min-height:2.25rem;padding:.25rem .9rem}
.site-header button.logout:hover{background:#2b3f54}
main{flex:1;width:100%;max-width:60rem;margin:0 auto;padding:1.5rem 1.25rem}
.card{background:var(--card);border-radius:10px;box-shadow:0 1px 3px #0002,0 4px 16px #0000000d;padding:1.5rem 2rem;margin:0 auto}
.card.narrow{max-width:28rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.2rem;margin:2rem 0 .75rem;padding-bottom:.35rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:1.5rem 0 .5rem}
section:first-of-type h2{margin-top:.5rem}
p{margin:.6rem 0}
label{display:block;margin:.9rem 0 .3rem;font-weight:600}
label.check{display:flex;align-items:center;gap:.6rem;font-weight:400;margin:.5rem 0}
input[type=text],input[type=password],input[type=email],input[type=url],input[type=search],input[type=number],input[type=date],select{width:100%;min-height:2.75rem;padding:.5rem .75rem;
font:inherit;color:var(--ink);background:#fff;border:1px solid var(--border);border-radius:var(--radius)}
input[type=file]{font:inherit;max-width:100%}
input[type=file]::file-selector-button{font:inherit;min-height:2.5rem;margin-right:.75rem;padding:.4rem 1rem;border:1px solid var(--primary);border-radius:var(--radius);background:#fff;color:var(--primary);cursor:pointer}
input[type=checkbox]{width:1.5rem;height:1.5rem;margin:0;accent-color:var(--primary);flex:none}
button,.button{font:inherit;font-weight:600;display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.5rem 1.25rem;
border:1px solid var(--primary);border-radius:var(--radius);background:var(--primary);color:#fff;cursor:pointer;text-decoration:none}
button:hover,.button:hover{background:var(--primary-dark);border-color:var(--primary-dark);color:#fff}
button.secondary,.button.secondary{background:#fff;color:var(--primary)}
button.secondary:hover,.button.secondary:hover{background:#e8f1f8;color:var(--primary-dark)}
button.danger{background:#fff;color:var(--danger);border-color:var(--danger)}
button.danger:hover{background:var(--danger);color:#fff}
button.small{min-height:2rem;padding:.2rem .75rem;font-size:.9rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.25rem 0 .5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.55rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;text-transform:uppercase;letter-spacing:.03em;color:var(--muted);hyphens:auto;overflow-wrap:break-word}
td.narrow{width:2.5rem}
td form{margin:0}
.wrap-anywhere,td code{overflow-wrap:anywhere;word-break:break-word}
td.email{overflow-wrap:break-word}
code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:.9em;background:var(--bg);padding:.1rem .3rem;border-radius:4px}
code.secret{word-break:break-all;display:inline-block}
details.secret summary{cursor:pointer;color:var(--primary);min-height:1.5rem}
details.confirm summary{cursor:pointer;color:var(--danger);font-weight:600;padding:.6rem 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:.5rem 0}
dl.facts dt{font-weight:600;color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
ul.scopes{padding-left:1.25rem}
ul.scopes li{margin:.3rem 0}
strong.user-code{font-family:ui-monospace,monospace;font-size:1.25rem;letter-spacing:.1em}
.error,.notice{padding:.75rem 1rem;border-radius:var(--radius);border-left:4px solid}
.error{background:#fde8e8;color:#8a1f1f;border-color:#b3261e}
.notice{background:#e6f4ea;color:#1e5631;border-color:#2e7d46}
.muted{color:var(--muted);font-size:.95rem}
fieldset.plain{border:0;margin:0;padding:0}
.audit-filters{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end}
.audit-filters>div{flex:1 1 10rem}
.audit-filters .actions{flex:0 0 auto;display:flex;gap:.5rem;align-items:center;margin:.9rem 0 0}
.audit-detail{font-size:.85rem;overflow-wrap:anywhere}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.site-footer{text-align:center;color:var(--muted);font-size:.85rem;padding:1rem}
.subnav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:0 0 1rem}
.subnav a{display:inline-flex;align-items:center;min-height:2.75rem}
ul.activity-filters{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .5rem;margin:0 0 1rem}
ul.activity-filters a{display:inline-flex;align-items:center;min-height:2.5rem;padding:0 .75rem;border-radius:999px;border:1px solid var(--line);text-decoration:none}
ul.activity-filters a[aria-current=page]{background:var(--primary);border-color:var(--primary);color:#fff}
ol.activity-stream{list-style:none;padding:0;margin:0}
ol.activity-stream li{display:flex;gap:.8rem;padding:.8rem 0;border-bottom:1px solid var(--line)}
ol.activity-stream img{width:24px;height:24px;margin-top:.1rem;flex:none}
.activity-time{color:var(--muted);font-size:.9rem}
.activity-message{color:#3a4855;font-size:.95rem;overflow-wrap:anywhere}
.activity-subject{overflow-wrap:anywhere}
.qr-code{margin:.75rem 0}
.qr-code svg{display:block;width:220px;height:220px;max-width:100%;background:#fff}
ol.recovery-codes{columns:2;font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace;padding-left:2rem}
.search-row{display:flex;flex-wrap:wrap;gap:.5rem}
.search-row input{flex:1 1 16rem;width:auto}
.pager ul{list-style:none;padding:0;margin:1rem 0;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem}
.pager a{display:inline-flex;align-items:center;min-height:2.75rem}
.host-setting{padding:.25rem 0 .75rem;border-bottom:1px solid var(--line)}
.host-setting h3{margin:1rem 0 .25rem}
.host-setting p{margin:.3rem 0}
.setting-form{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.5rem .75rem}
.setting-form .setting-field{flex:1 1 18rem}
.setting-form label{margin:.4rem 0 .3rem}
.setting-form .setting-buttons{display:flex;flex-wrap:wrap;gap:.5rem}
.setting-form p{flex-basis:100%}
.factor-list{list-style:none;padding:0;margin:0}
.factor-list li{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.2rem 0}
@media (max-width:40rem){
main{padding:1rem .75rem}
.card{padding:1.25rem 1rem;border-radius:8px}
.account{margin-left:0;width:100%;justify-content:space-between}
table.responsive thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.responsive tr{display:block;border:1px solid var(--line);border-radius:var(--radius);margin:0 0 .75rem;padding:.25rem .5rem}
table.responsive td{display:grid;grid-template-columns:minmax(6rem,35%) 1fr;gap:.5rem;border:0;padding:.35rem 0}
table.responsive td::before{content:attr(data-label);font-weight:600;color:var(--muted);font-size:.85rem}
table.responsive td:empty{display:none}
table.responsive td.actions-cell::before{content:none}
table.responsive td.actions-cell{display:block}
dl.facts.stack-narrow{grid-template-columns:1fr;gap:0}
dl.facts.stack-narrow dd{margin-bottom:.5rem}
}
`;

/** The stylesheet's bytes, and its URL: the content hash in the name busts caches on every change. */
export const STYLESHEET = CSS.trim();
const hash = createHash("sha256").update(STYLESHEET).digest("hex").slice(0, 16);
export const STYLESHEET_FILE = `keystream-${hash}.css`;
export const STYLESHEET_DIR = "/index.php/apps/keystream/css";
export const STYLESHEET_PATH = `${STYLESHEET_DIR}/${STYLESHEET_FILE}`;
