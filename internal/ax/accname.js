// rodagent's role and accessible-name computation, run in the page before
// the inventory (inventory.js calls cRole(el) and cName(el)). It follows the
// W3C specifications — HTML-AAM for the roles HTML gives elements, WAI-ARIA
// 1.2 for role attributes, accname 1.2 for names — with the choices Chromium
// makes where they leave room (the role strings of Chromium's AX tree, title
// before placeholder, block children set apart by spaces), so a stock
// Chromium reached by Connect gets the same roles and names as its own AX
// tree without --enable-blink-features=ComputedAccessibilityInfo and without
// building the AX tree at all. Where the browser does expose
// Element.computedRole, ACC.computed switches to Chromium's own values (the
// cross-check the tests use).
const ACC = {computed: false, internals: null};

// ACC.internals maps the custom elements that set a role, states or a name
// through ElementInternals (attachInternals(); internals.role = 'tab') to
// those values by attribute name ({role: 'tab', 'aria-selected': 'true'}),
// as the page-world record (listeners.js) told the inventory; null when
// none did. They are the element's defaults: its own attributes win.
function iattr(el, n) {
  const v = el.getAttribute(n);
  if (v !== null || !ACC.internals) return v;
  const i = ACC.internals.get(el);
  return i && i[n] !== undefined ? i[n] : null;
}

const ARIA_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox code ' +
  'columnheader combobox comment complementary contentinfo definition deletion dialog directory document emphasis ' +
  'feed figure form generic grid gridcell group heading img image insertion link list listbox listitem log main mark ' +
  'marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph ' +
  'presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator ' +
  'slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer ' +
  'toolbar tooltip tree treegrid treeitem').split(' '));
// Roles whose name comes from their content (accname 1.2 "name from content").
const FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem',
  'term', 'comment', 'sectionhead', 'DisclosureTriangle']);
// Roles that never give their content to a name (Chromium's
// SupportsNameFromContents: containers of many things).
const NO_CONTENT = new Set(('alert alertdialog application article banner blockquote comment complementary contentinfo ' +
  'dialog document feed figure form grid group image listbox log main marquee menu menubar meter navigation note ' +
  'progressbar radiogroup rowgroup scrollbar search searchbox sectionfooter sectionheader slider spinbutton status ' +
  'table tablist tabpanel textbox timer toolbar tree treegrid').split(' '));
// Tags Chromium always maps to generic.
const GENERIC_TAGS = new Set(['div', 'span', 'b', 'i', 'u', 'small', 'q', 'cite', 'kbd', 'samp', 'var', 'data', 'bdi',
  'bdo', 'wbr', 'pre', 'datalist', 'title', 'font', 'center', 'big', 'tt', 'nobr', 'label-x']);
const TAG_ROLE = {p: 'paragraph', blockquote: 'blockquote', code: 'code', em: 'emphasis', strong: 'strong', mark: 'mark',
  time: 'time', ins: 'insertion', del: 'deletion', s: 'deletion', sub: 'subscript', sup: 'superscript', dfn: 'term',
  dt: 'term', dd: 'definition', address: 'group', hgroup: 'group', search: 'search', dialog: 'dialog', article: 'article',
  nav: 'navigation', main: 'main', aside: 'complementary', ul: 'list', ol: 'list', menu: 'list', li: 'listitem',
  table: 'table', caption: 'caption', thead: 'rowgroup', tbody: 'rowgroup', tfoot: 'rowgroup', tr: 'row',
  fieldset: 'group', details: 'group', figure: 'figure', meter: 'meter', progress: 'progressbar', output: 'status',
  hr: 'separator', optgroup: 'group', option: 'option', textarea: 'textbox', button: 'button', form: 'form',
  h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading', img: 'image',
  math: 'math'};
// Roles that lose their meaning outside the container they require (Chromium
// maps them to generic there).
const NEEDS_PARENT = {listitem: ['list', 'directory'], };
const SECTIONING = 'article,aside,main,nav,section,[role=article],[role=complementary],[role=main],[role=navigation],[role=region]';

