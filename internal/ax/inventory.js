// rodagent's in-page inventory. It runs in an isolated world of each frame
// (the page cannot see or tamper with it) and reads Chromium's own computed
// roles and names through Element.computedRole / computedName, which the
// browser exposes with --enable-blink-features=ComputedAccessibilityInfo.
// One call walks the DOM (open shadow roots included) and returns every
// interactive element with its state and box, plus the landmarks, headings
// and frames around them; later calls report only what changed since, from
// a MutationObserver and input/focus listeners installed by the first walk.
(() => {
  const G = globalThis;
  if (G.__rodagent && G.__rodagent.v === 2) return G.__rodagent;

  const IROLE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox',
    'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'slider', 'spinbutton', 'switch', 'treeitem']);
  const FOCUS_ROLE = new Set(['gridcell', 'row', 'cell', 'columnheader', 'rowheader']);
  const LANDMARK = new Set(['banner', 'navigation', 'main', 'complementary', 'contentinfo', 'search', 'form',
    'region', 'dialog', 'alertdialog']);
  const CONTEXT = new Set(['row', 'listitem', 'group', 'article', 'dialog', 'alertdialog', 'region', 'form',
    'tabpanel', 'menu', 'listbox', 'table', 'grid', 'list', 'treeitem', 'radiogroup', 'toolbar', 'figure',
    'section', 'complementary', 'navigation', 'banner', 'contentinfo', 'search']);
  const STRUCT_TAGS = new Set(['header', 'nav', 'main', 'aside', 'footer', 'form', 'section', 'dialog', 'search',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'ul', 'ol', 'li', 'tr', 'fieldset', 'article', 'menu', 'figure',
    'details']);
  // Roles Chromium gives these tags whatever their context, so the walk can
  // skip asking for them; landmarks (header, footer, section, form, aside)
  // depend on context and name, and are asked.
  const IMPLICIT = {tr: 'row', table: 'table', ul: 'list', ol: 'list', li: 'listitem', fieldset: 'group',
    article: 'article', menu: 'list', figure: 'figure', details: 'group', nav: 'navigation', main: 'main',
    dialog: 'dialog', search: 'search', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading'};
  const NAMED_FROM_CONTENT = new Set(['row', 'listitem']);
  const GENERATED_ID = /[:«»]|^(radix-|mui-|headlessui-|react-aria|rc[-_]|ember\d|__)|[-_][0-9a-f]{6,}$|^[0-9]/;
  const TEXTY = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);

  const S = {v: 2, els: [], index: new Map(), dirty: new Set(), added: [], removed: [], mo: null,
    sx: 0, sy: 0, vw: 0, vh: 0, deltas: 0, sig: [], role: []};
  G.__rodagent = S;

  // Roles and names: Chromium's own computed values ("fast" owns a fallback
  // for browsers that do not expose them).
  const cRole = el => el.computedRole;
  const cName = el => el.computedName;

  const q = s => JSON.stringify(s);
  // Rows travel as text — fields split by tabs, rows by newlines — which both
  // sides handle far faster than JSON arrays; strings escape \\, \n and \t.
  const esc = s => /[\\\n\t]/.test(s) ? s.replace(/[\\\n\t]/g, c => c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\t') : s;
  const encode = rows => rows.map(r => r.map(f => typeof f === 'string' ? esc(f) : f).join('\t')).join('\n');
  const collapse = s => (s || '').replace(/\s+/g, ' ').trim();

  // The role HTML gives a control that has no role attribute (HTML-AAM, as
  // Chromium maps it): no need to ask the browser for thousands of these.
  function nativeRole(el) {
    if (el.hasAttribute('role')) return '';
    switch (el.localName) {
      case 'button': return 'button';
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'textarea': return 'textbox';
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'input':
        if (el.hasAttribute('list')) return '';
        switch (el.type) {
          case 'checkbox': return 'checkbox';
          case 'radio': return 'radio';
          case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
          case 'text': case 'email': case 'tel': case 'url': case 'password': return 'textbox';
          case 'search': return 'searchbox';
          case 'number': return 'spinbutton';
          case 'range': return 'slider';
        }
    }
    return '';
  }

  function roleOf(el) {
    const n = nativeRole(el);
    if (n) return n;
    const r = cRole(el);
    if (r) return r;
    switch (el.localName) {
      case 'summary': return 'DisclosureTriangle';
      case 'input':
        switch (el.type) {
          case 'date': case 'month': case 'week': return 'Date';
          case 'datetime-local': return 'DateTime';
          case 'time': return 'InputTime';
          case 'color': return 'ColorWell';
        }
    }
    return r || '';
  }

  function nameOf(el, role) {
    let n = collapse(cName(el));
    if (el.localName === 'input' && el.type === 'file') {
      const i = n.lastIndexOf(': ');
      if (i > 0) n = n.slice(0, i); // Chromium's tree names a file input by its label alone
    }
    return n;
  }

  function hiddenFromAT(el) {
    return !el.checkVisibility({visibilityProperty: true}) || !!el.closest('[aria-hidden="true"],[inert]');
  }

  // What the AX path calls interactive, from the DOM side.
  function strongCandidate(el) {
    switch (el.localName) {
      case 'a': case 'area': if (el.hasAttribute('href')) return true; break;
      case 'button': case 'select': case 'textarea': case 'summary': return true;
      case 'input': return el.type !== 'hidden';
    }
    const r = el.getAttribute('role');
    if (r !== null) {
      const first = r.trim().split(/\s+/)[0];
      if (IROLE.has(first)) return true;
      if (FOCUS_ROLE.has(first) && el.tabIndex >= 0 && el.hasAttribute('tabindex')) return true;
    }
    return false;
  }

  function weakCandidate(el) {
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable) && !el.closest('[contenteditable="false"]')) return 'edit';
    if (el.hasAttribute('tabindex') && el.tabIndex >= 0) return 'focus';
    return '';
  }


  function deepActive() {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }

  function stableOf(el) {
    for (const a of ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy']) {
      const v = el.getAttribute(a);
      if (v) return '[' + a + '=' + v + ']';
    }
    const id = el.id;
    if (id && !GENERATED_ID.test(id)) return '#' + id;
    const n = el.getAttribute('name');
    return n ? '[name=' + n + ']' : '';
  }

  // state bits: 1 checked, 2 mixed, 4 disabled, 8 expanded, 16 selected, 32 focused, 64 unchecked,
  // 128 collapsed, 256 readonly, 512 required, 1024 editable, 2048 pressed, 4096 unpressed, 8192 invalid
  function stateOf(el, role, focused) {
    let st = 0;
    const tag = el.localName;
    if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
      st |= el.indeterminate && el.type === 'checkbox' ? 2 : (el.checked ? 1 : 64);
    } else {
      const ac = el.getAttribute('aria-checked');
      if (ac === 'true') st |= 1; else if (ac === 'mixed') st |= 2;
      else if (ac === 'false' || (ac === null && (role === 'checkbox' || role === 'radio' || role === 'switch' ||
        role === 'menuitemcheckbox' || role === 'menuitemradio'))) st |= 64;
    }
    if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') st |= 4;
    const ae = el.getAttribute('aria-expanded');
    if (ae === 'true' || (tag === 'summary' && el.parentElement && el.parentElement.open)) st |= 8;
    else if (ae === 'false' || (tag === 'summary') || (tag === 'select' && !el.multiple && el.size <= 1)) st |= 128;
    if (el.getAttribute('aria-selected') === 'true') st |= 16;
    if (el === focused) st |= 32;
    if (el.readOnly === true || el.getAttribute('aria-readonly') === 'true') st |= 256;
    if (el.required === true || el.getAttribute('aria-required') === 'true') st |= 512;
    if ((tag === 'input' && TEXTY.has(el.type)) || tag === 'textarea' || el.isContentEditable) st |= 1024;
    const ap = el.getAttribute('aria-pressed');
    if (ap === 'true') st |= 2048; else if (ap === 'false') st |= 4096; else if (ap === 'mixed') st |= 2;
    if (el.getAttribute('aria-invalid') === 'true') st |= 8192;
    return st;
  }

  function valueOf(el, role) {
    const tag = el.localName;
    let v = '';
    if (tag === 'select') {
      const o = el.selectedOptions && el.selectedOptions[0];
      v = o ? collapse(o.label) : '';
    } else if (tag === 'input') {
      switch (el.type) {
        case 'checkbox': case 'radio': case 'button': case 'submit': case 'reset': case 'image': case 'hidden': return '';
        case 'file': return el.files && el.files.length ? Array.from(el.files).map(f => f.name).join(', ') : 'No file chosen';
        case 'password': return '•'.repeat(el.value.length);
      }
      v = el.value;
    } else if (tag === 'textarea') {
      v = el.value;
    } else if (el.isContentEditable) {
      v = el.innerText;
    } else if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar') {
      v = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || '';
    } else if (role === 'combobox') {
      v = el.getAttribute('aria-valuetext') || shownText(el); // a button-like combobox shows its choice
    } else if (role === 'textbox' || role === 'searchbox') {
      v = el.getAttribute('aria-valuetext') || '';
    }
    return v.length > 200 ? v.slice(0, 200) : v;
  }

  const CONTROLS = 'button,a,input,select,textarea,[role=button],[role=link],[role=checkbox]';

  // The text that names an unnamed row or list item for a person: for a table
  // row, its first cell that is text rather than a control.
  function firstText(el) {
    if (el.localName === 'tr') {
      for (const c of el.cells) {
        if (c.querySelector(CONTROLS)) continue;
        const t = collapse(c.textContent);
        if (t) return t;
      }
      return '';
    }
    return firstTextWalk(el);
  }

  function firstTextWalk(el) {
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {acceptNode: t =>
      (t.parentElement && t.parentElement.closest('button,a,input,select,textarea,[role=button],[role=link]') &&
       el.contains(t.parentElement.closest('button,a,input,select,textarea,[role=button],[role=link]')))
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    for (let t = tw.nextNode(); t; t = tw.nextNode()) {
      const s = collapse(t.data);
      if (s) return s;
    }
    return '';
  }

  const clip = (s, n) => s.length > n ? s.slice(0, n) + '…' : s;

  // The text a person reads in el, as the AX tree counts it: no aria-hidden
  // parts, no zero-width characters.
  function shownText(el) {
    let out = '';
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {acceptNode: t =>
      t.parentElement && t.parentElement.closest('[aria-hidden="true"]') && el.contains(t.parentElement.closest('[aria-hidden="true"]'))
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    for (let t = tw.nextNode(); t && out.length < 400; t = tw.nextNode()) out += ' ' + t.data;
    return collapse(out.replace(/[\u200b-\u200d\ufeff]/g, ''));
  }

  function box(el, vw, vh) {
    const b = el.getBoundingClientRect();
    const inView = b.width > 0 && b.height > 0 && b.bottom > 0 && b.right > 0 && b.top < vh && b.left < vw ? 1 : 0;
    return [Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height), inView];
  }

  function keyOf(el) {
    let k = S.index.get(el);
    if (k === undefined) {
      k = S.els.length;
      S.els.push(el);
      S.index.set(el, k);
    }
    return k;
  }

  // Strings repeated on many rows (landmarks, tables) go out once, in a
  // table; rows carry their index (0 for none).
  let strs = [], sid = new Map();
  function intern(s) {
    if (!s) return 0;
    let i = sid.get(s);
    if (i === undefined) { strs.push(s); i = strs.length; sid.set(s, i); }
    return i;
  }

  // row of a ref: [0, depth, k, role, name, state, value, x, y, w, h, inView, stable, landmark#, context,
  //                 group#, row, up (key of the enclosing ref, -1 for none)]
  function refRow(el, role, name, depth, lm, ctx, focused, vw, vh, group, rowNo, up) {
    const b = box(el, vw, vh);
    const k = keyOf(el), st = stateOf(el, role, focused), v = valueOf(el, role);
    S.sig[k] = st + '|' + v;
    S.role[k] = role;
    return [0, depth, k, role, name, st, v, b[0], b[1], b[2], b[3], b[4], stableOf(el), intern(lm), ctx, intern(group), rowNo || 0, up === undefined ? -1 : up];
  }

  // Walk the document (and open shadow roots) in order. Rows: refs (0),
  // landmarks [1, depth, role, name, modal], headings [2, depth, level, name],
  // frames [3, depth, k, title].
  S.walk = function (opts) {
    opts = opts || {};
    if (!('computedRole' in Element.prototype)) return [q({unsupported: 'computedRole'}), '', []];
    const t0 = performance.now();
    const probe = document.body || document.documentElement;
    void cRole(probe);
    if (performance.now() - t0 > 3) return [q({cold: true}), '', []]; // no live AX context: every read would rebuild the tree
    strs = []; sid = new Map();
    const vw = innerWidth, vh = innerHeight, focused = deepActive();
    const rows = [], pick = [], pk = [], cand = [], shadows = [];
    let closed = false, heading = '';
    const ctxCache = new Map();
    // stack entries: [element, depth, landmark, context, inRef, group, rowCounter, row, up]
    // stack entries also carry the parent's cursor, so each element's style is
    // read once: a pointer cursor an element sets itself marks it clickable.
    const stack = [[document.documentElement, 0, '', '', false, '', null, 0, -1, '']];
    while (stack.length) {
      const [el, depth, lm, ctx, inRef, group, rows_, rowNo, up, parentCursor] = stack.pop();
      const tag = el.localName;
      if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript' || tag === 'head') continue;
      let childDepth = depth, childLm = lm, childCtx = ctx, childIn = inRef;
      let childGroup = group, childRows = rows_, childRow = rowNo, childUp = up;
      const hasRole = el.hasAttribute('role');
      if (tag === 'iframe' || tag === 'frame') {
        if (!hiddenFromAT(el)) {
          rows.push([3, depth, keyOf(el), collapse(el.getAttribute('title') || el.getAttribute('name') || '')]);
          pick.push(el); pk.push(keyOf(el));
        }
        continue;
      }
      if (STRUCT_TAGS.has(tag) || hasRole) {
        const role = (!hasRole && IMPLICIT[tag]) || cRole(el);
        if (role === 'heading') {
          if (!hiddenFromAT(el)) {
            const name = collapse(cName(el));
            const level = +(el.getAttribute('aria-level') || (/^h[1-6]$/.test(tag) ? tag[1] : 2));
            rows.push([2, depth, level, name]);
            heading = name;
          }
        } else if (LANDMARK.has(role)) {
          const name = collapse(cName(el));
          if ((role !== 'form' && role !== 'region') || name) {
            if (!hiddenFromAT(el)) {
              rows.push([1, depth, role, name, (el.getAttribute('aria-modal') === 'true' || el.matches(':modal')) ? 1 : 0]);
              childDepth = depth + 1;
              childLm = role + (name ? ' ' + q(name) : '');
              heading = '';
            }
          }
        }
        if (role === 'table' || role === 'grid' || role === 'treegrid') {
          const tn = collapse(cName(el));
          childGroup = role + (tn ? ' ' + q(clip(tn, 60)) : '');
          childRows = {n: 0}; childRow = 0;
        } else if (role === 'row' && rows_) {
          childRow = ++rows_.n;
        }
        if (CONTEXT.has(role)) {
          // rows and list items are named by their content unless labelled
          let label = NAMED_FROM_CONTENT.has(role) && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')
            ? '' : collapse(cName(el));
          if (!label) label = firstText(el);
          if (label) childCtx = role + ' ' + q(clip(label, 60));
        }
      }
      let isRef = false, cursor = '';
      if (opts.pointer && !inRef) cursor = getComputedStyle(el).cursor;
      if (strongCandidate(el)) isRef = true;
      else if (!inRef) {
        const weak = weakCandidate(el);
        if (weak === 'edit') isRef = true;
        else if (weak === 'focus' || (cursor === 'pointer' && parentCursor !== 'pointer')) isRef = 'named';
      }
      if (isRef && !hiddenFromAT(el)) {
        const role = roleOf(el);
        const name = nameOf(el, role);
        if (role && role !== 'none' && role !== 'presentation' && !(isRef === 'named' && (!name || LANDMARK.has(role) || role === 'heading'))) {
          const c = ctx || (heading ? 'heading ' + q(clip(heading, 60)) : '');
          rows.push(refRow(el, role === 'none' ? 'generic' : role, name, depth, lm, c, focused, vw, vh, childGroup, childRow, up));
          cand.push(el);
          childIn = true;
          childUp = keyOf(el);
        }
      }
      if (tag === 'select' || (tag === 'input')) continue; // the browser's own widgetry
      if (tag.includes('-') && !el.shadowRoot && el.childElementCount === 0 && !el.textContent.trim()) {
        const b = el.getBoundingClientRect();
        if (b.width > 0 && b.height > 0) closed = true; // a custom element drawing from a closed shadow root
      }
      const kids = el.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], childDepth, childLm, childCtx, childIn, childGroup, childRows, childRow, childUp, cursor]);
      if (el.shadowRoot) {
        shadows.push(el.shadowRoot); // a document observer does not see into shadow trees
        const sk = el.shadowRoot.children;
        for (let i = sk.length - 1; i >= 0; i--) stack.push([sk[i], childDepth, childLm, childCtx, childIn, childGroup, childRows, childRow, childUp, cursor]);
      }
    }
    // Backend node ids: for every ref of a page of ordinary size, else for
    // what is in view or focused (the rest are looked up when acted on).
    const allIDs = cand.length <= (opts.limit || 0);
    let r = 0;
    for (const row of rows) {
      if (row[0] !== 0) continue;
      const el = cand[r++];
      if (allIDs || row[11] || el === focused) { pick.push(el); pk.push(row[2]); }
    }
    S.sx = scrollX; S.sy = scrollY; S.vw = vw; S.vh = vh; S.deltas = 0;
    S.dirty.clear(); S.added = []; S.removed = [];
    if (!S.mo) observe();
    for (const root of shadows) S.mo.observe(root, OBSERVE);
    return [q({pk, strs, closed, ms: performance.now() - t0}), encode(rows), pick];
  };

  const OBSERVE = {subtree: true, childList: true, attributes: true, characterData: true};

  function record(recs) {
    for (const r of recs) {
      if (r.type === 'attributes') S.dirty.add(r.target);
      else if (r.type === 'characterData') { if (r.target.parentElement) S.dirty.add(r.target.parentElement); }
      else {
        S.dirty.add(r.target.nodeType === 11 ? r.target.host : r.target);
        for (const n of r.addedNodes) if (n.nodeType === 1) S.added.push(n);
        for (const n of r.removedNodes) if (n.nodeType === 1) S.removed.push(n);
      }
    }
  }

  function observe() {
    S.mo = new MutationObserver(record);
    S.mo.observe(document, OBSERVE);
    const mark = e => { const t = e.composedPath()[0]; if (t && t.nodeType === 1) S.dirty.add(t); };
    for (const ev of ['input', 'change', 'focusin', 'focusout', 'toggle']) document.addEventListener(ev, mark, true);
  }

  // delta: what changed among known refs since the last walk or delta. It
  // gives up (full: true) when a change is too wide to follow cheaply.
  S.delta = function () {
    record(S.mo.takeRecords()); // records not yet delivered count too
    const dirty = [...S.dirty], added = S.added, removedNodes = S.removed;
    S.dirty.clear(); S.added = []; S.removed = [];
    S.deltas++;
    if (S.deltas > 50 || added.length > 200 || dirty.length > 500) return [q({full: true}), '', []];
    const vw = innerWidth, vh = innerHeight, focused = deepActive();
    const hit = new Set();
    for (const d of dirty) {
      if (!d || !d.isConnected && !S.index.has(d)) continue;
      if (S.index.has(d)) hit.add(S.index.get(d));
      for (let p = d.parentElement; p; p = p.parentElement) if (S.index.has(p)) { hit.add(S.index.get(p)); break; }
      if (d.childElementCount) {
        if (d.querySelectorAll('*').length > 300) return [q({full: true}), '', []]; // a big subtree changed: walk again
        for (const c of d.querySelectorAll('*')) if (S.index.has(c)) hit.add(S.index.get(c));
      }
      if (d.localName === 'label' && d.control && S.index.has(d.control)) hit.add(S.index.get(d.control));
      if (d.nodeType === 1 && (STRUCT_TAGS.has(d.localName) || d.hasAttribute('role'))) {
        const r = cRole(d);
        if (r === 'heading' || LANDMARK.has(r) || r === 'Iframe') return [q({full: true}), '', []];
      }
    }
    // State set by scripts (el.checked = …, el.value = …) fires no event and
    // changes no attribute: compare every ref's cheap state with the last read.
    for (let k = 0; k < S.els.length; k++) {
      const sig = S.sig[k];
      if (sig === undefined || hit.has(k)) continue;
      const el = S.els[k];
      if (!el.isConnected) { hit.add(k); continue; }
      if (stateOf(el, S.role[k], focused) + '|' + valueOf(el, S.role[k]) !== sig) hit.add(k);
    }
    for (const n of removedNodes) {
      if (n.isConnected) continue;
      if (S.index.has(n)) hit.add(S.index.get(n));
      for (const c of n.querySelectorAll('*')) if (S.index.has(c)) hit.add(S.index.get(c));
    }
    for (const a of added) {
      if (!a.isConnected) continue;
      // structure or frames inside new content: the full walk places them right
      if (STRUCT_TAGS.has(a.localName) || a.querySelector('iframe,frame,[role],' + [...STRUCT_TAGS].join(','))) return [q({full: true}), '', []];
      if (a.matches('a[href],button,input,select,textarea,summary,[tabindex],[contenteditable]') ||
          a.querySelector('a[href],button,input,select,textarea,summary,[tabindex],[contenteditable]')) return [q({full: true}), '', []];
    }
    strs = []; sid = new Map();
    const rows = [], pick = [], pk = [], gone = [];
    for (const k of hit) {
      const el = S.els[k];
      if (!el.isConnected || hiddenFromAT(el)) { gone.push(k); continue; }
      const role = roleOf(el);
      rows.push(refRow(el, role, nameOf(el, role), 0, '', '', focused, vw, vh));
      pick.push(el); pk.push(k);
    }
    let boxes = null;
    if (scrollX !== S.sx || scrollY !== S.sy || vw !== S.vw || vh !== S.vh) {
      boxes = [];
      for (let k = 0; k < S.els.length; k++) if (S.els[k].isConnected) boxes.push([k, ...box(S.els[k], vw, vh)]);
      S.sx = scrollX; S.sy = scrollY; S.vw = vw; S.vh = vh;
    }
    return [q({pk, strs, gone, boxes}), encode(rows), pick];
  };

  // settle resolves once the page has rendered a frame and run the tasks that
  // follow it (frameworks commit and run effects there), so a look right
  // after an action sees what the action set off. A hidden tab renders no
  // frames: there it resolves at once; a frame that never comes is not
  // waited for beyond 100 ms.
  S.settle = () => document.visibilityState !== 'visible' ? Promise.resolve() : Promise.race([
    new Promise(r => requestAnimationFrame(() => setTimeout(r, 0))),
    new Promise(r => setTimeout(r, 100)),
  ]);

  // node(k) is the element behind key k, for its backend node id.
  S.node = k => [q({pk: [k]}), '', S.els[k] ? [S.els[k]] : []];
  return S;
})()