function focusableEl(el) {
  return el.hasAttribute('tabindex') || (el.localName === 'a' && el.hasAttribute('href')) ||
    ((el.localName === 'button' || el.localName === 'input' || el.localName === 'select' || el.localName === 'textarea') && !el.disabled);
}

// The parent a role's context is judged by: across shadow boundaries, past
// elements that are only wrappers.
function ctxParent(el) {
  for (let p = el.parentElement || (el.parentNode && el.parentNode.host); p; p = p.parentElement || (p.parentNode && p.parentNode.host)) {
    const r = p.getAttribute('role');
    if (r === 'none' || r === 'presentation' || (!r && GENERIC_TAGS.has(p.localName))) continue;
    return p;
  }
  return null;
}

// ariaRole is the first role token Chromium knows, '' when none is usable.
function ariaRole(el) {
  return roleFrom(el, el.getAttribute('role'));
}

function roleFrom(el, attr) {
  if (attr === null) return '';
  for (const t of attr.trim().toLowerCase().split(/\s+/)) {
    if (!ARIA_ROLES.has(t)) continue;
    if (t === 'none' || t === 'presentation') {
      // presentational role conflict: focusable elements keep their own role
      if (focusableEl(el)) return '';
      return 'none';
    }
    if (t === 'img') return 'image';
    const need = NEEDS_PARENT[t];
    if (need) {
      const p = ctxParent(el);
      if (!p || !need.includes(cRoleOwn(p))) return 'generic';
    }
    return t;
  }
  return '';
}

function implicitRole(el) {
  const tag = el.localName;
  const r = TAG_ROLE[tag];
  if (r) {
    if (tag === 'img' && el.getAttribute('alt') === '' && !el.hasAttribute('title') && !focusableEl(el)) return 'image';
    return r;
  }
  switch (tag) {
    case 'header': case 'footer':
      return el.parentElement && el.parentElement.closest(SECTIONING) ? (tag === 'header' ? 'sectionheader' : 'sectionfooter') : (tag === 'header' ? 'banner' : 'contentinfo');
    case 'section': return hasOwnName(el) ? 'region' : 'generic';
    case 'a': return el.hasAttribute('href') ? 'link' : 'generic';
    case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'th': return thRole(el);
    case 'td': return el.closest('table') && cRoleOwn(el.closest('table')) === 'grid' ? 'gridcell' : 'cell';
    case 'svg': return el.hasAttribute('tabindex') || hasOwnName(el) || el.querySelector(':scope > title') ? 'image' : '';
    case 'input':
      switch (el.type) {
        case 'checkbox': return 'checkbox';
        case 'radio': return 'radio';
        case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
        case 'range': return 'slider';
        case 'number': return 'spinbutton';
        case 'date': case 'month': case 'week': case 'datetime-local': case 'time': case 'color': return '';
        case 'hidden': return 'textbox';
        case 'search': return el.list ? 'combobox' : 'searchbox';
        default: return el.list ? 'combobox' : 'textbox';
      }
  }
  if (GENERIC_TAGS.has(tag) || tag.includes('-')) return 'generic';
  return '';
}

function thRole(el) {
  const scope = (el.getAttribute('scope') || '').toLowerCase();
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  const row = el.parentElement;
  if (row && row.parentElement && row.parentElement.localName === 'thead') return 'columnheader';
  // a header cell among data cells of its row heads that row
  if (row && row.cells) for (const c of row.cells) if (c.localName === 'td') return 'rowheader';
  return 'columnheader';
}

function hasOwnName(el) {
  const l = iattr(el, 'aria-label');
  if (l && l.trim()) return true;
  const ids = el.getAttribute('aria-labelledby');
  if (ids && ids.trim()) for (const id of ids.trim().split(/\s+/)) if (byId(el, id)) return true;
  const t = el.getAttribute('title');
  return !!(t && t.trim());
}

function byId(el, id) {
  const root = el.getRootNode();
  return (root.getElementById ? root.getElementById(id) : null) || (root !== document ? document.getElementById(id) : null);
}

let roleCache = new WeakMap();
// reset forgets the roles of the last read: attributes and context change.
ACC.reset = () => { roleCache = new WeakMap(); pseudoCache = new Map(); transformCache = new Map(); };
function cRoleOwn(el) {
  let r = roleCache.get(el);
  if (r !== undefined) return r;
  r = ariaRole(el);
  if (!r && ACC.internals && ACC.internals.has(el)) r = roleFrom(el, ACC.internals.get(el).role || null);
  if (r === 'none') r = 'none';
  else if (!r) r = implicitRole(el);
  roleCache.set(el, r);
  return r;
}

// cRole is the role of el as Chromium's AX tree names it ('' where the tree
// uses an internal role the inventory fills in itself).
function cRole(el) {
  if (ACC.computed) return el.computedRole;
  // roles depend on attributes and context; the cache lives for one read
  return cRoleOwn(el);
}

// hiddenNode: not rendered, or removed from the accessibility tree by
// aria-hidden (display:none, visibility:hidden, hidden).
function hiddenNode(el) {
  if (el.getAttribute('aria-hidden') === 'true') return true;
  const cs = getComputedStyle(el);
  return cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse' || cs.contentVisibility === 'hidden';
}

const INLINE = new Set(['inline', 'contents']);

// pseudoRules reports whether any style sheet of el's root may give
// elements generated content: most pages have none, and asking every element
// for its ::before and ::after styles is most of a name's cost. A sheet that
// cannot be read (cross-origin) counts as may. Cached for one read.
let pseudoCache = new Map();
function pseudoRules(root) {
  let v = pseudoCache.get(root);
  if (v !== undefined) return v;
  v = false;
  const sheets = [...(root.styleSheets || []), ...(root.adoptedStyleSheets || [])];
  for (const sh of sheets) {
    let rules;
    try { rules = sh.cssRules; } catch (e) { v = true; break; }
    if (hasPseudo(rules)) { v = true; break; }
  }
  pseudoCache.set(root, v);
  return v;
}

// mayTransform reports whether a style may set el's text-transform: a
// rule of a style sheet, or a style attribute, of its root or of a root it
// inherits from (a shadow tree's host's). Most pages set none, and a style
// read per named element cost a cold walk of a 6,000-control page about 5%.
// A sheet that cannot be read counts as may. Cached for one read.
let transformCache = new Map();
function mayTransform(el) {
  for (let root = el.getRootNode(); root; root = root.host ? root.host.getRootNode() : null) {
    let v = transformCache.get(root);
    if (v === undefined) {
      v = !!(root.querySelector && root.querySelector('[style*="text-transform" i]')) || sheetsMaySet(root, 'text-transform');
      transformCache.set(root, v);
    }
    if (v) return true;
  }
  return false;
}

// sheetsMaySet reports whether a style sheet of root (a document or a
// shadow root) may set the CSS property prop: a rule of its own, of an
// @import, or nested. A sheet that cannot be read (cross-origin) or nests
// too deep counts as may. (The inventory asks it of touch-action too.)
function sheetsMaySet(root, prop) {
  for (const sh of [...(root.styleSheets || []), ...(root.adoptedStyleSheets || [])]) {
    let rules;
    try { rules = sh.cssRules; } catch (e) { return true; }
    if (rules && rulesSet(rules, prop, 0)) return true;
  }
  return false;
}

function rulesSet(rules, prop, depth) {
  if (depth > 8) return true;
  for (const r of rules) {
    if (r.style && r.style.getPropertyValue(prop)) return true;
    if (r.styleSheet) { // @import
      let inner;
      try { inner = r.styleSheet.cssRules; } catch (e) { return true; }
      if (inner && rulesSet(inner, prop, depth + 1)) return true;
    }
    if (r.cssRules && r.cssRules.length && rulesSet(r.cssRules, prop, depth + 1)) return true;
  }
  return false;
}

function hasPseudo(rules) {
  for (const r of rules || []) {
    if (r.selectorText !== undefined ? /:(before|after|marker)/.test(r.selectorText) : hasPseudo(r.cssRules)) return true;
  }
  return false;
}

function pseudo(el, which) {
  const root = el.getRootNode();
  if (!pseudoRules(root) && (root === document || !pseudoRules(document))) {
    if (el.localName !== 'q') return '';
    return which === '::before' ? '\u201c' : '\u201d';
  }
  const ps = getComputedStyle(el, which);
  let c = ps.content;
  if (!c || c === 'none' || c === 'normal') return '';
  // generated content laid out as a block (display, or position, makes it
  // one) is set apart from the text around it, as Chromium's name has it
  const sep = INLINE.has(ps.display) ? '' : ' ';
  c = c.replace(/url\((?:"[^"]*"|'[^']*'|[^)]*)\)/g, '').replace(/\bopen-quote\b/g, '"\u201c"').replace(/\bclose-quote\b/g, '"\u201d"');
  let out = '';
  // content: "text" | url(...) | counter(...) | attr(x) — only strings and attr() count
  const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)/g;
  let m;
  while ((m = re.exec(c))) {
    if (m[3]) out += el.getAttribute(m[3]) || '';
    else out += (m[1] !== undefined ? m[1] : m[2]).replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/\\(.)/g, '$1');
  }
  // a content string with an alternative text ("x" / "alt") is named by the alt
  const slash = c.lastIndexOf('/');
  if (slash > 0 && /^\s*\/\s*"/.test(c.slice(slash))) {
    const alt = /\/\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(c);
    if (alt) return sep + alt[1] + sep;
  }
  return out && sep + out + sep;
}

function selectText(sel) {
  const o = sel.selectedOptions;
  return o && o.length ? Array.from(o).map(x => x.label || x.textContent).join(' ') : '';
}

// The value of a control embedded in another element's name (accname 2C).
function embeddedValue(el, role) {
  const tag = el.localName;
  if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return null;
  if (tag === 'select') return selectText(el);
  if (role === 'textbox' || role === 'searchbox') return tag === 'input' || tag === 'textarea' ? el.value : el.textContent;
  if (role === 'combobox') {
    if (tag === 'input') return el.value;
    const lb = el.querySelector('[role=option][aria-selected=true]');
    return lb ? lb.textContent : el.textContent;
  }
  if (role === 'listbox') {
    const sel = el.querySelectorAll('[role=option][aria-selected=true]');
    return Array.from(sel).map(o => o.textContent).join(' ');
  }
  if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar' || role === 'meter') {
    const vt = iattr(el, 'aria-valuetext');
    if (vt) return vt;
    const vn = iattr(el, 'aria-valuenow');
    if (vn) return vn;
    return tag === 'input' ? el.value : '';
  }
  return null;
}

// Names given by the host language (HTML-AAM), before content and title.
function nativeName(el, role, t) {
  const tag = el.localName;
  if (tag === 'input') {
    const type = el.type;
    if (type === 'button' || type === 'submit' || type === 'reset') {
      const v = el.getAttribute('value');
      if (v) return v;
      if (type === 'submit') return 'Submit';
      if (type === 'reset') return 'Reset';
      return '';
    }
    if (type === 'image') {
      const a = el.getAttribute('alt');
      if (a) return a;
      const v = el.getAttribute('value');
      if (v) return v;
      const ti = el.getAttribute('title');
      return ti ? ti : 'Submit';
    }
  }
  const custom = tag.includes('-');
  if ((tag === 'input' && el.type !== 'hidden') || tag === 'textarea' || tag === 'select' || tag === 'meter' ||
      tag === 'progress' || tag === 'output' || (tag === 'button') || custom) {
    const labels = custom ? customLabels(el) : el.labels;
    if (labels && labels.length) {
      const parts = [];
      for (const l of labels) {
        const n = content(l, {visited: t.visited, labelFor: el, root: el, inLabelledBy: t.inLabelledBy});
        if (n.trim()) parts.push(n.trim());
      }
      if (parts.length) return parts.join(' ');
    }
  }
  // an option group is named by its label; an option by its label, else its text
  if (tag === 'optgroup') return el.label;
  if (tag === 'option' && el.hasAttribute('label')) return el.label;
  if (tag === 'fieldset') {
    const lg = Array.from(el.children).find(c => c.localName === 'legend');
    if (lg) return content(lg, {visited: t.visited, root: el});
  }
  if (tag === 'table') {
    const cap = el.caption;
    if (cap) return content(cap, {visited: t.visited, root: el});
  }
  if (tag === 'img' || tag === 'area') {
    const a = el.getAttribute('alt');
    if (a) return a;
  }
  if (tag === 'svg') {
    const ti = Array.from(el.children).find(c => c.localName === 'title');
    if (ti) return ti.textContent;
  }
  return '';
}

// customLabels are the <label>s of a form-associated custom element (it is
// labelable, as an input is): the one around it and those pointing at its
// id. Its own labels list is on its ElementInternals, out of this world's
// reach; label.control says the same from any world.
function customLabels(el) {
  const out = [];
  const around = el.parentElement && el.parentElement.closest('label');
  if (around && around.control === el) out.push(around);
  if (el.id) {
    const root = el.getRootNode();
    if (root.querySelectorAll) {
      for (const l of root.querySelectorAll('label[for="' + CSS.escape(el.id) + '"]')) if (l !== around && l.control === el) out.push(l);
    }
  }
  return out;
}

// textOf computes the text alternative of a node (accname 1.2 §4.3.2). t
// carries the traversal: the root, the nodes visited, whether we are inside
// an aria-labelledby reference, and the control a label names.
function textOf(node, t) {
  if (node.nodeType === 3) return rendered(node.data, node.parentElement);
  if (node.nodeType !== 1) return '';
  const el = node;
  if (t.visited.has(el)) return '';
  t.visited.add(el);
  const isRoot = !t.root;
  if (isRoot) t.root = el;
  // 2A: hidden nodes count only when a labelledby points straight at them
  if (!isRoot && !t.hiddenOK && hiddenNode(el)) return '';
  if (el === t.labelFor) return ''; // a label's own control is not part of the label's text
  const role = cRoleOwn(el);
  // 2B: aria-labelledby, not followed from inside another labelledby
  if (!t.inLabelledBy) {
    const ids = el.getAttribute('aria-labelledby');
    if (ids && ids.trim()) {
      const parts = [];
      for (const id of ids.trim().split(/\s+/)) {
        const ref = byId(el, id);
        if (!ref) continue;
        const hidden = hiddenNode(ref);
        const s = ref === el ? selfName(el, role, t) : textOf(ref, {visited: new Set(), inLabelledBy: true, hiddenOK: hidden});
        if (s.trim()) parts.push(s.trim());
      }
      if (parts.length) return parts.join(' ');
    }
  }
  // 2C: a control inside a name being computed gives its value
  if (!isRoot) {
    const v = embeddedValue(el, role);
    if (v !== null && !(iattr(el, 'aria-label') || '').trim()) return v;
  }
  return ownName(el, role, t, isRoot);
}

// selfName is the element's part of its own aria-labelledby ("label-id
// self-id", as Headless UI's Listbox button has): it reads as any node
// inside the traversal, so its aria-label, else a control's value, else its
// content — not its <label>, which would repeat the label the list already
// names ("Assignee Assignee" where Chromium says "Assignee Select a person").
function selfName(el, role, t) {
  const label = iattr(el, 'aria-label');
  if (label && label.trim()) return label;
  const v = embeddedValue(el, role);
  if (v !== null) return v;
  return content(el, {visited: t.visited, root: el, inLabelledBy: true});
}

function ownName(el, role, t, isRoot) {
  // 2D: aria-label
  const label = iattr(el, 'aria-label');
  if (label && label.trim()) return label;
  // 2E: the host language
  const nat = nativeName(el, role, t);
  if (nat.trim()) return nat;
  // 2F: content, for roles named by it and everything inside another name
  // (rows are named by their cells only inside grids)
  // Inside another name, a container of many things (a tree item's
  // nested group, a menu item's submenu, a list box, a table) gives no
  // content, as Chromium has it: an expanded "Projects" is not named by its
  // files.
  const withheld = !isRoot && NO_CONTENT.has(role) && el.localName !== 'details';
  if (!withheld && (!isRoot || FROM_CONTENT.has(role) || t.inLabelledBy || el.localName === 'summary' ||
      (role === 'row' && gridOf(el)))) {
    if (!(el.localName === 'input' || el.localName === 'select' || el.localName === 'textarea' || el.localName === 'img')) {
      const s = content(el, t);
      if (s.trim()) return s;
    }
  }
  // 2I: tooltip, then placeholder
  const title = el.getAttribute('title');
  if (title && title.trim()) return title;
  if (el.localName === 'input' || el.localName === 'textarea') {
    const ph = el.getAttribute('placeholder');
    if (ph && ph.trim()) return ph;
  }
  const aph = el.getAttribute('aria-placeholder');
  if (aph && aph.trim()) return aph;
  return '';
}

function gridOf(row) {
  for (let p = ctxParent(row); p; p = ctxParent(p)) {
    const r = cRoleOwn(p);
    if (r === 'grid' || r === 'treegrid') return true;
    if (r === 'table') return false;
  }
  return false;
}

function content(el, t) {
  let out = pseudo(el, '::before');
  const kids = el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes;
  for (const c of (el.localName === 'slot' ? el.assignedNodes({flatten: true}) : kids)) {
    if (c.nodeType === 3) { out += rendered(c.data, c.parentElement); continue; }
    if (c.nodeType !== 1) continue;
    if (c.localName === 'br') { out += ' '; continue; }
    if (c.localName === 'script' || c.localName === 'style' || c.localName === 'template' || c.localName === 'noscript') continue;
    const s = textOf(c, t);
    if (!s) continue;
    const block = !INLINE.has(getComputedStyle(c).display);
    out += block ? ' ' + s + ' ' : s;
  }
  if (el.localName === 'br') out += ' ';
  out += pseudo(el, '::after');
  return out;
}

// Tags the host language names (nativeName) or that take no content name.
const NATIVE_NAMED = new Set(['input', 'textarea', 'select', 'meter', 'progress', 'output', 'optgroup', 'option',
  'fieldset', 'table', 'img', 'area', 'svg', 'slot', 'br', 'q']);

// ownTextName is the name of an element named by its content when that
// content is its own text alone (<a href=…>Order 7</a>, <button>Save</button>,
// most controls of a large page): what textOf would find, without the
// traversal. null when the full computation is needed.
function ownTextName(el) {
  if (el.firstElementChild || el.shadowRoot || NATIVE_NAMED.has(el.localName) || el.hasAttribute('aria-labelledby')) return null;
  if (!FROM_CONTENT.has(cRoleOwn(el))) return null;
  if (el.localName === 'button' && el.labels.length) return null;
  const root = el.getRootNode();
  if (pseudoRules(root) || (root !== document && pseudoRules(document))) return null;
  const s = el.textContent;
  return s.trim() ? rendered(s, el) : null; // empty: the title or placeholder may name it
}

// rendered is text s of el as it is drawn, its text-transform applied:
// Chromium names from content what the page shows (Vuetify's and MUI's
// buttons are upper case by style, "OPTIONS" for the text "Options").
function rendered(s, el) {
  if (!el || s.toUpperCase() === s.toLowerCase() || !mayTransform(el)) return s; // no letter that has a case
  switch (getComputedStyle(el).textTransform) {
    case 'uppercase': return s.toUpperCase();
    case 'lowercase': return s.toLowerCase();
    case 'capitalize': return s.replace(/(^|\s)([^\p{L}\p{N}\s]*)(\p{L})/gu, (m, a, b, c) => a + b + c.toUpperCase());
  }
  return s;
}

// cName is el's accessible name, whitespace folded.
function cName(el) {
  if (ACC.computed) return el.computedName;
  // aria-label names the element unless aria-labelledby does (2B, then
  // 2D): the common case needs no traversal.
  const label = iattr(el, 'aria-label');
  let s;
  if (label && label.trim()) {
    const by = el.getAttribute('aria-labelledby');
    s = by && by.trim() ? textOf(el, {visited: new Set()}) : label;
  } else {
    s = ownTextName(el);
    if (s === null) s = textOf(el, {visited: new Set()});
  }
  s = s.replace(/[\s\u00a0]+/g, ' ').trim();
  if (el.localName === 'input' && el.type === 'file') {
    // as Chromium words it: the label, then what the button shows
    const n = el.files ? el.files.length : 0;
    s = (s || 'Choose File') + ': ' + (n === 0 ? 'No file chosen' : n === 1 ? el.files[0].name : n + ' files');
  }
  return s;
}
