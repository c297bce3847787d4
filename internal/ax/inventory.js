// rodagent's in-page inventory. It runs in an isolated world of each frame
// (the page cannot see or tamper with it) and reads roles and names through
// cRole(el) / cName(el), from accname.js (prepended): computed in the page,
// so no browser flag is needed.
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
  // A grid's focus may rove between it and its items (tabindex 0 on the
  // grid until focus is inside, then -1): any tabindex keeps it one ref.
  const ROVING_CONTAINER = new Set(['grid', 'treegrid']);
  const LANDMARK = new Set(['banner', 'navigation', 'main', 'complementary', 'contentinfo', 'search', 'form',
    'region', 'dialog', 'alertdialog']);
  const CONTEXT = new Set(['row', 'listitem', 'group', 'article', 'dialog', 'alertdialog', 'region', 'form',
    'tabpanel', 'menu', 'listbox', 'table', 'grid', 'list', 'treeitem', 'radiogroup', 'toolbar', 'figure',
    'section', 'complementary', 'navigation', 'banner', 'contentinfo', 'search']);
  const STRUCT_TAGS = new Set(['header', 'nav', 'main', 'aside', 'footer', 'form', 'section', 'dialog', 'search',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'ul', 'ol', 'li', 'tr', 'fieldset', 'article', 'menu', 'figure',
    'details', 'output', 'select', 'optgroup']);
  // Roles Chromium gives these tags whatever their context, so the walk can
  // skip asking for them; landmarks (header, footer, section, form, aside)
  // depend on context and name, and are asked.
  const IMPLICIT = {tr: 'row', table: 'table', ul: 'list', ol: 'list', li: 'listitem', fieldset: 'group',
    article: 'article', menu: 'list', figure: 'figure', details: 'group', optgroup: 'group', nav: 'navigation', main: 'main',
    dialog: 'dialog', search: 'search', output: 'status', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading'};
  const NAMED_FROM_CONTENT = new Set(['row', 'listitem']);
  // Ids a library makes up per load (or per render) cannot re-bind a ref:
  // React's useId in all its spellings (:r1:, «r1», _r_1_), a library's
  // prefix (one whose ids are always made up, or a shorter one followed
  // by a counter), a hex tail, a leading digit. isGeneratedID (dom.go) is
  // the same rule for the AX-tree path.
  const GENERATED_ID = /[:«»]|_r_[0-9a-z]+_|^(radix-|mui-|headlessui-|react-aria|rc[-_]|ember\d|__|mantine-|fui-|pr_id_|ui-id-|j_idt\d|ariakit-)|^(sl|cds|mat|mat-mdc|cdk|chakra|downshift|react-select|el-id|ext-gen|ext-comp|gwt-uid|yui|tippy|select2|dijit|reach|react-tabs|floating-ui|base-ui)[-_].*\d|[-_][0-9a-f]{6,}$|^[0-9]/;
  // randomID: a part of the id (between separators) of five or more letters
  // and digits that switches between the two at least twice and holds no
  // word (a run of four or more letters with a vowel): Math.random()
  // .toString(36) or nanoid, whatever the library's prefix (ykz9yuh6c),
  // where an authored id reads as words and numbers (step2, h264video).
  // (One pass over the characters, no split parts or growing strings: it
  // runs for the id of every ref, and a page of thousands of refs reads it
  // before V8 has optimized it.)
  const VOWELS = new Set([65, 69, 73, 79, 85, 97, 101, 105, 111, 117]);
  function randomID(id) {
    // of the part read so far: its length, its letter/digit switches, the
    // length of its current run of letters and whether that run holds a
    // vowel, whether the part holds a word, whether its last character was
    // a digit (-1: none yet)
    let len = 0, flips = 0, run = 0, vowel = false, word = false, prev = -1;
    for (let i = 0; i <= id.length; i++) {
      const c = i < id.length ? id.charCodeAt(i) : 0;
      const digit = c >= 48 && c <= 57;
      if (!digit && !(c >= 65 && c <= 90) && !(c >= 97 && c <= 122)) { // a separator (or the end) closes the part
        if (len >= 5 && flips >= 2 && !word) return true;
        len = 0; flips = 0; run = 0; vowel = false; word = false; prev = -1;
        continue;
      }
      len++;
      const d = digit ? 1 : 0;
      if (prev !== -1 && d !== prev) flips++;
      prev = d;
      if (digit) { run = 0; vowel = false; continue; }
      run++;
      if (VOWELS.has(c)) vowel = true;
      if (run >= 4 && vowel) word = true;
    }
    return false;
  }
  const isGeneratedID = id => GENERATED_ID.test(id) || randomID(id);
  const TEXTY = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);

  const S = {v: 2, els: [], index: new Map(), dirty: new Set(), added: [], removed: [], mo: null,
    sx: 0, sy: 0, vw: 0, vh: 0, deltas: 0, sig: [], role: []};
  G.__rodagent = S;

  // textMode: the walk reads a frame's text for the AX path (textWalk).
  let textMode = false;
  const roleAt = el => cRole(el);

  const q = s => JSON.stringify(s);
  // A label quotes page text (`navigation "Main"`) and shows every control,
  // format (bidi, zero-width) and line-separator character as an escape:
  // JSON.stringify leaves U+0085, U+2028/2029 and U+202E raw (the Go side's
  // strconv.Quote escapes them in the AX-tree path; rodagent's quote in text).
  const lq = s => q(s).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/gu, c => {
    const n = c.codePointAt(0);
    return n < 0x10000 ? '\\u' + n.toString(16).padStart(4, '0') : '\\U' + n.toString(16).padStart(8, '0');
  });
  // Rows travel as text — fields split by tabs, rows by newlines — which both
  // sides handle far faster than JSON arrays; strings escape \\, \n and \t.
  const esc = s => /[\\\n\t]/.test(s) ? s.replace(/[\\\n\t]/g, c => c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\t') : s;
  const encode = rows => rows.map(r => r.map(f => typeof f === 'string' ? esc(f) : f).join('\t')).join('\n');
  // Most text needs only a trim: the replace runs when a run of spaces or
  // a space other than U+0020 is there to fold.
  const FOLD = /[^\S ]| {2}/;
  const collapse = s => !s ? '' : FOLD.test(s) ? s.replace(/\s+/g, ' ').trim() : s.trim();

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
    const r = roleAt(el);
    // An editing host no role marks (Quill's editor, a bare contenteditable
    // div) is a field a person types into: a textbox, as on the AX path.
    if (r === 'generic' || !r) { if (editingHost(el) && !el.hasAttribute('role')) return 'textbox'; }
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
    const nest = NEST[role];
    if (nest && n && el.firstElementChild && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) {
      // An expanded tree item (a menu item with its submenu) is named by
      // its content, which then holds its children's text too ("Projects
      // project-1.docx …"); a person reads "Projects", and its handle must
      // not change when it opens: the name shown leaves the nested items
      // out, and the browser's name is kept as the raw one (raws).
      const inner = el.querySelectorAll(nest);
      if (inner.length) {
        const own = collapse(textOf(el, {visited: new Set(inner)}));
        if (own && own !== n) { raws.set(el, n); n = own; }
      }
    }
    if (!n && IROLE.has(role)) {
      n = lentName(el, role);
      if (n) lent.add(el);
    }
    return n;
  }

  // lentName is the name a person gives a control the browser leaves
  // unnamed, from what stands for it on the page: the custom element around
  // it, named by its <label> (<label><md-checkbox></md-checkbox> Send me the
  // newsletter</label>: the label names the host, the checkbox inside is the
  // one control of its shadow tree); a <label for> pointing at it though it
  // is no labelable element (jQuery UI's selectmenu moves the label of the
  // <select> it hides to its own button); or, for a field, the short text
  // just before it in its line ("Check-in: <input>"). Both read paths show
  // it (lent, below; the AX path takes it where the browser's name is empty).
  const FIELD_ROLE = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
  function lentName(el, role) {
    const root = el.getRootNode(), host = root.host;
    if (host && host.localName.includes('-')) {
      const hr = cRole(host);
      if ((hr === 'generic' || hr === '' || hr === 'none') && root.querySelectorAll(TEXT_CONTROL).length === 1) {
        const n = collapse(cName(host));
        if (n) return n;
      }
    }
    if (el.id && root.querySelector) {
      const l = root.querySelector('label[for="' + CSS.escape(el.id) + '"]');
      if (l && l.control !== el) {
        const n = shownText(l);
        if (n) return n;
      }
    }
    if (TOGGLE_ROLES.has(role)) {
      const w = toggleBox(el);
      if (w) return w.text;
    }
    const before = FIELD_ROLE.has(role) ? textBefore(el) : '';
    return before || (ORPHAN_LABELLED.has(role) ? orphanLabel(el) : '');
  }

  // wrapsCombobox: el, a combobox no one names and outside the tab order,
  // holds a combobox that shows (the field inside the box it draws)
  function wrapsCombobox(el, tag) {
    if (tag === 'input' || tag === 'select' || el.hasAttribute('tabindex') || el.isContentEditable || collapse(cName(el))) return false;
    for (const c of el.querySelectorAll('[role=combobox],select')) {
      const combobox = c.localName === 'select' ? !listSelect(c) : roleAt(c) === 'combobox';
      if (combobox && !hiddenInWalk(c)) return true;
    }
    return false;
  }

  // orphanLabel is the text of the one <label> that labels nothing in the
  // box a library draws a control in, the control alone in it: Vuetify's
  // slider puts "Brightness" in a <label> of its own beside the thumb it
  // leaves unnamed (the label's for= is missing), where a person reads it as
  // the slider's name. A box holding another control is no longer the
  // control's own: its labels may be the other's.
  const ORPHAN_LABELLED = new Set(['slider', 'spinbutton', 'combobox', 'listbox', 'textbox', 'searchbox']);
  function orphanLabel(el) {
    for (let p = el.parentElement, k = 0; p && k < 5 && p.localName !== 'body' && p.localName !== 'form'; p = p.parentElement, k++) {
      let text = '', labels = 0;
      for (const c of p.querySelectorAll(TEXT_CONTROL)) {
        if (c === el || el.contains(c) || !c.checkVisibility(VISIBILITY)) continue;
        if (c.localName !== 'label') return '';
        if (c.control || c.querySelector(TEXT_CONTROL)) return '';
        const t = shownText(c);
        if (t) { text = t; labels++; }
      }
      if (labels > 1) return '';
      if (labels === 1) return text.length <= 60 && WORDY.test(text) ? text : '';
    }
    return '';
  }

  // toggleBox: the box a library draws an unlabelled checkbox or switch
  // input in, with the words beside it (Element Plus's switch: the input,
  // the track and "Autosave" in one clickable box, the words aria-hidden
  // while it is off). It is the nearest ancestor, a few levels up, that
  // holds no other control and shows words; a person reads those words as
  // the toggle's name, and the track and words are the toggle's drawing.
  // {box, text}, or null.
  function toggleBox(input) {
    // (a label that shows no words, the box a library draws the check in,
    // names nothing: the words beside it do)
    if (input.localName !== 'input' || (input.type !== 'checkbox' && input.type !== 'radio') || input.labels && [...input.labels].some(l => seenText(l))) return null;
    for (let p = input.parentElement, k = 0; p && k < 3 && p.localName !== 'body'; p = p.parentElement, k++) {
      const ctl = controlsIn(p);
      if (ctl.length !== 1) return null;
      const text = seenText(p);
      if (text) return text.length <= 60 && WORDY.test(text) ? {box: p, text} : null;
    }
    return null;
  }
  // controlsIn: the controls in p, a <label> of one of them not counted
  // apart from its control (antd's empty label box around its checkbox)
  function controlsIn(p) {
    return [...p.querySelectorAll(TEXT_CONTROL)].filter(c => !(c.localName === 'label' && c.control && p.contains(c.control)));
  }
  // the text a person sees in el, aria-hidden parts included
  function seenText(el) {
    let out = '';
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = tw.nextNode(); t && out.length < 200; t = tw.nextNode()) {
      if (NONSPACE.test(t.data) && t.parentElement && t.parentElement.checkVisibility(VISIBILITY)) out += ' ' + t.data;
    }
    return collapse(out);
  }
  // drawsToggle: whether el is part of the box of an unnamed toggle
  // (toggleBox), outside the input: a click there is the toggle's.
  function drawsToggle(el) {
    if (el.matches(TEXT_CONTROL) || el.querySelector(TEXT_CONTROL)) return false;
    for (let p = el.parentElement, k = 0; p && k < 3 && p.localName !== 'body'; p = p.parentElement, k++) {
      const ctl = controlsIn(p);
      if (ctl.length > 1) return false;
      if (ctl.length === 1) {
        const w = toggleBox(ctl[0]);
        return !!w && w.box.contains(el) && !collapse(cName(ctl[0]));
      }
    }
    return false;
  }

  // textBefore: the text right before el in its line (text and inline
  // elements after the last block, line break or control), when it is short
  // enough to be a field's label.
  function textBefore(el) {
    let out = '';
    for (let c = el.previousSibling; c; c = c.previousSibling) {
      if (c.nodeType === 3) out = c.data + out;
      else if (c.nodeType === 1) {
        if (c.localName === 'br' || c.matches(TEXT_CONTROL) || c.querySelector(TEXT_CONTROL) || !INLINE.has(getComputedStyle(c).display)) break;
        if (c.checkVisibility(VISIBILITY)) out = c.textContent + ' ' + out;
      }
      if (out.length > 200) return '';
    }
    out = collapse(out);
    return out.length <= 60 && WORDY.test(out) ? out : '';
  }
  const MENU_ITEMS = '[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio]';
  // An option or tab holding controls of its own (a list's per-item move
  // and delete buttons, a tab's close button): a person reads the item's
  // words and sees the buttons beside them; Chromium's name strings their
  // labels in, and changes as they show on hover or focus.
  const ITEM_CONTROLS = 'button,[role=button],a[href],input,select,textarea,[role=checkbox],[role=switch],[role=link]';
  const NEST = {treeitem: '[role=treeitem]', menuitem: MENU_ITEMS, menuitemcheckbox: MENU_ITEMS, menuitemradio: MENU_ITEMS,
    option: ITEM_CONTROLS, tab: ITEM_CONTROLS};
  // raws: the browser's name of a ref whose shown name nameOf trimmed, for one read.
  let raws = new Map();
  // lent: the refs of one read that nameOf named though the browser does not (lentName).
  let lent = new Set();
  // covered: [element, row] of the clickables dropCovered took back in one walk.
  let covered = [];

  const VISIBILITY = {visibilityProperty: true};
  function hiddenFromAT(el) {
    return !el.checkVisibility(VISIBILITY) || !!el.closest('[aria-hidden="true"],[inert]');
  }
  // The walk never enters an aria-hidden or inert subtree (shadow hosts
  // included, which closest() cannot see past), so within it only the
  // element's own rendering is left to check.
  const hiddenInWalk = el => !el.checkVisibility(VISIBILITY);

  // What the AX path calls interactive, from the DOM side.
  // bare: el has no attributes at all (most cells and wrappers), so none
  // of the attribute reads below can find anything.
  // stoodInMemo: stoodIn's verdicts of one walk (labels ask before their control is reached).
  let stoodInMemo = new Map();
  const tinyBox = b => b.width <= 1 || b.height <= 1;
  // rectOf is el's border box (a DOMRect), read once for the
  // last element asked: a form control's box is read by ownClip and again
  // for its ref row (2,000 of the 6,000-control table's 8,000 reads). The
  // layout cannot change within one synchronous read of the page; each walk
  // and each delta starts with forgetRect().
  let rectEl = null, rect = null;
  const rectOf = el => {
    if (el !== rectEl) { rect = el.getBoundingClientRect(); rectEl = el; }
    return rect;
  };
  const forgetRect = () => { rectEl = null; rect = null; };
  // ownClip: a form control whose own box is 1 px or less and clips (its
  // own visually-hidden class), which no clipping ancestor tells the walk.
  const ownClip = el => (el.localName === 'select' || el.localName === 'input' || el.localName === 'textarea') &&
    tinyBox(rectOf(el)) && !!clipperOf(el, flatParent(el), true);
  // stoodIn: a form control clipped to a box of 1 px or less (the visually
  // hidden but accessible pattern: PrimeReact's focusable input and native
  // <select> inside .p-hidden-accessible) inside a visible custom widget
  // that is a control itself or shows one (the dropdown's drawn trigger) is
  // no ref of its own: a person sees and acts on the widget, and a press on
  // the clipped control cannot land. A toggle keeps its own rule (its input
  // is the ref, the drawn box takes the click), a file input is what an
  // upload goes through, and a hidden control with nothing shown for it (an
  // sr-only field the page acts through) stays a ref.
  function stoodIn(el) {
    const tag = el.localName;
    // the options of a list box <select> go with it
    if (tag === 'option') { const s = listOption(el) && el.closest('select'); return !!s && stoodIn(s); }
    if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') return false;
    if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio' || el.type === 'file' || el.type === 'hidden')) return false;
    let v = stoodInMemo.get(el);
    if (v === undefined) stoodInMemo.set(el, v = standInOf(el));
    return v;
  }
  // clipperOf: the nearest ancestor (up to stop) that clips el to 1 px or less, or null.
  // self: el's own clip counts too (Tom Select's <select> in its own
  // .ts-hidden-accessible box, not inside a clipping wrapper).
  function clipperOf(el, stop, self) {
    for (let n = self ? el : flatParent(el); n && n !== stop && n !== document.body; n = flatParent(n)) {
      if (!(n instanceof Element)) continue;
      if (!tinyBox(n.getBoundingClientRect())) continue; // the layout is fresh in a walk: cheaper than a style
      const cs = getComputedStyle(n);
      if (cs.overflowX !== 'visible' || cs.clip !== 'auto' || cs.clipPath !== 'none') return n;
    }
    return null;
  }
  function standInOf(el) {
    const clipper = clipperOf(el, null, true);
    if (!clipper) return false;
    let w = flatParent(clipper);
    while (w && w instanceof Element && w !== document.body && tinyBox(w.getBoundingClientRect())) w = flatParent(w);
    if (!w || !(w instanceof Element) || w === document.body || !w.checkVisibility(VISIBILITY)) return false;
    const shown = c => { const b = c.getBoundingClientRect(); return b.width > 2 && b.height > 2 && c.checkVisibility(VISIBILITY) && !clipperOf(c, w); };
    if ((strongCandidate(w, !w.hasAttributes()) || (w.hasAttribute('tabindex') && w.tabIndex >= 0)) && shown(w)) return true;
    for (const c of w.querySelectorAll('a[href],button,input,select,textarea,[tabindex],[role]')) {
      if (c === el || clipper.contains(c)) continue;
      if ((strongCandidate(c, false) || c.tabIndex >= 0) && shown(c)) return true;
    }
    return false;
  }

  function strongCandidate(el, bare) {
    switch (el.localName) {
      case 'a': case 'area': if (!bare && el.hasAttribute('href')) return true; break;
      case 'button': case 'select': case 'textarea': case 'summary': return true;
      case 'input': return el.type !== 'hidden';
      case 'option': return listOption(el);
    }
    const r = bare ? null : iattr(el, 'role');
    if (r !== null) {
      const first = r.trim().split(/\s+/)[0];
      if (IROLE.has(first)) return true;
      if ((FOCUS_ROLE.has(first) || ROVING_CONTAINER.has(first)) && el.hasAttribute('tabindex')) return true;
      // every item of a grid or tree grid, whatever its tabindex wiring
      if (COMPOSITE_ITEM.has(first) && el.closest('[role=grid],[role=treegrid]')) return true;
      if (first === 'row' && el.closest('[role=treegrid]')) return true;
    } else if ((el.localName === 'td' || el.localName === 'th') && inGridTable(el)) {
      return true;
    } else if (el.localName === 'tr' && el.closest('table[role=treegrid]')) {
      return true; // every row of a tree grid, its header row included
    }
    // a sorted column's header: the sort order is its state, and a plain
    // table's header is no ref otherwise, so the order would not show
    const srt = bare ? null : el.getAttribute('aria-sort');
    if (srt && srt !== 'none' && (el.localName === 'th' || r === 'columnheader' || r === 'rowheader')) return true;
    return false;
  }

  const COMPOSITE_ITEM = new Set(['gridcell', 'columnheader', 'rowheader']);
  const TOGGLE_ROLES = new Set(['checkbox', 'switch', 'radio']);

  // The options of a list box <select> (multiple, or size > 1) are shown on
  // the page, each selected or not, and Click or Select act on them: refs,
  // as the AX tree has them. A drop-down <select>'s options are the browser's
  // own popup: the select is the one ref.
  const listSelect = el => el.localName === 'select' && (el.multiple || el.size > 1);
  const listOption = el => { const s = el.closest('select'); return !!s && listSelect(s); };

  // Whether a cell stands in a grid table, asked once per row rather than
  // once per cell (a large table has tens of thousands of cells); the memo
  // lives for one read.
  let gridMemo = new Map();
  // declaredRows is what a table says of its size (aria-rowcount: all its
  // rows, -1 when it does not know), after a NUL that no quoted label holds:
  // a grid that renders only the rows in view (a virtualized list, a paged
  // data grid) shows a few of many, and the text says so (DOMIndex reads
  // the same attribute on the AX path).
  function declaredRows(el) {
    const m = /^[ \t\n\f\r]*(-?[0-9]{1,9})[ \t\n\f\r]*$/.exec(el.getAttribute('aria-rowcount') || '');
    const n = m ? +m[1] : 0;
    return n === -1 || n > 0 ? '\u0000' + n : '';
  }

  function inGridTable(cell) {
    const row = cell.parentElement;
    let v = gridMemo.get(row);
    if (v === undefined) { v = !!cell.closest('table[role=grid],table[role=treegrid]'); gridMemo.set(row, v); }
    return v;
  }

  // What a person would click though no role says so: focusable, an inline
  // click handler, draggable, a label standing in for its hidden input.
  // (Only an input the walk hides: a transparent one is still a ref of its
  // own, and its label a second handle on the same checkbox.)
  const editingHost = el => el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable) && !el.closest('[contenteditable="false"]');
  function weakCandidate(el, bare) {
    if (editingHost(el)) return 'edit';
    if (bare) return el.localName === 'label' && el.control && hiddenInWalk(el.control) ? 'click' : '';
    if (el.hasAttribute('tabindex') && el.tabIndex >= 0) return 'focus';
    if (el.hasAttribute('onclick') || el.hasAttribute('onmousedown') || el.hasAttribute('onpointerdown') ||
        el.getAttribute('draggable') === 'true') return 'click';
    if (el.localName === 'label' && el.control && hiddenInWalk(el.control)) return 'click';
    return '';
  }

  // Chromium makes an <a> without href a link when it has a mouse handler
  // (click, mousedown, mouseup): so does the AX path, and so does this one.
  // (Handlers added by addEventListener count there too; here, the inline
  // ones can be seen.)
  const mouseAnchor = el => el.localName === 'a' && !el.hasAttribute('href') &&
    (el.hasAttribute('onclick') || el.hasAttribute('onmousedown') || el.hasAttribute('onmouseup'));

  // Elements a script made clickable (addEventListener('click', …) and
  // kin, or el.onclick = …): listeners.js records them in the page's world,
  // which this world cannot see into; it answers an event named with S.ev
  // (random per process) by dispatching S.ev+'a' on each of them, caught
  // here. Events are shared between worlds and leave the DOM untouched.
  let heard = null;
  function hear(what) {
    const got = [];
    if (!S.ev) return got;
    if (S.evOn !== S.ev) {
      document.addEventListener(S.ev + 'a', e => { if (heard) heard.push(e.composedPath()[0]); }, true);
      S.evOn = S.ev;
    }
    heard = got;
    try { document.dispatchEvent(new Event(S.ev + what)); } finally { heard = null; }
    return got;
  }

  // Whether the page gave some connected element a closed shadow root
  // (listeners.js records attachShadow in the page's world): the walk's
  // sign, besides a childless custom element with a box, that the document
  // holds a tree only the AX tree sees.
  let cheard = false;
  function hearClosed() {
    if (!S.ev) return false;
    if (S.chOn !== S.ev) {
      document.addEventListener(S.ev + 'h', () => { cheard = true; }, true);
      S.chOn = S.ev;
    }
    cheard = false;
    document.dispatchEvent(new Event(S.ev + 'c'));
    const got = cheard;
    cheard = false;
    return got;
  }

  // The roles, states and names custom elements set through
  // ElementInternals, which no attribute shows: listeners.js records them in
  // the page's world and answers S.ev+'r' with S.ev+'n' on each such element,
  // its values in the event's detail (a JSON string). Read once per walk;
  // a delta reads them again when the record says some changed (S.ev+'s').
  let iheard = null;
  function hearInternals() {
    const m = new Map();
    if (!S.ev) return m;
    if (S.ibOn !== S.ev) {
      document.addEventListener(S.ev + 'n', e => { if (iheard) iheard.push([e.composedPath()[0], e.detail]); }, true);
      S.ibOn = S.ev;
    }
    const got = iheard = [];
    try { document.dispatchEvent(new Event(S.ev + 'r')); } finally { iheard = null; }
    for (const [el, d] of got) {
      if (!el || el.nodeType !== 1 || typeof d !== 'string') continue;
      try { m.set(el, JSON.parse(d)); } catch (e) { /* not the record's answer */ }
    }
    return m;
  }
  function internalsChanged() {
    if (!S.ev || S.ibOn !== S.ev) return false;
    const got = iheard = [];
    try { document.dispatchEvent(new Event(S.ev + 's')); } finally { iheard = null; }
    return got.length > 0;
  }
  // What in the internals a state read cannot follow: a role, a name or a
  // hidden subtree changed, or elements gained or lost internals.
  const INTERNALS_STATE = /^aria-(checked|pressed|selected|expanded|disabled|current|sort|level|value(now|min|max|text)|readonly|required|invalid|busy|multiselectable)$/;
  function internalsMoved(a, b) {
    if (a.size !== b.size) return true;
    for (const [el, o] of a) {
      const p = b.get(el);
      if (!p) return true;
      for (const k of new Set([...Object.keys(o), ...Object.keys(p)])) if (o[k] !== p[k] && !INTERNALS_STATE.test(k)) return true;
    }
    return false;
  }
  const setInternals = m => { S.intl = m; ACC.internals = m.size ? m : null; };

  const composedParent = el => el.parentElement || (el.parentNode && el.parentNode.host) || null;

  // A label's click is its control's (the control is the ref): <label>, or
  // an element that names a control through aria-labelledby.
  function labels(el, named) {
    if (el.localName === 'label') return true;
    if (!el.id) return false;
    const root = el.getRootNode();
    let ids = named.get(root);
    if (!ids) { // once per walk and root, only when a listened element has an id
      ids = new Set();
      if (root.querySelectorAll) for (const c of root.querySelectorAll('[aria-labelledby]')) for (const id of c.getAttribute('aria-labelledby').split(/\s+/)) ids.add(id);
      named.set(root, ids);
    }
    return ids.has(el.id);
  }

  // listened returns the elements with click-like listeners, less the page
  // itself (html, body) and labels, and how many other such elements each one holds.
  function listened() {
    const hot = new Set(), inner = new Map(), named = new Map();
    for (const el of hear('q')) {
      if (el && el.nodeType === 1 && el !== document.documentElement && el !== document.body && !labels(el, named)) hot.add(el);
    }
    for (const el of hot) {
      for (let p = composedParent(el); p; p = composedParent(p)) if (hot.has(p)) inner.set(p, (inner.get(p) || 0) + 1);
    }
    return {hot, inner};
  }

  // A listener on an element that holds other controls, list items or rows,
  // or a large subtree, serves what it holds (event delegation: jQuery's
  // $(list).on('click', 'li', …), React's root container): it is no control.
  const HOLDS = 'a[href],button,input:not([type=hidden]),select,textarea,summary,iframe,li,tr,option,' +
    '[tabindex]:not([tabindex^="-"]),[contenteditable],[onclick],[onmousedown],[onpointerdown],[role=button],' +
    '[role=link],[role=checkbox],[role=radio],[role=switch],[role=tab],[role=menuitem],[role=menuitemcheckbox],' +
    '[role=menuitemradio],[role=option],[role=treeitem],[role=textbox],[role=searchbox],[role=combobox],' +
    '[role=slider],[role=spinbutton],[role=row],[role=listitem],[role=gridcell]';
  const CLICKABLE_MAX_NODES = 60;
  function delegationRoot(el, L) {
    if ((L.inner.get(el) || 0) >= 2 || el.querySelector(HOLDS)) return true; // stops at the first it finds
    // In a shadow tree, what the host put in el's slots is what el holds (a
    // tab group's listener around the slot of its tabs).
    if (el.getRootNode() !== document) {
      for (const sl of el.querySelectorAll('slot')) {
        for (const a of sl.assignedElements({flatten: true})) if (a.matches(HOLDS) || a.querySelector(HOLDS)) return true;
      }
    }
    let n = 0;
    for (const w = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT); w.nextNode();) if (++n > CLICKABLE_MAX_NODES) return true;
    return false;
  }

  const ICON = /(?:^|\s)(?:ui-icon|fa[srlbd]?|icon|glyphicon|bi|mdi|ti|ion|las?|octicon|codicon)-([a-z][a-z0-9-]*)/;
  const GENERIC_CLASS = /^(fa[srlbd]?|icon|btn|button|ui|is-|has-|js-|active|selected)$|[0-9a-f]{5,}|^css-|^sc-|^jsx-/;

  // pictureText is the text alternative of a picture a person sees (an
  // <img> or an element with role img): none for a decorative one (alt="",
  // role none/presentation). Not its size: an image that has not loaded
  // yet has none, and loading changes nothing a delta could see.
  function pictureText(el) {
    const r = el.getAttribute('role');
    if (r === 'presentation' || r === 'none') return '';
    const v = collapse(cName(el));
    if (!v || !el.checkVisibility(VISIBILITY)) return '';
    return clip(v, 60);
  }

  // iconIn is the name of the icon an empty element draws from its class
  // (ui-icon-seek-end, fa-trash): a person reads the picture in the
  // sentence or beside the item it marks ("the item with the ⏭ icon").
  function iconIn(el) {
    const c = typeof el.className === 'string' ? el.className : '';
    if (!c.includes('icon') && !c.includes('fa-')) return '';
    const m = ICON.exec(c);
    if (!m || /^(solid|regular|light|brands|fw|lg|xs|sm|[0-9]x)$/.test(m[1]) || !el.checkVisibility(VISIBILITY)) return '';
    return m[1].replace(/[-_]+/g, ' ');
  }

  // swatchIn is the colour of an empty box that stands among a sentence's
  // words ("Click on the ■ colored box"): a person reads the colour there.
  // Only a small inline box: a bar, a divider or a backdrop is layout.
  function swatchIn(el, cs) {
    if (!cs || !inSentence(el) || !/^inline/.test(cs.display) || !el.checkVisibility(VISIBILITY)) return '';
    const c = colorName(cs.backgroundColor);
    if (!c) return '';
    const b = el.getBoundingClientRect();
    return b.width >= 4 && b.height >= 4 && b.width <= 64 && b.height <= 64 ? c : '';
  }

  // inSentence: el stands beside words of its parent's own.
  function inSentence(el) {
    const p = el.parentElement;
    if (p) for (let c = p.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && c.data.trim()) return true;
    return false;
  }

  // describe names a clickable that has no accessible name the way a person
  // would point at it: its text, title, alt, description, an icon's name
  // (from its class or image file), else "clickable span".
  function describe(el) {
    const t = shownText(el);
    if (t) return glyphName(el, clip(t, 80));
    for (const a of ['title', 'alt', 'aria-description', 'data-tooltip', 'data-title']) {
      const v = collapse(el.getAttribute(a));
      if (v) return v;
    }
    const img = el.querySelector('img[alt],[title]');
    if (img) { const v = collapse(img.getAttribute('alt') || img.getAttribute('title')); if (v) return v; }
    // a picture named inside it (an <svg> with its <title>, role=img with
    // aria-label): Blueprint's tree caret draws "Expand group"
    for (const pic of el.querySelectorAll('svg,[role=img]')) { const v = pictureText(pic); if (v) return v; }
    let icon = '';
    for (const n of [el, ...el.querySelectorAll('*')].slice(0, 8)) {
      const m = ICON.exec(typeof n.className === 'string' ? n.className : (n.getAttribute('class') || ''));
      if (m && !/^(solid|regular|light|brands|fw|lg|xs|sm|[0-9]x)$/.test(m[1])) { icon = m[1]; break; }
      const src = n.localName === 'img' ? n.getAttribute('src') : (n.localName === 'use' ? (n.getAttribute('href') || n.getAttribute('xlink:href')) : '');
      const file = src && /([a-z][a-z0-9_-]*)(?:\.[a-z]{2,4})?(?:[?#].*)?$/i.exec(src.replace(/^.*[\/#]/, ''));
      if (file) { icon = file[1]; break; }
    }
    if (!icon) {
      // a background image, or an image that replaces the element's own
      // content (content: url(search.png))
      const cs = getComputedStyle(el);
      for (const v of [cs.backgroundImage, cs.content]) {
        const m = v && /url\(["']?[^"')]*?([a-z][a-z0-9_-]*)\.[a-z]{2,4}["']?\)/i.exec(v);
        if (m) { icon = m[1]; break; }
      }
    }
    if (icon) return 'icon button (' + icon.replace(/[-_]+/g, ' ') + ')';
    if (el instanceof SVGElement) { const shape = shapeOf(el); if (shape) return shape; }
    const cls = (typeof el.className === 'string' ? el.className : '').split(/\s+/).find(c => c && !GENERIC_CLASS.test(c));
    const d = 'clickable ' + el.localName + (cls ? ' (' + cls.replace(/[-_]+/g, ' ') + ')' : '');
    const fill = fillOf(el);
    return fill ? d + ' ' + fill : d;
  }

  // An empty box shows only its colour (a swatch, a board's cell), and a
  // person tells it from the boxes like it beside it by that colour. A box
  // whose colour tells it from nothing (a slider's handle in its theme's
  // grey) is not named by it: the colour would say nothing and would change
  // with the theme.
  function fillOf(el) {
    if (el.firstElementChild) return '';
    const bg = getComputedStyle(el).backgroundColor;
    const fill = colorName(bg);
    const p = el.parentElement;
    if (!fill || !p) return '';
    if (inSentence(el)) return fill; // among a sentence's words, the colour is what the sentence speaks of
    let n = 0;
    for (let c = p.firstElementChild; c && n < 50; c = c.nextElementSibling, n++) {
      if (c !== el && c.localName === el.localName && !c.firstElementChild && getComputedStyle(c).backgroundColor !== bg) return fill;
    }
    return '';
  }


  // shapeOf names a drawn shape with no text as a person sees it: by its
  // colour and kind ("red #ff0000 circle"). The hex colour follows the
  // nearest plain name, so neither has to be trusted alone.
  const SHAPES = {circle: 'circle', ellipse: 'ellipse', rect: 'rectangle', line: 'line', polyline: 'line', path: 'shape'};
  function shapeOf(el) {
    let kind = SHAPES[el.localName];
    if (el.localName === 'polygon') {
      const n = el.points ? el.points.numberOfItems : 0;
      kind = n === 3 ? 'triangle' : n === 4 ? 'quadrilateral' : 'polygon';
    }
    if (!kind) return '';
    const cs = getComputedStyle(el);
    const c = colorName(cs.fill) || colorName(cs.stroke);
    return c ? c + ' ' + kind : kind;
  }

  // glyphName names a letter or digit drawn in an SVG picture as a person
  // tells it from the glyphs and shapes beside it: by its colour, as a shape
  // is ("green #008000 7"). A drawing's text in one colour (a chart's
  // labels) keeps its plain name: there the colour tells nothing apart.
  function glyphName(el, name) {
    if (!name || !(el instanceof SVGElement) || (el.localName !== 'text' && el.localName !== 'tspan')) return name;
    const fill = getComputedStyle(el).fill;
    const c = colorName(fill);
    const p = el.parentElement;
    if (!c || !p) return name;
    let n = 0;
    for (let s = p.firstElementChild; s && n < 50; s = s.nextElementSibling, n++) {
      if (s !== el && s instanceof SVGGraphicsElement && getComputedStyle(s).fill !== fill) return c + ' ' + name;
    }
    return name;
  }

  // colorName says a colour as a person would ("light green #a1d4a1"): the
  // CSS name of an exact basic colour, else the hue's word with light or
  // dark. Nearest-RGB naming called a plain green (#51d651) grey, since RGB
  // distance is not how eyes group colours; hue, lightness and chroma are.
  const NAMED = {'000000': 'black', 'ffffff': 'white', '808080': 'gray', 'c0c0c0': 'silver', 'ff0000': 'red',
    '800000': 'maroon', 'ffa500': 'orange', 'ffff00': 'yellow', '808000': 'olive', '00ff00': 'lime',
    '008000': 'green', '00ffff': 'cyan', '008080': 'teal', '0000ff': 'blue', '000080': 'navy',
    'ff00ff': 'magenta', '800080': 'purple', 'ffc0cb': 'pink', 'a52a2a': 'brown'};
  function colorName(v) {
    const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(v || '');
    if (!m || (m[4] !== undefined && +m[4] === 0)) return '';
    const r = +m[1], g = +m[2], b = +m[3];
    const hex = [r, g, b].map(x => x.toString(16).padStart(2, '0')).join('');
    return (NAMED[hex] || colorWord(r / 255, g / 255, b / 255)) + ' #' + hex;
  }
  function colorWord(r, g, b) {
    const max = Math.max(r, g, b), min = Math.min(r, g, b), c = max - min, l = (max + min) / 2;
    if (c < 0.1) return l < 0.15 ? 'black' : l > 0.93 ? 'white' : l < 0.4 ? 'dark gray' : l > 0.7 ? 'light gray' : 'gray';
    let h = max === r ? ((g - b) / c) % 6 : max === g ? (b - r) / c + 2 : (r - g) / c + 4;
    h = (h * 60 + 360) % 360;
    const hue = h < 15 || h >= 345 ? 'red' : h < 45 ? 'orange' : h < 70 ? 'yellow' : h < 165 ? 'green' :
      h < 195 ? 'cyan' : h < 260 ? 'blue' : h < 290 ? 'purple' : h < 330 ? 'magenta' : 'pink';
    if (hue === 'red' && l > 0.68) return 'pink';
    if (hue === 'orange' && l < 0.4) return 'brown';
    if (l > 0.72) return 'light ' + hue;
    if (l < 0.36) return 'dark ' + hue;
    return hue;
  }

  function deepActive() {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }

  const TEST_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
  // an: el's attribute names (getAttributeNames), read once per ref for
  // its state, extras and this: most refs carry none of the test attributes.
  function stableOf(el, an) {
    for (const a of TEST_ATTRS) {
      const v = ga(el, an, a);
      if (v) return '[' + a + '=' + v + ']';
    }
    const id = el.id;
    if (id && !isGeneratedID(id)) return '#' + id;
    const n = ga(el, an, 'name');
    return n ? '[name=' + n + ']' : '';
  }

  // state bits: 1 checked, 2 mixed, 4 disabled, 8 expanded, 16 selected, 32 focused, 64 unchecked,
  // 128 collapsed, 256 readonly, 512 required, 1024 editable, 2048 pressed, 4096 unpressed, 8192 invalid,
  // 16384 busy, 32768 multiselectable, 65536 owns (aria-owns)
  // ga reads attribute n of el when its names (an, from one
  // getAttributeNames call) list it: a ref carries a few of the twenty
  // attributes its state is read from, and a read that finds nothing costs
  // as much as one that finds something.
  const ga = (el, an, n) => an.includes(n) ? el.getAttribute(n) : ACC.internals ? iattr(el, n) : null;

  // A focusable element inside an aria-disabled="true" container is
  // disabled too (ARIA; Chromium's AX tree says so): a jQuery UI menu item
  // whose <li> is disabled, greyed out and skipped by the menu. The nearest
  // ancestor that states aria-disabled, or one that is a disabled form
  // control, decides; an element that cannot take focus inherits nothing.
  function disabledContainer(el) {
    if (!el.hasAttribute('tabindex') && el.tabIndex < 0 && !el.isContentEditable) return false;
    return disabledFrom(flatParent(el));
  }
  const flatParent = n => n.assignedSlot || (n.parentNode && n.parentNode.nodeType === 11 ? n.parentNode.host : n.parentNode);
  // disabledFrom: whether n or its nearest ancestor that decides (see
  // disabledContainer) disables what it holds. During a walk the answer of
  // each container is kept (disabledMemo): the thousands of controls of a
  // table share their few ancestors, and nothing changes the page meanwhile.
  let disabledMemo = null;
  function disabledFrom(n) {
    const seen = [];
    let d = false;
    for (; n && n.nodeType === 1; n = flatParent(n)) {
      const m = disabledMemo ? disabledMemo.get(n) : undefined;
      if (m !== undefined) { d = m; break; }
      const v = iattr(n, 'aria-disabled');
      if (v === 'true') { d = true; break; }
      if (v !== null && v !== '') break;
      if (n.disabled === true) { d = true; break; } // a disabled fieldset or button around it
      seen.push(n);
    }
    if (disabledMemo) {
      for (const s of seen) disabledMemo.set(s, d);
      if (n && n.nodeType === 1) disabledMemo.set(n, d);
    }
    return d;
  }

  function stateOf(el, role, focused, an) {
    an = an || el.getAttributeNames();
    let st = 0;
    const tag = el.localName;
    if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
      st |= el.indeterminate && el.type === 'checkbox' ? 2 : (el.checked ? 1 : 64);
    } else {
      const ac = ga(el, an, 'aria-checked');
      if (ac === 'true') st |= 1; else if (ac === 'mixed') st |= 2;
      else if (ac === 'false' || (ac === null && (role === 'checkbox' || role === 'radio' || role === 'switch' ||
        role === 'menuitemcheckbox' || role === 'menuitemradio'))) st |= 64;
    }
    const ad = ga(el, an, 'aria-disabled');
    if (ad === 'true' || el.matches(':disabled') || (ad === null && disabledContainer(el))) st |= 4;
    const ae = ga(el, an, 'aria-expanded');
    if (ae === 'true' || (tag === 'summary' && el.parentElement && el.parentElement.open)) st |= 8;
    else if (ae === 'false' || (tag === 'summary') || (tag === 'select' && !el.multiple && el.size <= 1)) st |= 128;
    if (tag === 'option' ? el.selected : ga(el, an, 'aria-selected') === 'true') st |= 16;
    else if (role === 'button' || role === 'link') {
      // the control that stands for its grid cell (see onlyControls) carries the cell's selection
      const pc = el.parentElement;
      if (pc && pc.getAttribute('aria-selected') === 'true' && COMPOSITE_ITEM.has(pc.getAttribute('role'))) st |= 16;
    }
    if (el === focused) st |= 32;
    // A readonly field made a combobox (Shoelace's select) only takes no
    // typing: a person still changes it by choosing, and Chromium does not
    // call it readonly.
    if ((el.readOnly === true && role !== 'combobox') || ga(el, an, 'aria-readonly') === 'true') st |= 256;
    if (el.required === true || ga(el, an, 'aria-required') === 'true') st |= 512;
    // An editing host its style makes read-only (-webkit-user-modify: MUI X's
    // date sections until the field has focus) is not editable to Chromium.
    if ((tag === 'input' && TEXTY.has(el.type)) || tag === 'textarea' ||
      (el.isContentEditable && getComputedStyle(el).webkitUserModify !== 'read-only')) st |= 1024;
    const ap = ga(el, an, 'aria-pressed');
    if (ap === 'true') st |= 2048; else if (ap === 'false') st |= 4096; else if (ap === 'mixed') st |= 2;
    const ai = ga(el, an, 'aria-invalid');
    if (ai !== null && ai !== 'false' || userInvalid(el)) st |= 8192;
    if (ga(el, an, 'aria-busy') === 'true') st |= 16384;
    if (an.includes('aria-owns')) st |= 65536; // its name may repeat what it owns
    if ((tag === 'select' && el.multiple) || ga(el, an, 'aria-multiselectable') === 'true') st |= 32768;
    return st;
  }

  // userInvalid: a native field that fails its constraints once the person
  // has changed it or tried to submit its form (:user-invalid), when the
  // browser marks it and says why in a bubble.
  const userInvalid = el => VALIDATED.has(el.localName) && el.willValidate && el.matches(':user-invalid');
  const VALIDATED = new Set(['input', 'select', 'textarea']);

  // choicesOf is what a drop-down <select> offers, as JSON: [how many
  // options, the first CHOICES_SHOWN labels]. A person opens it and reads
  // them; its popup is the browser's own and never in the page, so without
  // this an agent could choose only by guessing. '' for anything else.
  const CHOICES_SHOWN = 20;
  function choicesOf(el) {
    if (el.localName !== 'select' || listSelect(el)) return '';
    const shown = [];
    let n = 0;
    for (const o of el.options) {
      if (o.hidden) continue; // the popup leaves it out
      n++;
      if (shown.length < CHOICES_SHOWN) shown.push(collapse(o.label).slice(0, 80));
    }
    return JSON.stringify([n, ...shown]);
  }

  // The rest of a ref's state, as strings: [current, sort, level, valuemin,
  // valuemax, valuetext, error (the browser's message for a userInvalid field),
  // choices (choicesOf)].
  const RANGE = new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']);
  function extrasOf(el, role, an) {
    an = an || el.getAttributeNames();
    let cur = ga(el, an, 'aria-current');
    if (cur === 'false' || cur === '') cur = null;
    const sort = ga(el, an, 'aria-sort');
    let level = ga(el, an, 'aria-level') || '';
    if (!level && role === 'treeitem') {
      let n = 1;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const r = p.getAttribute('role');
        if (r === 'tree' || r === 'treegrid') break;
        if (r === 'treeitem') n++;
      }
      level = String(n);
    }
    let min = '', max = '', vt = '';
    if (RANGE.has(role)) {
      if (el.localName === 'input') {
        // a text field made a spin button states its bounds in ARIA
        min = el.min || ga(el, an, 'aria-valuemin') || ''; max = el.max || ga(el, an, 'aria-valuemax') || '';
        if (el.type === 'range') { min = min || '0'; max = max || '100'; }
      }
      else { min = ga(el, an, 'aria-valuemin') || ''; max = ga(el, an, 'aria-valuemax') || ''; }
      vt = ga(el, an, 'aria-valuetext') || '';
    }
    const err = userInvalid(el) ? collapse(el.validationMessage).slice(0, 200) : '';
    return [cur || '', sort && sort !== 'none' ? sort : '', level, min, max, vt, err, choicesOf(el)];
  }

  function valueOf(el, role) {
    const tag = el.localName;
    let v = '';
    if (tag === 'select') {
      if (listSelect(el)) return ''; // its options say which are selected
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
      // a spin button drawn as an editing host (a date field's segments)
      // states its value in ARIA first, as Chromium reads it
      v = (RANGE.has(role) && (iattr(el, 'aria-valuetext') || iattr(el, 'aria-valuenow'))) || el.innerText;
      if (!NONSPACE.test(v)) v = ''; // an empty editor's lone line break is no text, as on the AX path
    } else if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar') {
      v = iattr(el, 'aria-valuetext') || iattr(el, 'aria-valuenow') || '';
    } else if (role === 'combobox') {
      v = iattr(el, 'aria-valuetext') || shownText(el); // a button-like combobox shows its choice
    } else if (role === 'textbox' || role === 'searchbox') {
      // an element marked textbox shows its text as its value, as
      // Chromium reads it (Select2's rendered choice, role=textbox)
      v = iattr(el, 'aria-valuetext') || (tag === 'input' ? '' : el.innerText);
    }
    return v.length > 200 ? v.slice(0, 200) : v;
  }

  const CONTROLS = 'button,a,input,select,textarea,[role=button],[role=link],[role=checkbox]';
  const NATIVE_CONTROL = new Set(['input', 'select', 'textarea', 'button']);
  // what draws something a person sees without text
  const DRAWN = 'img,svg,canvas,video,iframe,object,embed,input,button,select,textarea,[role]';

  // The text that names an unnamed row or list item for a person: for a table
  // row, its first cell that is text rather than a control.
  function firstText(el) {
    if (el.localName === 'tr') {
      // its td/th children, which are its cells, without building the collection
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName !== 'td' && c.localName !== 'th') continue;
        if (c.firstElementChild && c.querySelector(CONTROLS)) continue; // a cell of bare text holds no control
        // a sort arrow marked aria-hidden (React Aria's ▲) is no part of the name
        let t = collapse(c.firstElementChild && c.querySelector('[aria-hidden="true"]') ? unhiddenText(c) : c.textContent);
        if (!t && c.firstElementChild && c.getRootNode() !== document) {
          // a shadow tree's cell shows what the host put in its slots
          // (Vaadin's grid), as the AX tree reads it
          const sl = [...c.querySelectorAll('slot')].flatMap(x => x.assignedElements({flatten: true}));
          if (sl.some(a => a.matches(CONTROLS) || a.querySelector(CONTROLS))) continue;
          t = collapse(sl.map(a => a.textContent).join(' '));
        }
        if (t) return t;
      }
      return '';
    }
    return firstTextWalk(el);
  }

  // unhiddenText is el's text without what aria-hidden hides.
  function unhiddenText(el) {
    let out = '';
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = tw.nextNode(); t; t = tw.nextNode()) {
      const h = t.parentElement && t.parentElement.closest('[aria-hidden="true"]');
      if (!h || !el.contains(h)) out += t.data;
    }
    return out;
  }

  // Only text a person can read names the container, as in the AX tree: not
  // a hidden menu's group label (APG landmarks' skip-to menu in a banner),
  // nor a control's own text (a role=checkbox div in a list item: its name
  // says nothing about which item it is), nor the label of a checkbox or
  // radio button, which Chromium leaves out as its control's name.
  function firstTextWalk(el) {
    const inside = sel => { const c = t => t.parentElement && t.parentElement.closest(sel); return t => { const a = c(t); return a && el.contains(a); }; };
    // (an <a> without href is no link to Chromium: its text names the container)
    const inControl = inside('button,a[href],input,select,textarea,[role=button],[role=link],[role=checkbox],[role=radio],' +
      '[role=textbox],[role=combobox],[role=menuitem],[role=option],[role=switch]'), inHidden = inside('[aria-hidden="true"]');
    const inLabel = inside('label');
    const checkLabel = t => {
      if (!inLabel(t)) return false;
      const c = t.parentElement.closest('label').control;
      return !!c && c.localName === 'input' && (c.type === 'checkbox' || c.type === 'radio');
    };
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {acceptNode: t =>
      !t.parentElement || inControl(t) || inHidden(t) || checkLabel(t) || (t.data.trim() && !t.parentElement.checkVisibility(VISIBILITY))
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    for (let t = tw.nextNode(); t; t = tw.nextNode()) {
      const s = collapse(t.data);
      if (s) return s;
    }
    return '';
  }

  const clip = (s, n) => s.length > n ? s.slice(0, n) + '…' : s;

  // onlyControls: el holds a control (sel) and every piece of text a person
  // reads in it is inside one: what el says is what its controls say
  // (a calendar cell holding its day's button, a star rating's group of
  // radios). Such an element adds no thing of its own to act on.
  const TEXT_CONTROL = 'a[href],button,input:not([type=hidden]),select,textarea,label,[role=button],[role=link],' +
    '[role=checkbox],[role=radio],[role=switch],[role=menuitem],[role=menuitemradio],[role=menuitemcheckbox],' +
    '[role=option],[role=treeitem],[role=tab],[role=combobox],[role=textbox],[role=searchbox],[role=slider],[role=spinbutton]';
  const FIELD = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=reset]):not([type=image]),' +
    'textarea,select,[role=combobox],[role=textbox],[role=searchbox]';
  function sorted(el) { const v = el.getAttribute('aria-sort'); return !!v && v !== 'none'; }

  function onlyControls(el, extra) {
    if (!el.querySelector(TEXT_CONTROL) && !(extra && extra.size)) return false;
    let held = !!el.querySelector(TEXT_CONTROL);
    const inCtl = n => { const c = n.parentElement && n.parentElement.closest(TEXT_CONTROL); return !!c && c !== el && el.contains(c); };
    const inExtra = n => { if (!extra) return false; for (let p = n.parentElement; p && p !== el; p = p.parentElement) if (extra.has(p)) return (held = true); return false; };
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = tw.nextNode(), n = 0; t; t = tw.nextNode()) {
      if (++n > 200) return false;
      if (!NONSPACE.test(t.data) || inCtl(t) || inExtra(t)) continue;
      const p = t.parentElement;
      if (p && p !== el && (p.closest('[aria-hidden="true"]') || !p.checkVisibility(VISIBILITY))) continue;
      return false;
    }
    return held;
  }

  // The text a person reads in el, as the AX tree counts it: no aria-hidden
  // parts, no zero-width characters.
  // Text a script or style hides (a folded folder's children) is not what
  // a person sees of the element, and does not name it.
  function shownText(el) {
    let out = '', last = null, lastShown = true;
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {acceptNode: t => {
      const p = t.parentElement;
      if (p && p.closest('[aria-hidden="true"]') && el.contains(p.closest('[aria-hidden="true"]'))) return NodeFilter.FILTER_REJECT;
      if (p !== last) { last = p; lastShown = !p || p === el || p.checkVisibility(); }
      return lastShown ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
    }});
    for (let t = tw.nextNode(); t && out.length < 400; t = tw.nextNode()) out += ' ' + t.data;
    return collapse(out.replace(/[\u200b-\u200d\ufeff]/g, ''));
  }

  // Each field read of a DOMRect is a call into the browser (thousands of
  // refs read ten each): the four that define it are read once. For a box
  // of positive size, which inView asks first, the browser's bottom and
  // right are y + height and x + width, its top and left y and x.
  function box(el, vw, vh) {
    const b = rectOf(el);
    const x = b.x, y = b.y, w = b.width, h = b.height;
    const inView = w > 0 && h > 0 && y + h > 0 && x + w > 0 && y < vh && x < vw ? 1 : 0;
    return [Math.round(x), Math.round(y), Math.round(w), Math.round(h), inView];
  }

  // Where an element can be seen: what the ancestors that clip their
  // overflow (a scrolling list, an overflow:hidden strip) leave of the
  // viewport, so an option scrolled out of its own list is out of view
  // wherever the window stands. region(a) is the rectangle a's in-flow
  // content shows in (null: anywhere); an absolutely positioned element
  // escapes the clipping ancestors inside its containing block, a fixed one
  // all of them. The AX path computes the same from a DOM snapshot
  // (dom.go, clipOf): change both or neither. Reset per read.
  let regions = new Map();
  // styles read for regions, once per element per read (the walk carries
  // regions down itself; these serve refs inside refs and the delta)
  let styles = new Map();
  const css = el => {
    let c = styles.get(el);
    if (!c) { c = getComputedStyle(el); styles.set(el, c); }
    return c;
  };
  const domParent = el => el.parentElement || (el.parentNode && el.parentNode.host) || null;
  function limitOf(el, cs) {
    if (cs.position === 'fixed') return null;
    let p = domParent(el);
    if (cs.position === 'absolute') while (p && p.localName !== 'html' && css(p).position === 'static') p = domParent(p);
    return p ? regionOf(p) : null;
  }
  function regionOf(a) {
    let r = regions.get(a);
    if (r !== undefined) return r;
    const cs = css(a);
    r = clipBy(a, cs.display, cs, limitOf(a, cs));
    regions.set(a, r);
    return r;
  }
  // clipOf is the region el shows in, [x, y, w, h], or ['', '', '', ''] when
  // no ancestor clips it.
  const NO_CLIP = ['', '', '', ''];
  const clipOf = el => limitOf(el, css(el)) || NO_CLIP;

  // clipBy: the region el's content shows in, given the region it shows in
  // itself (limit). regionOf climbs to find limit; the walk knows it from
  // the ancestors it came through.
  // (A computed style answers each property read anew: the walk reads
  // display once and passes it, and reads the overflow shorthand, which is
  // 'visible' exactly when both axes are.)
  function clipBy(el, disp, cs, limit) {
    const t = el.localName;
    if (t === 'html' || t === 'body' || disp === 'contents' || cs.overflow === 'visible') return limit;
    const b = el.getBoundingClientRect();
    const x = Math.round(b.x), y = Math.round(b.y), w = Math.round(b.width), h = Math.round(b.height);
    if (!limit) return [x, y, w, h];
    const l = Math.max(limit[0], x), tp = Math.max(limit[1], y);
    return [l, tp, Math.max(0, Math.min(limit[0] + limit[2], x + w) - l), Math.max(0, Math.min(limit[1] + limit[3], y + h) - tp)];
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
  let described = new Set(); // weak refs of this walk named by describe(): no text of their own
  function intern(s) {
    if (!s) return 0;
    let i = sid.get(s);
    if (i === undefined) { strs.push(s); i = strs.length; sid.set(s, i); }
    return i;
  }

  // row of a ref: [0, depth, k, role#, name, state, value, x, y, w, h, inView, stable, landmark#, context#,
  //                 group#, row, up (key of the enclosing ref, -1 for none), then, only when one is set:
  //                 current, sort, level, valuemin, valuemax, valuetext, and, only when an ancestor clips
  //                 it, clip x, y, w, h (clipOf), and, only when nameOf changed the browser's name, that
  //                 name (raws) and 1 when it named what the browser leaves unnamed (lent), and, only
  //                 when it shows text its name does not say, that text (showsOf), and, only for a
  //                 userInvalid field, the browser's message, and, only for a drop-down <select>, its
  //                 choices (choicesOf); a field before a set one is '' when it is not set itself]
  // limit is the region el shows in when the walk knows it (see walkDOM),
  // undefined when it does not.
  function refRow(el, role, name, depth, lm, ctx, focused, vw, vh, group, rowNo, up, limit) {
    const b = box(el, vw, vh);
    const an = el.getAttributeNames();
    const k = keyOf(el), st = stateOf(el, role, focused, an), x = extrasOf(el, role, an);
    let v = valueOf(el, role);
    // a button-like combobox showing its own name (its placeholder says its
    // label) shows no choice, as the AX path reads it (choiceShown)
    if (role === 'combobox' && v && name && el.localName !== 'input' && el.localName !== 'select' && !el.isContentEditable && collapse(v) === name) v = '';
    S.sig[k] = st + '|' + v + '|' + x.join('|');
    S.role[k] = role;
    // Roles and contexts repeat over thousands of rows: they go out interned,
    // and the trailing extras only when one is set (the payload's size is
    // most of a large page's first look).
    const row = [0, depth, k, intern(role), name, st, v, b[0], b[1], b[2], b[3], b[4], stableOf(el, an), intern(lm), intern(ctx), intern(group), rowNo || 0, up === undefined ? -1 : up];
    const c = limit === undefined ? clipOf(el) : limit || NO_CLIP;
    const raw = raws.get(el), isLent = lent.has(el), sh = showsOf(el, role, name, an);
    const er = x[6], ch = x[7];
    if (x[0] || x[1] || x[2] || x[3] || x[4] || x[5] || c[0] !== '' || raw || isLent || sh || er || ch) row.push(x[0], x[1], x[2], x[3], x[4], x[5]);
    if (c[0] !== '' || raw || isLent || sh || er || ch) row.push(c[0], c[1], c[2], c[3]);
    if (raw || isLent || sh || er || ch) row.push(raw || ''); // the browser's name, when nameOf showed less of it
    if (isLent || sh || er || ch) row.push(isLent ? 1 : ''); // named though the browser leaves it unnamed (lentName)
    if (sh || er || ch) row.push(sh || ''); // what a person reads on it, when its name says something else
    if (er || ch) row.push(er || ''); // the browser's message for a field that fails its constraints (userInvalid)
    if (ch) row.push(ch); // what a drop-down <select> offers (choicesOf)
    return row;
  }

  // The roles whose text a person reads on the control itself.
  const SHOWS_ROLES = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
    'treeitem', 'gridcell', 'switch']);
  // showsOf is the text a person reads on a ref the page named otherwise
  // (aria-label, aria-labelledby): a calendar's "Choose Month" button that
  // shows "June". Empty when the name holds its words, when it has hardly
  // any (an icon), or when it is long (a card that is a link: its name is
  // what the agent needs).
  function showsOf(el, role, name, an) {
    if (!SHOWS_ROLES.has(role) || !(an.includes('aria-label') || an.includes('aria-labelledby') || (el.labels && el.labels.length))) return '';
    if (el.localName === 'input' || el.localName === 'select' || el.localName === 'textarea') return '';
    // The words of textContent hold those of innerText: when the name says
    // them all ("Delete" on "Delete order 12"), innerText's layout-aware
    // read is not needed (a large table has thousands of such buttons).
    const n = name.toLowerCase(), tc = el.textContent.toLowerCase();
    // the whole text inside the name holds each of its words ("Delete" on
    // "Delete order 12"), without matching them out one by one
    const whole = tc.trim();
    if (whole && n.includes(whole)) return '';
    const all = tc.match(WORD);
    if (!all || all.every(w => n.includes(w))) return '';
    const t = collapse(el.innerText.replace(/[\u200b-\u200d\ufeff]|[\ue000-\uf8ff]/g, ''));
    if (!t || t.length > SHOWS_MAX) return '';
    const words = t.toLowerCase().match(WORD);
    // a glyph or one letter drawn as an icon (▾, ⇤, ?, X): the name says what it does
    if (!words || words.join('').length < 2) return '';
    // the name says it, maybe in other words: "Alt + 0" for "(Alt+0)", "June 1st" for a day's "1"
    return words.every(w => n.includes(w)) ? '' : t;
  }
  const WORD = /[\p{L}\p{N}]+/gu;
  const SHOWS_MAX = 60;

  // Page text. A person reads more than controls: paragraphs, list items,
  // table rows, what a status line says. Each text block is one row,
  // [4, depth, k, kind, text, group#, row, up, landmark#]; kind is 'text', 'row', or
  // the live-region role (status, alert, log, marquee, timer). A block
  // gathers the text of its subtree except what refs (their names say it),
  // headings, landmarks and nested blocks show themselves. The text of a
  // block is known only when its subtree has been walked: the row holds its
  // sink and is filled in at the end.
  const LIVE = new Set(['status', 'alert', 'log', 'marquee', 'timer']);
  const TEXT_TAGS = new Set(['p', 'li', 'dt', 'dd', 'blockquote', 'pre', 'figcaption', 'caption', 'legend']);
  const TEXT_ROLES = new Set(['paragraph', 'listitem', 'note', 'tooltip', 'definition', 'term', 'blockquote', 'caption']);
  const CELL = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
  // Roles whose content is only their drawing (ARIA's children
  // presentational) though no content names them: a slider's thumb, track
  // and ripple layer (Vuetify's, which listens for the press) are the slider.
  const DRAWN_INSIDE = new Set(['slider']);
  const TEXT_HOLDER = new Set(['tabpanel', 'dialog', 'alertdialog', 'group', 'region', 'document', 'article', 'feed', 'application']);
  const INLINE = new Set(['inline', 'contents']);
  const TEXT_MAX = 300;

  const NONSPACE = /\S/; // what trim() would leave, without making the trimmed string
  function ownText(el) {
    return someText(el, c => NONSPACE.test(c.data));
  }
  // someText: whether a text child of el passes ok. The children of an
  // element of many (a table's body of 2,000 rows) are found by XPath,
  // which looks at them without making each one a JS object: on a find's
  // path through such a body, the one row it visits is all it wraps.
  // (XPath may give adjacent texts as one node: each run is read whole.)
  const MANY_CHILDREN = 64;
  function someText(el, ok) {
    if (el.nodeType === 1 && el.childElementCount > MANY_CHILDREN) {
      const r = document.evaluate('text()', el, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      for (let i = 0; i < r.snapshotLength; i++) {
        for (let c = r.snapshotItem(i); c && c.nodeType === 3; c = c.nextSibling) if (ok(c)) return true;
      }
      return false;
    }
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && ok(c)) return true;
    return false;
  }

  // boxed is el or its nearest ancestor in the flat tree that has a box of
  // its own (a slot, display: contents, has none).
  function boxed(el) {
    for (let n = el; n; n = n.assignedSlot || (n.parentNode && n.parentNode.nodeType === 11 ? n.parentNode.host : n.parentNode)) {
      if (n.nodeType === 1 && getComputedStyle(n).display !== 'contents') return n;
    }
    return el;
  }

  // spaced: el has text of its own, or a space between its children
  // (<span>Invoice 7</span> <span>$980.00</span> reads as two words).
  function spaced(el) {
    if (ownText(el)) return true;
    if (el.childElementCount < 2) return false;
    return someText(el, c => c.data.length > 0);
  }

  function sinkText(sink) {
    if (sink.cells) {
      const cells = [];
      for (let i = 0; i < sink.cells.length; i++) { const t = sinkText(sink.cells[i]); if (t) cells.push(t); }
      return clip(cells.join(' | '), TEXT_MAX);
    }
    let own = '', all = '';
    for (const p of sink.parts) {
      if (typeof p === 'string') { own += p; all += p; } else all += p.parts.join('');
    }
    // A link's words stay in the sentence they stand in ("… implements
    // the Dialog (Modal) Pattern. …"), as a person reads it; a block of
    // links alone (a menu's item, a cell holding its link) is its refs.
    const t = all !== own && WORDY.test(own) ? all : own;
    return clip(collapse(t.replace(/[\u200b-\u200d\ufeff]|[\ue000-\uf8ff]/g, '')), TEXT_MAX);
  }
  const WORDY = /[\p{L}\p{N}]/u;

  // A meter or progress bar is read, not acted on: a person reads its
  // value off the bar ("CPU usage: 90%"), so it is a line of page text of
  // its own kind, named and valued as the AX tree values it.
  const GAUGE = new Set(['meter', 'progressbar', 'progress']);
  const GAUGE_ROLE = {meter: 'meter', progress: 'progressbar'};
  function gaugeText(el) {
    const name = collapse(cName(el));
    let v = el.getAttribute('aria-valuetext');
    if (!v) {
      let now = el.getAttribute('aria-valuenow'), min = el.getAttribute('aria-valuemin'), max = el.getAttribute('aria-valuemax');
      if (now === null && (el.localName === 'meter' || el.localName === 'progress') && el.position !== -1) {
        now = String(el.value); min = el.localName === 'meter' ? String(el.min) : '0'; max = String(el.max);
      }
      if (now !== null && now !== '') {
        const n = +now, lo = min === null || min === '' ? 0 : +min, hi = max === null || max === '' ? 100 : +max;
        // a value on a scale reads as a share of it, as the AX tree's default text does
        v = lo === 0 && hi === 100 ? clipNum(n) + '%' : clipNum(n) + ' of ' + clipNum(hi);
      }
    }
    return name && v ? name + ': ' + v : name || v || '';
  }
  function clipNum(n) { return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100); }

  // textBlock says whether el opens a text block, and of what kind.
  function textBlock(el, tag, role, sink, disp, L) {
    if (LIVE.has(role)) return role;
    if (GAUGE.has(role) || GAUGE.has(tag)) return GAUGE_ROLE[tag] || role;
    if (role === 'row') return 'row';
    if (sink && (sink.cell || sink.live)) return ''; // a list inside a table cell reads as the cell's text;
    // a live region is announced as one message, whatever paragraphs it holds
    if (TEXT_TAGS.has(tag) || TEXT_ROLES.has(el.getAttribute('role'))) return 'text';
    if (!sink && !role && gathers(el, tag, disp, L)) return 'text';
    if (!sink && ownText(el)) return 'text';
    // pictures outside any text block (an item's row of icons, a lone
    // photo): a line of their own, the pictures of one box on one line
    if (!sink && (tag === 'img' || role === 'image' || role === 'img' || (!INLINE.has(disp) && onlyPictures(el)))) return 'text';
    return '';
  }

  function onlyPictures(el) {
    const n = el.childElementCount;
    if (n < 2 || n > GATHER_MAX_KIDS) return false;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName !== 'img') return false;
    return true;
  }

  // The text a control acts on, when generic containers hold it: a card
  // <div><span>Invoice 7</span> <span>$980.00</span><button>Delete</button></div>
  // or a mail row of divs reads as one line ("Invoice 7 $980.00") before
  // its controls, not as scattered pieces. A generic block gathers its text
  // when its children or grandchildren hold both text and a control (and no
  // one child holds both: that child is the card), it has no structure of
  // its own (headings, paragraphs, lists, roles), and its text is short. Only children and grandchildren are looked at, so the
  // cost per element is bounded.
  const ACTS = 'a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[role=checkbox],' +
    '[role=switch],[role=radio],[role=tab],[role=menuitem],[role=combobox],[onclick]';
  const GATHER_MAX_KIDS = 12;
  function gathers(el, tag, disp, L) {
    // the page itself is no card: a page short enough to gather would
    // read as one line, its task before its controls and its footer after
    if (INLINE.has(disp) || STRUCT_TAGS.has(tag) || tag === 'body' || iattr(el, 'role') !== null) return false;
    const n = el.childElementCount;
    if (n < 2 || n > GATHER_MAX_KIDS) return false;
    let ctl = false, text = ownText(el);
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      const k = gatherKind(c, L);
      if (k === 2) return false;
      if (k === 1) { ctl = true; continue; }
      if (ownText(c)) text = true;
      if (c.childElementCount > GATHER_MAX_KIDS) return false;
      let cctl = false, ctext = false;
      for (let g = c.firstElementChild; g; g = g.nextElementSibling) {
        const kg = gatherKind(g, L);
        if (kg === 2) return false;
        if (kg === 1) cctl = true; else if (ownText(g)) ctext = true;
      }
      if (cctl && (ctext || ownText(c))) return false; // the child is the card: it gathers its own
      ctl = ctl || cctl; text = text || ctext;
    }
    return text && ctl && el.textContent.length <= TEXT_MAX;
  }

  // gatherKind: 1 a control, 2 structure that reads on its own, 0 neither.
  function gatherKind(x, L) {
    const t = x.localName;
    if (STRUCT_TAGS.has(t) || TEXT_TAGS.has(t) || t === 'iframe') return 2;
    if (L.hot.has(x) || x.matches(ACTS)) return 1;
    return iattr(x, 'role') !== null ? 2 : 0;
  }

  // modalBlock: while a dialog is open with showModal(), everything outside
  // it is inert — no one can read or click it, and Chromium's AX tree drops
  // it. The walk skips what branches off the modal's ancestors: the set
  // holds those ancestors (not the modal), and .modal the dialog. null when
  // no modal is open. Of several, the innermost (a modal opened from one)
  // or else the last in the document is taken as the topmost.
  function modalBlock() {
    const open = document.querySelectorAll('dialog:modal');
    if (!open.length) return null;
    let modal = open[open.length - 1];
    for (const d of open) if (d !== modal && modal.contains(d)) modal = d;
    const set = new Set();
    for (let a = modal.parentElement; a; a = a.parentElement) set.add(a);
    set.modal = modal;
    return set;
  }

  // dropCovered takes back the ref of a clickable that only the weaker
  // signals made one (a focusable suggestion list, a list with a listener)
  // when clickables were found inside it and all its text is theirs: a
  // person sees the suggestions, not the list. The refs inside move up to
  // what held it. So does the wrapper of one control that says nothing the
  // control does not (a custom element's host with a listener around the
  // button in its shadow tree, a list item with a handler around its one
  // link): its only ref inside has its name, or it has no text at all. (A
  // wrapper with a role of its own, a tab around its link, says what the
  // control does not: its role and state.)
  function dropCovered(rows, cand, weakRefs) {
    const inner = new Map(); // key of a weak ref → elements of the refs right inside it
    const innerName = new Map(); // key of a weak ref → the name of its one ref inside
    const weakKeys = new Set(weakRefs.map(keyOf));
    for (const r of rows) if (r[0] === 0 && weakKeys.has(r[17])) {
      let a = inner.get(r[17]);
      if (!a) inner.set(r[17], a = new Set());
      a.add(S.els[r[2]]);
      innerName.set(r[17], r[4]);
    }
    if (!inner.size) return;
    const drop = new Map(); // key → the up of its row
    for (const r of rows) {
      if (r[0] !== 0 || !inner.has(r[2])) continue;
      const el = S.els[r[2]], set = inner.get(r[2]);
      if (!cName(el).trim() && onlyControls(el, set)) drop.set(r[2], r[17]);
      else if (set.size === 1 && iattr(el, 'role') === null && (r[4] === innerName.get(r[2]) || !NONSPACE.test(el.textContent) && described.has(el))) drop.set(r[2], r[17]);
    }
    if (!drop.size) return;
    const upOf = k => { while (drop.has(k)) k = drop.get(k); return k; };
    let w = 0, c = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (r[0] === 0) {
        const el = cand[c++];
        if (drop.has(r[2])) { S.sig[r[2]] = undefined; weakRefs.splice(weakRefs.indexOf(el), 1); covered.push([el, r]); continue; }
        r[17] = upOf(r[17]);
      } else if (r[0] === 4) r[7] = upOf(r[7]);
      rows[w++] = r;
    }
    rows.length = w;
    const keep = cand.filter(el => !drop.has(S.index.get(el)));
    cand.length = 0;
    cand.push(...keep);
  }

  // touchStyled reports whether a style sheet of root (a document or a
  // shadow root) may set touch-action: only then can an element without a
  // style attribute have touch-action none (no user-agent rule sets it on
  // what the walk reads), and the walk reads it — one computed style read
  // fewer per element on most pages. A sheet that cannot be read
  // (cross-origin) or nests too deep counts as may.
  const touchStyled = root => sheetsMaySet(root, 'touch-action');

  // walkDOM is the walk itself; see S.walk.
  function walkDOM(opts) {
    forgetRect();
    strs = []; sid = new Map(); S.sig = []; S.role = []; gridMemo = new Map(); regions = new Map(); styles = new Map(); S.scrolled = false;
    raws = new Map(); lent = new Set(); covered = []; disabledMemo = new Map(); stoodInMemo = new Map();
    const L = listened();
    setInternals(hearInternals());
    const vw = innerWidth, vh = innerHeight, focused = deepActive();
    const rows = [], pick = [], cand = [], shadows = [], texts = [], weakRefs = [];
    described = new Set();
    let closed = hearClosed(), heading = '';
    // stack entries: [element, depth, landmark, context, inRef, group, rowCounter, row, up, parentCursor, sink,
    // region, positionedRegion, whole]: whole says a find's walk enters every child (see only, below); the
    // two before it are where the parent's in-flow content shows and where its
    // absolutely positioned content shows (regionOf of the parent and of its nearest positioned ancestor;
    // null: anywhere), carried down so no ref climbs its ancestors for them; undefined once an ancestor's
    // style was not read (inside a ref), where clipOf climbs.
    // a text node or a block boundary (' ') is [node, sink]. Each element's style is read once: a pointer
    // cursor an element sets itself marks it clickable, display:none hides its subtree.
    const blocked = modalBlock();
    // whether any sheet read so far may set touch-action (a shadow root's
    // sheets count from its host on: :host and ::slotted rules style the
    // host and its light children, walked after it)
    let touch = touchStyled(document);
    // only: a find's walk (S.find) visits just these elements, and every
    // element inside one of opened
    const only = opts.only || null, opened = opts.opened || null;
    // the children on only's paths, of each parent node, in document order:
    // a path through a table's body visits one row of thousands without
    // looking at the others (their texts are none of a find's business)
    let kids = null;
    if (only !== null) {
      kids = new Map();
      for (const n of only) {
        const p = n.parentNode;
        if (!p) continue;
        const l = kids.get(p);
        if (l) l.push(n); else kids.set(p, [n]);
      }
      for (const l of kids.values()) if (l.length > 1) l.sort((a, b) => a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
    }
    const stack = [[document.documentElement, 0, '', '', false, '', null, 0, -1, '', null, null, null, false]];
    // visit reads one element. The loop body is a function of its own, not
    // inline in the loop: a first walk runs mostly before V8 has optimized
    // its code, and a function called thousands of times is optimized after
    // a few hundred calls, where the loop of one long function waits for an
    // on-stack replacement of the whole of walkDOM (measured: the cold first
    // walk of the 6,000-control table 453 → 373 ms in the page, median of
    // 20 fresh loads each, interleaved).
    const visit = e => {
        // indexed, not destructured: unoptimized code destructures through the iterator protocol
        const el = e[0], depth = e[1], lm = e[2], ctx = e[3], inRef = e[4], group = e[5], rows_ = e[6], rowNo = e[7],
          up = e[8], parentCursor = e[9], sink = e[10], region = e[11], posRegion = e[12], whole = e[13];
        if (blocked && blocked.has(el.parentElement) && !blocked.has(el) && el !== blocked.modal) return; // inert behind the modal
        const tag = el.localName;
        if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript' || tag === 'head') return;
        // one call answers the attribute reads below for most cells and wrappers
        const bare = !el.hasAttributes() && !(ACC.internals && ACC.internals.has(el));
        if (!bare && (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert'))) return; // hidden from everyone's reading
        let cs = null, disp = '', cursor = '', limit, childRegion, childPos, ownLimit = false;
        if (!touch && el.shadowRoot && touchStyled(el.shadowRoot)) touch = true;
        if (inRef !== true || sink) {
          cs = getComputedStyle(el);
          disp = cs.display;
          if (disp === 'none') return;
          if (opts.pointer && inRef !== true) {
            cursor = cs.cursor;
            // a drag handle (a sortable list's item, a resize grip): drag
            // libraries turn off touch panning on what they move, and a person
            // grabs it as they would click it
            if (cursor !== 'pointer' && (touch || (!bare && el.hasAttribute('style'))) && cs.touchAction === 'none' && tag !== 'body' && tag !== 'html') cursor = 'pointer';
            // a grab or move cursor is the hand a person takes an item with
            // (SortableJS's list items, a kanban card): a thing to drag
            else if ((cursor === 'grab' || cursor === 'move') && tag !== 'body' && tag !== 'html') cursor = 'pointer';
          }
          if (region !== undefined) {
            if (!el.firstElementChild && !el.shadowRoot) {
              ownLimit = true; // a leaf clips nothing below it: its own limit is read only if it is a ref
            } else if (region === null && posRegion === null && (tag === 'html' || tag === 'body' || disp === 'contents' || cs.overflow === 'visible')) {
              // nothing clips above and el clips nothing: whatever its
              // position, its content shows anywhere (what the branch below
              // gives), without reading the position
              limit = null; childRegion = null; childPos = null;
            } else {
              const pos = cs.position;
              limit = pos === 'fixed' ? null : pos === 'absolute' ? posRegion : region;
              childRegion = clipBy(el, disp, cs, limit);
              childPos = pos !== 'static' || tag === 'html' ? childRegion : posRegion;
            }
          }
        }
        let childDepth = depth, childLm = lm, childCtx = ctx, childIn = inRef;
        let childGroup = group, childRows = rows_, childRow = rowNo, childUp = up, childSink = sink;
        const hasRole = !bare && iattr(el, 'role') !== null;
        if (tag === 'iframe' || tag === 'frame') {
          if (!hiddenInWalk(el)) {
            rows.push([3, depth, keyOf(el), collapse(el.getAttribute('title') || el.getAttribute('name') || '')]);
            pick.push(el);
          }
          return;
        }
        let role = '';
        if (STRUCT_TAGS.has(tag) || hasRole) {
          role = (!hasRole && IMPLICIT[tag]) || roleAt(el);
          if (role === 'heading') {
            if (!hiddenInWalk(el)) {
              const name = collapse(cName(el));
              const level = +(el.getAttribute('aria-level') || (/^h[1-6]$/.test(tag) ? tag[1] : 2));
              rows.push([2, depth, level, name, keyOf(el), intern(lm)]); // keyed: a heading that changes is a delta
              heading = name;
              childSink = null; // its text is the heading line
            }
          } else if (LANDMARK.has(role)) {
            const name = collapse(cName(el));
            if ((role !== 'form' && role !== 'region') || name) {
              if (!hiddenInWalk(el)) {
                rows.push([1, depth, role, name, (el.getAttribute('aria-modal') === 'true' || el.matches(':modal')) ? 1 : 0]);
                childDepth = depth + 1;
                childLm = role + (name ? ' ' + lq(name) : '');
                heading = '';
                childSink = null;
              }
            }
          }
          if (role === 'table' || role === 'grid' || role === 'treegrid') {
            const tn = collapse(cName(el));
            childGroup = role + (tn ? ' ' + lq(clip(tn, 60)) : '') + declaredRows(el);
            childRows = {n: 0}; childRow = 0;
          } else if (role === 'row' && rows_) {
            childRow = ++rows_.n;
          }
          if (CONTEXT.has(role)) {
            // rows and list items are named by their content unless labelled
            let label = NAMED_FROM_CONTENT.has(role) && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')
              ? '' : collapse(cName(el));
            if (!label) label = firstText(el);
            if (label) childCtx = role + ' ' + lq(clip(label, 60));
          }
        }
        let isRef = false, toggleBox = false;
        const strong = strongCandidate(el, bare);
        if (strong) isRef = true;
        // A grid's cell that is a ref only for being an item of the grid, and
        // holds the control a person clicks (a date picker's day button), is
        // that control: one ref, the control, carrying the cell's selection.
        // (A bare <td>, no attributes at all, is such a cell too; aria-sort
        // "none" sorts nothing, as on the AX path.)
        if (isRef && (bare || !el.hasAttribute('tabindex') && !sorted(el)) && (tag === 'td' || tag === 'th' || COMPOSITE_ITEM.has(el.getAttribute('role'))) && onlyControls(el)) isRef = false;
        // A toggle role on a box outside the tab order, around the native
        // checkbox a person's click and focus reach (a switch's track marked
        // role=checkbox over its input role=switch), is that input: one ref.
        // The box a library draws around the field that is the combobox
        // (Vuetify's v-field, role=combobox, around its input role=combobox)
        // is that field: one ref, the field a person types into or clicks.
        else if (isRef && hasRole && role === 'combobox' && wrapsCombobox(el, tag)) isRef = false;
        else if (isRef && hasRole && TOGGLE_ROLES.has(role) && tag !== 'input' && !(el.hasAttribute('tabindex') && el.tabIndex >= 0) &&
          [...el.querySelectorAll('input[type=checkbox],input[type=radio]')].some(i => !hiddenInWalk(i))) { isRef = false; toggleBox = true; }
        else if (inRef !== true) {
          const weak = weakCandidate(el, bare);
          if (weak === 'edit') isRef = true;
          // A label of a control that is a ref (a transparent or visually
          // hidden checkbox under a drawn box), and the drawing inside it, show
          // a pointer because a click there is the control's: no ref of their own.
          else if ((weak || (cursor === 'pointer' && parentCursor !== 'pointer' && inRef !== 'label' && !(tag === 'label' && el.control && !hiddenInWalk(el.control))) ||
            (L.hot.has(el) && !delegationRoot(el, L))) && !(!hasRole && drawsToggle(el))) isRef = 'named';
          // The box around a field (a select's or combobox's frame that
          // focuses or opens it) or around a group of controls whose text is
          // all theirs (a star rating's radios, a tree's items) is no control
          // of its own: a person clicks the field or the controls.
          // (A container the page named, a listbox "Colours", stays a ref, as
          // in the AX tree.)
          if (isRef === 'named' && (el.querySelector(FIELD) || onlyControls(el)) && !cName(el).trim()) isRef = false;
          // A focusable box with no role that holds controls is the widget's
          // frame (a date picker's panel), not a thing to click.
          if (isRef === 'named' && weak === 'focus' && !hasRole && el.querySelector(HOLDS) && !cName(el).trim()) isRef = false;
          // An empty box with a listener (the container a framework renders
          // its portals into, before anything is in it, or holding only an
          // empty layer: Blueprint's portal and its overlay) has nothing to
          // click. (A control is no such box: a checkbox input a label draws,
          // sized 0×0 under the drawing, is the label's control, as on the AX path.)
          if (isRef === 'named' && !strong && (!el.firstChild || !NONSPACE.test(el.textContent) && !el.querySelector(DRAWN))) {
            const b = el.getBoundingClientRect(); if (!b.width || !b.height) isRef = false;
          }
        }
        // seen: el.checkVisibility(VISIBILITY) held (read here for a ref): a
        // link inside a sentence asks again below whether its words show
        let seen = false;
        if (isRef && (seen = !hiddenInWalk(el))) {
          let rrole = roleOf(el);
          let name = nameOf(el, rrole);
          // A native control a listener also marks (Select2's search field) is
          // the browser's control, unnamed as the AX path reads it: no
          // description from its class.
          if (isRef === 'named' && strong && !name && NATIVE_CONTROL.has(tag) && IROLE.has(rrole)) isRef = true;
          if (isRef === 'named') {
            if (!rrole || rrole === 'none' || rrole === 'presentation') rrole = 'generic';
            if (rrole === 'generic' && (mouseAnchor(el) || (tag === 'a' && !el.hasAttribute('href') && L.hot.has(el)))) rrole = 'link';
            if (!name && !LANDMARK.has(rrole) && rrole !== 'heading') {
              name = describe(el); described.add(el);
              // a control the browser leaves unnamed (a role=button around an
              // icon, a slider's thumb): the AX path takes the same name
              if (strong && IROLE.has(rrole)) lent.add(el);
            }
            weakRefs.push(el);
          }
          // An empty, unnamed cell of a grid outside the tab order (a date
          // picker's blank days, tabindex=-1 or none) is nothing to act on, and
          // its numbered handle (cell-1) would read as a day of the month.
          const blank = !name && COMPOSITE_ITEM.has(rrole) && !(el.hasAttribute('tabindex') && el.tabIndex >= 0);
          // (region null: nothing around it clips it; a control can clip itself)
          const hidden = strong && (region !== null || ownClip(tag === 'option' ? el.closest('select') || el : el)) && stoodIn(el);
          // the AX path hears that a clipped control is no ref (flag 3, see textWalk)
          if (hidden && textMode) covered.push([el, refRow(el, rrole, name, depth, lm, ctx, focused, vw, vh, childGroup, childRow, up, null), 3]);
          if (!hidden && rrole && rrole !== 'none' && rrole !== 'presentation' && !blank && !(isRef === 'named' && (!name || LANDMARK.has(rrole) || rrole === 'heading'))) {
            const c = ctx || (heading ? 'heading ' + lq(clip(heading, 60)) : '');
            if (ownLimit) {
              if (region === null && posRegion === null) limit = null; // whatever its position
              else { const pos = cs.position; limit = pos === 'fixed' ? null : pos === 'absolute' ? posRegion : region; }
            }
            rows.push(refRow(el, rrole === 'none' ? 'generic' : rrole, name, depth, lm, c, focused, vw, vh, childGroup, childRow, up, limit));
            cand.push(el);
            childUp = keyOf(el);
            // a link inside a sentence: its words go into the text where they
            // stand (sinkText keeps them only when the block has words of its own)
            if (sink && !sink.cells && rrole === 'link') { childSink = {parts: []}; sink.parts.push(childSink); }
            else {
              childSink = null;
              // an empty box among a sentence's words (the swatch of "click
              // on the ■ colored box"): its colour goes into the text there
              if (sink && !sink.cells && !el.firstChild) { const w = swatchIn(el, cs); if (w) sink.parts.push(' [color ' + w + '] '); }
            }
            // Its name says its text, unless it is a container that is no
            // name from its content: a focusable tab panel or dialog shows
            // its paragraphs as any block does.
            // Inside a clickable that only the weaker signals made a ref (a
            // focusable suggestion list, a tree item with a listener), the
            // items a person clicks are clickables of their own: the walk
            // keeps looking for them there ('weak'), and only there.
            // (A control with a role of its own — a tab, a button — is what a
            // person clicks, though it is focusable or listens too: the
            // listening box inside it is part of it.)
            if (!TEXT_HOLDER.has(rrole)) childIn = isRef === 'named' && !(strong && (FROM_CONTENT.has(rrole) || DRAWN_INSIDE.has(rrole))) ? 'weak' : true;
          }
        }
        if (tag === 'label' && el.control && !stoodIn(el.control)) { // it names its control: its text is the control's name
          childSink = null;
          if (!childIn) childIn = 'label';
        }
        else if (toggleBox && !childIn) childIn = 'label'; // its drawing is the input's, as a label's is
        else if (!childIn && cs && role !== 'heading' && childLm === lm) {
          const kind = textBlock(el, tag, role, childSink, disp, L);
          if (kind) {
            const ns = kind === 'row' ? {cells: [], parts: []} : {parts: [], live: LIVE.has(kind)};
            const row = [4, depth, keyOf(el), kind, ns, intern(childGroup), childRow, up, intern(lm)];
            rows.push(row); texts.push(row);
            childSink = ns;
            if (GAUGE.has(kind)) { ns.parts.push(gaugeText(el)); childSink = null; } // its reading is its value, not its drawing
          } else if (childSink && childSink.cells && (tag === 'td' || tag === 'th' || CELL.has(role))) {
            const cell = {parts: [], cell: true};
            childSink.cells.push(cell);
            childSink = cell;
          }
        }
        if ((tag === 'select' && !listSelect(el)) || tag === 'input') return; // the browser's own widgetry
        if (tag.includes('-') && !el.shadowRoot && el.childElementCount === 0 && !el.textContent.trim()) {
          const b = el.getBoundingClientRect();
          if (b.width > 0 && b.height > 0) closed = true; // a custom element drawing from a closed shadow root
        }
        const tsink = childSink && childSink.cells ? null : childSink; // text outside the cells of a row is not shown
        if (tag === 'img' || (hasRole && (role === 'image' || role === 'img'))) {
          // A picture is content a person reads ("Chicken wings" with a meat
          // icon, a 4-of-5-stars rating, a slide's photo): its text
          // alternative goes into the text where the picture stands. An
          // ARIA img's children are presentational.
          const alt = tsink ? pictureText(el) : '';
          if (alt) tsink.parts.push(' [img ' + alt + '] ');
          if (tag === 'img' || alt) return;
        }
        // A slot shows what the host put in it (or, when nothing, its own
        // fallback children): the walk reads a host's light children there,
        // in the order and inside the refs and text blocks a person sees them
        // in (the flat tree, as the AX tree reads it), not after the shadow
        // tree. A slot has no box of its own (display: contents): whether its
        // text shows is its nearest boxed ancestor's.
        const slotted = tag === 'slot' ? el.assignedNodes() : null;
        const flat = slotted && slotted.length ? slotted : null;
        const shown = tsink && (flat ? flat.some(c => c.nodeType === 3 && c.data.length) && boxed(el).checkVisibility(VISIBILITY)
          : spaced(el.shadowRoot || el) && (seen || el.checkVisibility(VISIBILITY)));
        const block = tsink && cs && !INLINE.has(disp);
        if (!flat && !el.firstElementChild && !el.shadowRoot) {
          // a leaf: its text goes in now, in the order the stack would give it
          if (tsink) {
            if (block) tsink.parts.push(' ');
            if (shown) { for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) tsink.parts.push(c.data); }
            else if (!el.firstChild) {
              const i = iconIn(el), w = i ? '' : swatchIn(el, cs);
              if (i) tsink.parts.push(' [icon ' + i + '] ');
              else if (w) tsink.parts.push(' [color ' + w + '] ');
            }
            if (block || tag === 'br') tsink.parts.push(' ');
          }
          return;
        }
        if (block || (tag === 'br' && tsink)) stack.push([' ', tsink]);
        if (el.shadowRoot) shadows.push(el.shadowRoot); // a document observer does not see into shadow trees
        // (a find's walk enters only the paths to what it looks for, and the
        // whole of the subtrees it marked)
        const childWhole = whole || (opened !== null && opened.has(el));
        const skip = only !== null && !childWhole;
        if (flat) {
          for (let i = flat.length - 1; i >= 0; i--) {
            const c = flat[i];
            if (c.nodeType === 1) { if (!skip || only.has(c)) stack.push([c, childDepth, childLm, childCtx, childIn, childGroup, childRows, childRow, childUp, cursor, childSink, childRegion, childPos, childWhole]); }
            else if (c.nodeType === 3 && shown) stack.push([c, tsink]);
          }
        } else if (skip) {
          const ks = kids.get(el.shadowRoot || el) || [];
          for (let i = ks.length - 1; i >= 0; i--) stack.push([ks[i], childDepth, childLm, childCtx, childIn, childGroup, childRows, childRow, childUp, cursor, childSink, childRegion, childPos, childWhole]);
        } else for (let c = (el.shadowRoot || el).lastChild; c; c = c.previousSibling) {
          if (c.nodeType === 1) { stack.push([c, childDepth, childLm, childCtx, childIn, childGroup, childRows, childRow, childUp, cursor, childSink, childRegion, childPos, childWhole]); }
          else if (c.nodeType === 3 && shown) stack.push([c, tsink]);
        }
        if (block) stack.push([' ', tsink]);
    };
    while (stack.length) {
      const e = stack.pop();
      if (e.length === 2) {
        e[1].parts.push(typeof e[0] === 'string' ? e[0] : e[0].data);
        continue;
      }
      visit(e);
    }
    const weakAll = only !== null ? weakRefs.slice() : null; // (a find's: see S.find)
    if (weakRefs.length) dropCovered(rows, cand, weakRefs);
    for (let i = 0; i < texts.length; i++) texts[i][4] = sinkText(texts[i][4]);
    styles = new Map(); regions = new Map(); // live style objects are not kept past the read (clipOf's, inside refs)
    gridMemo = new Map(); disabledMemo = null;
    return {rows, cand, pick, shadows, closed, focused, vw, vh, weak: new Set(weakRefs), weakAll};
  }

  // Walk the document (and open shadow roots) in order. Rows: refs (0),
  // landmarks [1, depth, role, name, modal], headings [2, depth, level, name, k, landmark#],
  // frames [3, depth, k, title], text (4, above).
  S.walk = function (opts) {
    opts = opts || {};
    const t0 = performance.now();
    if (opts.textOnly) return textWalk(opts);
    if (ACC.computed) { // Chromium's own values (cross-check): only with the feature and a live AX context
      if (!('computedRole' in Element.prototype)) return [q({unsupported: 'computedRole'}), '', []];
      const probe = document.body || document.documentElement;
      void probe.computedRole;
      // no live AX context: every read would rebuild the tree (a walk inside
      // a delta has one, and so has a walk right after the caller primed
      // it: there the first read of a changed tree is merely slow)
      if (performance.now() - t0 > 3 && !opts.warm) return [q({cold: true}), '', []];
    }
    const {rows, cand, pick, shadows, closed, focused, vw, vh, weak} = walkDOM(opts);
    S.weak = weak; // the delta names these as the walk did
    // Backend node ids: for every ref of a page of ordinary size, else for
    // what is in view or focused (the rest are looked up when acted on).
    const allIDs = cand.length <= (opts.limit || 0);
    const pk = pick.map(keyOf);
    let r = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (row[0] !== 0) continue;
      const el = cand[r++];
      if (allIDs || row[11] || el === focused) { pick.push(el); pk.push(row[2]); }
    }
    S.sx = scrollX; S.sy = scrollY; S.vw = vw; S.vh = vh; S.deltas = 0;
    S.dirty.clear(); S.wide = false;
    if (!S.mo) observe();
    for (const root of shadows) S.mo.observe(root, OBSERVE);
    S.shadows = shadows; stateCSS = null;
    return [q({pk, strs, closed, ms: performance.now() - t0}), encode(rows), pick];
  };

  // Where a ref of a role can stand without a role attribute (nativeRole,
  // and what accname.js gives a tag of its own); every element with a role
  // attribute or custom-element state is asked too.
  const FIND_NATIVE = {button: 'button,input,summary', link: 'a,area', textbox: 'input,textarea,[contenteditable]',
    searchbox: 'input', checkbox: 'input', radio: 'input', slider: 'input', spinbutton: 'input', combobox: 'input,select',
    listbox: 'select,datalist', option: 'option'};
  // The elements that can hold a shadow root (a custom element, or one of
  // the tags attachShadow accepts), and the walk's sign of a closed one: a
  // custom element is no tag HTML, SVG or MathML names, so the selector
  // reads the few that can, not every element of a large page.
  const HOST_TAGS = 'article,aside,blockquote,body,div,footer,h1,h2,h3,h4,h5,h6,header,main,nav,p,section,span';
  // (tried in order, each list: common tags first)
  const NO_HOST_TAGS = 'td,tr,a,li,input,button,img,svg,path,i,b,label,option,ul,ol,th,table,tbody,thead,tfoot,strong,em,small,br,' +
    'g,use,circle,rect,form,select,textarea,code,pre,hr,dd,dt,dl,time,sup,sub,abbr,mark,caption,col,colgroup,' +
    'html,head,title,meta,link,style,script,noscript,template,address,area,audio,base,bdi,bdo,canvas,cite,data,' +
    'datalist,del,details,dfn,dialog,embed,fieldset,figcaption,figure,iframe,frame,frameset,ins,kbd,legend,map,menu,' +
    'meter,object,optgroup,output,picture,progress,q,rp,rt,ruby,s,samp,search,slot,source,summary,track,u,var,' +
    'video,wbr,line,polyline,polygon,ellipse,defs,symbol,text,tspan,clipPath,mask,linearGradient,radialGradient,' +
    'stop,math,mi,mo,mn,mrow';
  // The :not() alone names every host; a selector of a list is tried whole
  // for each element, so the list's length costs on every element, where a
  // :not() stops at its first match: before it, only the commonest hosts,
  // which it would try against every tag it names (measured on the
  // 6,000-control table: 4.7 → 1.5 ms; on 18,000 divs, 3 → 1 ms).
  const SHADOW_HOSTS = 'div,span,p,:not(' + NO_HOST_TAGS + ')';
  const ASCII = /^[\x00-\x7f]*$/;
  const squash = s => s.replace(/[\s\u0085]+/g, '').toLowerCase();
  // mayName: whether a ref named name may match part (a superset of the Go
  // side's match: an unnamed control may be named by describe(), and case
  // folding outside ASCII differs between the two languages)
  const mayName = (name, part) => typeof part.value !== 'string' || !name || !ASCII.test(name) || !ASCII.test(part.value) ||
    squash(name).includes(squash(part.value));
  // A find for a locator by label (a ref of any role, by its name) cannot
  // pick by role: any clickable's name may match. A name is made of pieces
  // — text, attributes, the text of a label or of an element referred to,
  // generated content, and, for a clickable the page left unnamed, what
  // describe() says of it — so the find picks by pieces: every element
  // holding a piece with a word of the label (the word fewest elements
  // hold), and the elements whose names that piece feeds (its ancestors,
  // on the walk's paths anyway; a label's control; what refers to it by
  // aria-labelledby or aria-owns; a custom element's one control), and
  // every control a name may be lent to (lentName). A word here is a run of
  // letters and digits, lower case: a name that holds the label holds each
  // of its runs whole, whatever stands between them (the Go side matches
  // the whole label). Outside ASCII, runs and pieces are compared without
  // accents (fold), as lower-casing differs between JS and Go there.
  const fold = s => s.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/\u03c2/g, '\u03c3');
  // The words describe() makes up rather than reads off the page: what it
  // calls a clickable, and the colours and shapes it names a drawing by
  // (its colour's hex digits too).
  const MADE = ['clickable', 'icon', 'button', 'color', 'img'];
  const COLOUR = ['gray', 'light', 'dark', 'black', 'white', 'red', 'orange', 'yellow', 'green', 'cyan', 'blue',
    'purple', 'magenta', 'pink', 'brown', 'triangle', 'quadrilateral', 'polygon', ...Object.values(NAMED), ...Object.values(SHAPES)];
  // madeUp: whether run t may be one describe() made up: 'describe' (no
  // piece of the page holds it), 'colour' (the drawings it names by colour
  // hold it), or false. start, end: whether a name's word starts, ends,
  // where t does (a space beside it in the label), else t may be any part
  // of one; hex: nothing or a '#' stands before it in the label, so it may
  // be a colour's hex digits ("#a1d4a1", after '#' only).
  function madeUp(t, start, end, hex) {
    const part = w => start && end ? w === t : start ? w.startsWith(t) : end ? w.endsWith(t) : w.includes(t);
    if (MADE.some(part)) return 'describe';
    if (COLOUR.some(part) || (hex && /^[0-9a-f]{1,6}$/.test(t))) return 'colour';
    return false;
  }
  // labelTokens: the runs of a label, each {t, made, ascii}; null when none
  // is one to search the page's pieces for
  function labelTokens(label) {
    const lower = label.toLowerCase(), out = [];
    for (const m of lower.matchAll(/[\p{L}\p{N}]+/gu)) {
      const before = lower[m.index - 1], after = lower[m.index + m[0].length];
      const start = before !== undefined && /[\s\u0085]/.test(before), end = after !== undefined && /[\s\u0085]/.test(after);
      const t = ASCII.test(m[0]) ? m[0] : fold(m[0]);
      out.push({t, made: madeUp(t, start, end, before === undefined || before === '#'), ascii: ASCII.test(m[0])});
    }
    return out.some(x => x.made !== 'describe') ? out : null;
  }
  // colourable: whether describe() may name el by a colour or a shape
  // (fillOf, shapeOf, glyphName): no control (describe() names only the
  // clickables weaker signals make refs), empty, or a drawing
  const colourable = (el, tag) => !NATIVE_CONTROL.has(tag) && !IROLE.has((el.getAttribute('role') || '').trim().split(/\s+/)[0]) &&
    ((!el.firstElementChild && !NONSPACE.test(el.textContent)) ||
      (el instanceof SVGElement && (tag in SHAPES || tag === 'polygon' || tag === 'text' || tag === 'tspan')));
  // the attributes a name or describe() reads, as selectors (href: an SVG
  // <use>'s or <image>'s picture)
  const NAME_ATTRS = ['aria-label', 'title', 'alt', 'placeholder', 'aria-placeholder', 'value', 'label',
    'aria-valuetext', 'aria-valuenow', 'aria-description', 'data-tooltip', 'data-title', 'class', 'src', 'style', 'href', 'xlink:href'];
  const NAME_ATTR_SEL = NAME_ATTRS.map(a => a === 'href' ? 'use[href],image[href]' : a === 'xlink:href' ? '[*|href]' : '[' + a + ']');
  // labelPicks adds to picked (and opened) what a find for a label of
  // tokens walks to; false: it cannot tell (a style sheet it cannot read)
  function labelPicks(roots, tokens, picked, opened, odd) {
    // (the four longest runs: the one fewest elements hold is searched)
    const searched = tokens.filter(x => x.made !== 'describe').sort((a, b) => b.t.length - a.t.length).slice(0, 4);
    let best = searched.every(x => x.ascii) ? asciiPieces(roots, searched, odd) : 'fold';
    if (!best) return false;
    if (best === 'fold') {
      const keys = searched.map(x => x.t), colours = searched.map(x => x.made === 'colour');
      const hits = keys.map(() => new Set());
      for (const root of roots) if (!piecesOf(root, keys, colours, hits)) return false;
      best = hits[0];
      for (const h of hits) if (h.size < best.size) best = h;
    }
    const done = new Set(), refs = new Map(), work = [...best], lendable = [];
    for (const root of roots) lendables(root, lendable);
    for (const el of lendable) picked.push(el);
    if (ACC.internals) for (const el of ACC.internals.keys()) if (el.isConnected) picked.push(el); // named by internals
    while (work.length) {
      const el = work.pop();
      picked.push(el);
      for (let a = el; a && a.nodeType === 1 && !done.has(a); a = flatParent(a)) {
        done.add(a);
        if (a.localName === 'label') {
          opened.add(a); // (a custom element inside it is named by it)
          if (a.control) work.push(a.control);
          const f = a.htmlFor && a.getRootNode().getElementById ? a.getRootNode().getElementById(a.htmlFor) : null;
          if (f) work.push(f);
        }
        if (a.id) {
          const root = a.getRootNode();
          let m = refs.get(root);
          if (!m) {
            refs.set(root, m = new Map());
            for (const r of root.querySelectorAll('[aria-labelledby],[aria-owns]')) {
              for (const id of ((r.getAttribute('aria-labelledby') || '') + ' ' + (r.getAttribute('aria-owns') || '')).split(/\s+/)) {
                if (!id) continue;
                if (!m.has(id)) m.set(id, []);
                m.get(id).push(r);
              }
            }
          }
          for (const r of m.get(a.id) || []) work.push(r);
        }
        if (a.shadowRoot && a.localName.includes('-')) {
          const c = a.shadowRoot.querySelectorAll(TEXT_CONTROL);
          if (c.length === 1) work.push(c[0]);
        }
      }
    }
    return true;
  }
  // Every tag HOST_TAGS and NO_HOST_TAGS name: an element of another tag
  // is one SHADOW_HOSTS matches (see odd in S.find).
  const KNOWN_TAGS = (HOST_TAGS + ',' + NO_HOST_TAGS).split(',');
  const KNOWN_TAG = new Set(KNOWN_TAGS);
  // the elements with an attribute a name reads (NAME_ATTRS) that holds
  // key: ASCII letters and digits in any case, or, with exact, one letter
  // as it is (the 'i' flag folds more than ASCII: the Kelvin sign is a k)
  const attrSel = (key, exact) => NAME_ATTRS.filter(a => a !== 'xlink:href').map(a => {
    const has = '*="' + key + (exact ? '"]' : '" i]');
    return a === 'href' ? 'use[*|href' + has + ',image[*|href' + has : '[' + a + has;
  }).join(',');
  // FEW_PIECES: when no more pieces hold the run asciiPieces counts first,
  // it searches no other (a find walks to each piece's element)
  const FEW_PIECES = 16;
  // asciiPieces is piecesOf for ASCII runs, by the browser's own searches
  // (selectors, XPath, a root's whole text): it counts the attributes and
  // texts that hold each run (while one may be the rarest), and gathers the
  // elements only for the run fewest hold. odd: the elements of tags KNOWN_TAGS leaves out
  // (custom elements), of every root. null: it cannot tell; 'fold': the
  // page holds a letter Go lower-cases to ASCII and JS does not (İ, the
  // Kelvin sign), which only piecesOf compares right.
  function asciiPieces(roots, searched, odd) {
    const keys = searched.map(x => x.t), soups = [];
    // A run's count: the texts and the name attributes that hold it. Each
    // attribute search costs a look at every element (16 attributes: 5 ms
    // on 30,000 elements). The likeliest rarest run is counted first: one
    // with a digit (a row's, an order's number), else the one the fewest
    // texts hold, else the longest. When few pieces hold it, it is the one;
    // otherwise the other runs are counted fully in the order of a cheaper
    // lower bound (texts, labels and titles), until no bound is below the
    // fewest counted.
    const inTexts = searched.map(() => 0);
    for (const root of roots) {
      const top = root.nodeType === 9 ? root.documentElement : root;
      const text = top ? top.textContent : '';
      if (/[\u0130\u212a]/.test(text)) return 'fold';
      const soup = text.toLowerCase();
      soups.push(soup);
      for (let k = 0; k < keys.length; k++) for (let i = soup.indexOf(keys[k]); i >= 0; i = soup.indexOf(keys[k], i + 1)) inTexts[k]++;
    }
    const colour = c => searched[c].made === 'colour'; // (a colour's run: every drawing describe() may name by colour)
    const digit = c => /[0-9]/.test(keys[c]);
    const guess = keys.map((_, c) => c).sort((a, b) => colour(a) - colour(b) || digit(b) - digit(a) || inTexts[a] - inTexts[b] || keys[b].length - keys[a].length)[0];
    let k = -1, fewest = Infinity, attrs = null;
    const count = c => {
      const found = roots.map(root => root.querySelectorAll(attrSel(keys[c])));
      let n = (colour(c) ? 1e9 : 0) + inTexts[c];
      for (let r = 0; r < roots.length; r++) n += found[r].length;
      if (n < fewest) { k = c; fewest = n; attrs = found; }
    };
    count(guess);
    if (fewest > FEW_PIECES) {
      const bound = inTexts.map((n, c) => colour(c) ? 1e9 : n);
      for (let c = 0; c < keys.length; c++) {
        if (c === guess) continue;
        for (const root of roots) bound[c] += root.querySelectorAll('[aria-label*="' + keys[c] + '" i],[title*="' + keys[c] + '" i]').length;
      }
      const order = keys.map((_, c) => c).filter(c => c !== guess).sort((a, b) => bound[a] - bound[b]);
      for (const c of order) {
        if (bound[c] >= fewest) break;
        count(c);
      }
    }
    const t = keys[k], hits = new Set();
    // (the 'i' flag of a selector folds ASCII only: an attribute with a
    // letter Go lower-cases to an ASCII i or k is compared by piecesOf)
    for (const [ascii, other] of [['i', '\u0130'], ['k', '\u212a']]) {
      if (t.includes(ascii) && roots.some(root => root.querySelector(attrSel(other, true)))) return 'fold';
    }
    for (let r = 0; r < roots.length; r++) {
      const root = roots[r];
      for (const el of attrs[r]) hits.add(el);
      textHolders(root, soups[r], t, hits);
      for (const el of root.querySelectorAll('input:not([type=checkbox]):not([type=radio]),textarea')) if (el.value && el.value.toLowerCase().includes(t)) hits.add(el);
      if ('submit'.includes(t)) for (const el of root.querySelectorAll('input[type=submit],input[type=image]')) hits.add(el);
      if ('reset'.includes(t)) for (const el of root.querySelectorAll('input[type=reset]')) hits.add(el);
      // describe() names a clickable no role marks by its tag
      for (const tag of KNOWN_TAGS) if (tag.toLowerCase().includes(t)) for (const el of root.querySelectorAll(tag)) hits.add(el);
      if (searched[k].made === 'colour') for (const el of root.querySelectorAll('*')) if (colourable(el, el.localName)) hits.add(el);
      const sheets = [...(root.styleSheets || []), ...(root.adoptedStyleSheets || [])];
      for (const sh of sheets) {
        let rules;
        try { rules = sh.cssRules; } catch (e) { return null; }
        if (!styledPieces(root, rules, [t], s => s.toLowerCase(), [hits])) return null;
      }
    }
    for (const el of odd) if (el.localName.toLowerCase().includes(t)) hits.add(el);
    return hits;
  }
  // textHolders adds to hits the elements whose texts hold t, of root
  // whose text, lower case, is soup: those of the texts that hold it whole
  // (XPath), unless t runs across texts somewhere ("Sub<b>mit</b>"), or
  // root is a shadow root: then those of every text an occurrence spans.
  function textHolders(root, soup, t, hits) {
    let total = 0;
    for (let i = soup.indexOf(t); i >= 0; i = soup.indexOf(t, i + 1)) total++;
    if (!total) return;
    const holder = n => { const p = n.assignedSlot || n.parentNode, h = p && p.nodeType === 11 ? p.host : p; if (h && h.nodeType === 1) hits.add(h); };
    if (root.nodeType === 9) {
      // (only the letters of t need lower-casing to find it)
      const up = [...new Set(t.replace(/[^a-z]/g, ''))].join('');
      const r = document.evaluate('.//text()[contains(' + (up ? 'translate(., "' + up.toUpperCase() + '", "' + up + '")' : '.') + ', "' + t + '")]',
        root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      let found = 0;
      for (let i = 0; i < r.snapshotLength; i++) {
        const n = r.snapshotItem(i), d = n.data.toLowerCase();
        for (let j = d.indexOf(t); j >= 0; j = d.indexOf(t, j + 1)) found++;
        holder(n);
      }
      if (found === total) return;
    }
    const at = [];
    for (let i = soup.indexOf(t); i >= 0; i = soup.indexOf(t, i + 1)) at.push(i);
    const tw = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let off = 0, o = 0;
    for (let n = tw.nextNode(); n && o < at.length; n = tw.nextNode()) {
      const end = off + n.data.length;
      while (o < at.length && at[o] + t.length <= off) o++;
      if (o < at.length && at[o] < end) holder(n);
      off = end;
    }
  }
  // piecesOf adds to hits[k] the elements of root holding a piece with
  // keys[k] (a text, an attribute, a field's value, generated content or
  // a picture's file; when colours[k], a drawing too), compared folded.
  function piecesOf(root, keys, colours, hits) {
    const low = fold;
    const add = (el, v) => { for (let k = 0; k < keys.length; k++) if (v.includes(keys[k])) hits[k].add(el); };
    // texts, run together (a word can run across texts: "Sub<b>mit</b>")
    const tw = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const starts = [], nodes = [], datas = [];
    let len = 0;
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      const p = n.parentNode;
      if (p && (p.localName === 'script' || p.localName === 'style')) continue;
      starts.push(len); nodes.push(n); datas.push(n.data); len += n.data.length;
    }
    let soup = datas.join('');
    let lowered = low(soup);
    if (lowered.length !== soup.length) { // (lower case that changes a length: each text on its own)
      len = 0;
      for (let j = 0; j < datas.length; j++) { datas[j] = low(datas[j]); starts[j] = len; len += datas[j].length; }
      lowered = datas.join('');
    }
    soup = lowered;
    for (let k = 0; k < keys.length; k++) {
      const t = keys[k];
      for (let i = soup.indexOf(t); i >= 0; i = soup.indexOf(t, i + 1)) {
        let lo = 0, hi = starts.length - 1;
        while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid] <= i) lo = mid; else hi = mid - 1; }
        for (let j = lo; j < nodes.length && starts[j] < i + t.length; j++) {
          // (a text a slot shows is part of what holds the slot: a custom
          // checkbox's label around its input)
          const n = nodes[j], p = n.assignedSlot || n.parentNode, h = p && p.nodeType === 11 ? p.host : p;
          if (h && h.nodeType === 1) hits[k].add(h);
        }
      }
    }
    for (let a = 0; a < NAME_ATTRS.length; a++) {
      const name = NAME_ATTRS[a], els = root.querySelectorAll(NAME_ATTR_SEL[a]);
      for (let i = 0; i < els.length; i++) {
        const el = els[i];
        const v = name === 'xlink:href' ? el.getAttributeNS('http://www.w3.org/1999/xlink', 'href') : el.getAttribute(name);
        if (v) add(el, low(v));
      }
    }
    for (const el of root.querySelectorAll('input:not([type=checkbox]):not([type=radio]),textarea')) if (el.value) add(el, low(el.value));
    for (const el of root.querySelectorAll('input[type=submit],input[type=image]')) add(el, 'submit');
    for (const el of root.querySelectorAll('input[type=reset]')) add(el, 'reset');
    // what describe() names by its tag or by its colour or shape
    const drawn = colours.some(Boolean), all = root.querySelectorAll('*');
    for (let i = 0; i < all.length; i++) {
      const el = all[i], tag = el.localName;
      add(el, fold(tag));
      if (drawn && colourable(el, tag)) for (let k = 0; k < keys.length; k++) if (colours[k]) hits[k].add(el);
    }
    // generated content, and pictures drawn by a style: the elements a rule
    // that may say a word gives them (all of them when it says an attribute)
    const sheets = [...(root.styleSheets || []), ...(root.adoptedStyleSheets || [])];
    for (const sh of sheets) {
      let rules;
      try { rules = sh.cssRules; } catch (e) { return false; }
      if (!styledPieces(root, rules, keys, low, hits)) return false;
    }
    return true;
  }
  // lendables adds to lendable the controls of root their own attributes
  // and labels may leave unnamed, which lentName then names from around
  // them
  function lendables(root, lendable) {
    let forIds = null;
    const says = (el, a) => { const v = el.getAttribute(a); return !!v && NONSPACE.test(v); };
    for (const el of root.querySelectorAll(LENDABLE_SEL)) {
      if (says(el, 'aria-label') || says(el, 'title')) continue;
      const tag = el.localName;
      if (tag === 'input' || tag === 'textarea' || tag === 'select') {
        // (a label that shows no words names nothing. el.labels would cost
        // a look through the document per control.)
        if (says(el, 'placeholder') || (tag === 'input' && el.type === 'button' && says(el, 'value'))) continue;
        const l = el.closest('label');
        if (l && NONSPACE.test(l.textContent)) continue;
        if (el.id) {
          if (!forIds) { forIds = new Set(); for (const l of root.querySelectorAll('label[for]')) if (NONSPACE.test(l.textContent)) forIds.add(l.htmlFor); }
          if (forIds.has(el.id)) continue;
        }
      } else {
        // (a role named by its content is named, when it has any; another
        // role's content does not name it: a slider's hidden thumb label)
        const r = el.getAttribute('role').trim().split(/\s+/)[0];
        if (!IROLE.has(r) || (FROM_CONTENT.has(r) && NONSPACE.test(el.textContent))) continue;
      }
      lendable.push(el);
    }
  }
  const LENDABLE = 'input:not([type=hidden]):not([type=submit]):not([type=reset]):not([type=image]),textarea,select,[role]';
  // JS's white space (\s): what trim() removes and NONSPACE skips
  const JS_SPACES = [...'\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'];
  // blankStart: a selector list of the elements whose attribute a is empty
  // or starts with white space: a value that may say nothing
  const blankStart = a => '[' + a + '=""],' + JS_SPACES.map(c => '[' + a + '^="' + cssChar(c) + '"]').join(',');
  // LENDABLE less the controls whose aria-label or title says something
  // for sure (it starts with a letter, a digit or a sign): the selector
  // passes a table's 2,000 labelled checkboxes by in the browser, where
  // lendables would read each one's attributes in the page (a third of a
  // cold find by label there)
  const LENDABLE_SEL = ':is(' + LENDABLE + '):not([aria-label]:not(' + blankStart('aria-label') + '),[title]:not(' + blankStart('title') + '))';
  const PSEUDO_ELEMENT = /::?(before|after|marker|first-line|first-letter|placeholder|selection|backdrop)\b/g;
  function styledPieces(root, rules, keys, low, hits) {
    for (const r of rules || []) {
      if (r.selectorText === undefined) {
        if (r.cssRules && !styledPieces(root, r.cssRules, keys, low, hits)) return false;
        continue;
      }
      const st = r.style, css = st ? st.cssText : '';
      const c = st ? st.content : '';
      const says = c && c !== 'none' && c !== 'normal';
      if (!says && !css.includes('url(')) continue;
      const f = low(css), ks = [];
      for (let k = 0; k < keys.length; k++) if ((says && c.includes('attr(')) || f.includes(keys[k])) ks.push(k);
      if (!ks.length) continue;
      const sel = r.selectorText.replace(PSEUDO_ELEMENT, '');
      let els;
      try { els = root.querySelectorAll(sel || '*'); } catch (e) { return false; }
      for (const el of els) for (const k of ks) hits[k].add(el);
      if (root.host && sel.includes(':host')) for (const k of ks) hits[k].add(root.host);
      if (r.cssRules && r.cssRules.length) return false; // nested rules: selectors relative to this one
    }
    return true;
  }
  // reopen marks to walk whole the clickables only weaker signals made
  // refs (weak: all a find's walk met, dropCovered's included) whose names
  // may match a label and that were not walked whole; true when any was
  function reopen(weak, labels, opened) {
    let again = false;
    for (const el of weak || []) {
      let inside = false;
      for (let n = el; n && n.nodeType === 1; n = flatParent(n)) if (opened.has(n)) { inside = true; break; }
      if (inside) continue;
      const f = fold(nameOf(el, roleOf(el)) || describe(el));
      if (labels.some(tokens => tokens.every(x => f.includes(x.t)))) { opened.add(el); again = true; }
    }
    return again;
  }
  // mayBeIn: whether el may sit in a landmark want names (its role, its name
  // or both, as WithinLandmark takes them). Loosely: any landmark on its
  // flat path will do, not only the nearest one the walk gives it (a hidden
  // one, or an unnamed form or region, is none), and a name Go would
  // compare after escaping is not compared; the caller matches exactly.
  let landmarkMemo = new Map();
  const PLAIN = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/; // (printable ASCII but " and \)
  function landmarkMatches(a, w, name) {
    const tag = a.localName, hasRole = iattr(a, 'role') !== null;
    if (!STRUCT_TAGS.has(tag) && !hasRole) return false;
    const role = (!hasRole && IMPLICIT[tag]) || roleAt(a);
    if (!LANDMARK.has(role)) return false;
    if (w === role || w.startsWith(role + ' ') || name === null) return true;
    const n = collapse(cName(a));
    return !PLAIN.test(n) || n.toLowerCase() === name;
  }
  function mayBeIn(el, want) {
    if (!want || !want.trim()) return true;
    let memo = landmarkMemo.get(want);
    if (!memo) landmarkMemo.set(want, memo = new Map());
    const w = want.trim().toLowerCase(), bare = w.replace(/^"+|"+$/g, '');
    const name = PLAIN.test(bare) ? bare : null; // (null: any name may be it)
    const path = [];
    let res = false;
    for (let a = el; a && a.nodeType === 1; a = flatParent(a)) {
      if (memo.has(a)) { res = memo.get(a); break; }
      path.push(a);
      if (landmarkMatches(a, w, name)) { res = true; break; }
    }
    for (const a of path) memo.set(a, res);
    return res;
  }
  // namedBy: a selector of the elements whose names may be one of the role
  // parts' values, to pick the candidates with ('' when it cannot tell).
  // An aria-label names an element unless aria-labelledby does (cName), so
  // a label that lacks a word of each value, in any case, passes the
  // element by without working out its role and name (on a table of 2,000
  // labelled checkboxes, most of a find's time). The Go side matches a name
  // that holds the value, spaces collapsed, in any case, or that equals it:
  // either holds each of its words whole. A blank label names nothing: the
  // selector keeps every label that starts with a space. (An <a> without
  // href is picked as a link whatever its name: consider.) The 'i' flag folds
  // ASCII only, and Go lower-cases İ and the Kelvin sign to i and k: a word
  // with either letter keeps the labels that hold one.
  const LABEL_SPACES = blankStart('aria-label');
  function cssChar(c) { return '\\' + c.charCodeAt(0).toString(16) + ' '; }
  function namedBy(roles) {
    const each = [];
    for (const x of roles) {
      if (typeof x.value !== 'string' || !ASCII.test(x.value)) return '';
      const words = x.value.split(/[\t\n\v\f\r ]+/).filter(Boolean);
      if (!words.length) return '';
      each.push(words.map(w => '[aria-label*="' + w.replace(/[^\x20-\x7e]|["\\]/g, cssChar) + '" i]').join(''));
      if (/[ik]/i.test(x.value)) each.push('[aria-label*="\u0130"],[aria-label*="\u212a"]');
    }
    if (!each.length) return '';
    return ':is(:not([aria-label]),[aria-labelledby],a:not([href]),input[type=file i],' + LABEL_SPACES + ',' + each.join(',') + ')';
  }
  // The elements that may be headings or landmarks (by tag or role).
  const CONTEXT_TAGS = 'h1,h2,h3,h4,h5,h6,header,footer,nav,main,aside,form,section,search,dialog,[role]';
  const CONTEXT_TAG = new Set(CONTEXT_TAGS.split(',').slice(0, -1));
  // find reads the refs a locator can name (parts: [{role, value},
  // {testid} or {label}]: the locator and those it is Within; {context}:
  // with each ref's Context, which the headings and landmarks before it
  // give, read too) without walking the
  // whole document: it picks the elements that might be such a ref — by
  // tag, role attribute, custom state or test id, then by role and name,
  // loosely (the Go side matches exactly) — and runs the walk along just
  // the paths from the root to them and to every frame, so each verdict on
  // what is a ref, and what it reads, is the walk's own. Elements only the
  // weaker signals make refs (an <a> without href, a test id on a
  // clickable box) have their whole subtree walked: whether such a ref
  // stands depends on the refs inside it (dropCovered). Rows are the
  // walk's (no text rows); the read leaves the inventory as the last walk
  // left it, so the delta after it is unchanged. It declines (the caller
  // walks) under Chromium's computed roles, and in a document with a
  // closed shadow root, which the walk hands to the AX tree.
  S.find = function (parts) {
    const t0 = performance.now();
    if (ACC.computed) return [q({declined: true}), '', []];
    const labels = parts.filter(x => typeof x.label === 'string').map(x => labelTokens(x.label));
    if (labels.some(x => x === null)) return [q({declined: true}), '', []];
    if (hearClosed()) return [q({declined: true, closed: true}), '', []];
    forgetRect();
    setInternals(hearInternals());
    raws = new Map(); lent = new Set(); landmarkMemo = new Map();
    const roles = parts.filter(x => x.role), ids = parts.filter(x => typeof x.testid === 'string');
    const context = parts.some(x => x.context);
    const odd = labels.length ? [] : null; // (see asciiPieces)
    const roots = [document], picked = [], opened = new Set();
    const consider = el => {
      for (const x of ids) {
        if (el.getAttribute('data-testid') === x.testid || el.getAttribute('data-test-id') === x.testid) { picked.push(el); opened.add(el); return; }
      }
      if (!roles.length) return;
      let r = roleOf(el);
      const anchor = el.localName === 'a' && !el.hasAttribute('href');
      let out = null;
      for (const x of roles) {
        const want = x.role.toLowerCase();
        if ((r || '').toLowerCase() !== want && !(want === 'link' && anchor)) continue;
        const name = anchor ? '' : nameOf(el, r);
        if (!anchor && !mayName(name, x)) continue;
        const key = x.landmark ? want + '\n' + squash(name || '').slice(0, 30) : '';
        if (anchor || mayBeIn(el, x.landmark)) {
          picked.push(el);
          if (anchor) opened.add(el); // a link only its handlers make
          if (key) nameKeys.add(key);
          return;
        }
        out = [el, key];
      }
      if (out) outside.push(out);
    };
    // A ref's Nth counts the refs of its role and name before it in the
    // frame, in a landmark or not: the candidates outside the landmark a
    // part keeps to are walked too when they may share a role and name with
    // one inside (an unnamed one may share any: its name is made later).
    const nameKeys = new Set(), outside = [];
    const seen = new Set();
    let sel = '';
    for (const x of roles) sel += (sel ? ',' : '') + (FIND_NATIVE[x.role.toLowerCase()] || '[role]');
    if (sel) sel += ',[role]';
    const mayBeNamed = namedBy(roles);
    if (sel && mayBeNamed) sel = ':is(' + sel + ')' + mayBeNamed;
    for (let i = 0; i < roots.length; i++) {
      const root = roots[i], hosts = root.querySelectorAll(SHADOW_HOSTS);
      for (let k = 0; k < hosts.length; k++) {
        const el = hosts[k];
        if (odd && !KNOWN_TAG.has(el.localName)) odd.push(el);
        if (el.shadowRoot) roots.push(el.shadowRoot);
        else if (el.localName.includes('-') && el.childElementCount === 0 && !el.textContent.trim()) {
          const b = el.getBoundingClientRect();
          if (b.width > 0 && b.height > 0) return [q({declined: true, closed: true}), '', []];
        }
      }
      if (sel) { const c = root.querySelectorAll(sel); for (let k = 0; k < c.length; k++) { seen.add(c[k]); consider(c[k]); } }
      if (ids.length) { const c = root.querySelectorAll('[data-testid],[data-test-id]'); for (let k = 0; k < c.length; k++) if (!seen.has(c[k])) consider(c[k]); }
      for (const el of root.querySelectorAll('iframe,frame')) picked.push(el);
      if (context) {
        // a ref's Context is its container's (on its path) or the heading
        // before it since the last landmark began: the walk reads those too
        for (const el of root.querySelectorAll(CONTEXT_TAGS)) {
          if (CONTEXT_TAG.has(el.localName) || el.getAttribute('role').split(/\s+/).some(r => r === 'heading' || LANDMARK.has(r))) picked.push(el);
        }
      }
    }
    if (roles.length && ACC.internals) for (const el of ACC.internals.keys()) if (el.isConnected && !seen.has(el)) consider(el);
    for (const [el, key] of outside) {
      const role = key.slice(0, key.indexOf('\n'));
      if (key.endsWith('\n') || nameKeys.has(key) || nameKeys.has(role + '\n')) picked.push(el);
    }
    for (const tokens of labels) if (!labelPicks(roots, tokens, picked, opened, odd)) return [q({declined: true}), '', []];
    const only = new Set();
    for (const el of picked) {
      for (let n = el; n && n.nodeType === 1 && !only.has(n); n = flatParent(n)) only.add(n);
    }
    const sig = S.sig, role = S.role, scrolled = S.scrolled;
    let out;
    try {
      let walked = walkDOM({pointer: true, only, opened});
      // A clickable only the weaker signals make a ref stands or falls by
      // the refs inside it (dropCovered), which a walk along paths sees only
      // some of: one a label may name is walked again whole.
      if (labels.length && reopen(walked.weakAll, labels, opened)) walked = walkDOM({pointer: true, only, opened});
      const {rows, cand, pick} = walked;
      const pk = pick.map(keyOf);
      const keep = [];
      let r = 0;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        if (row[0] === 4) continue; // the text of a few paths is no page's text
        keep.push(row);
        if (row[0] !== 0) continue;
        const el = cand[r++];
        pick.push(el); pk.push(row[2]);
      }
      out = [q({pk, strs, ms: performance.now() - t0}), encode(keep), pick];
    } finally {
      S.sig = sig; S.role = role; S.scrolled = scrolled;
      styles = new Map(); regions = new Map(); gridMemo = new Map(); disabledMemo = null;
    }
    return out;
  };

  // textWalk is the walk of a frame read from the AX tree: only its text
  // rows, each with its element (for its backend node id), so the AX path
  // shows the same text as the in-page inventory.
  function textWalk(opts) {
    const saved = [S.els, S.index, S.sig, S.role];
    S.els = []; S.index = new Map();
    let out, els;
    textMode = true;
    try {
      out = walkDOM(opts);
      els = S.els;
    } finally {
      [S.els, S.index, S.sig, S.role] = saved;
      textMode = false;
    }
    const pick = [], text = [];
    // The wrappers the walk took back for the control inside them (a custom
    // element's focusable host around its checkbox): the AX path, which
    // sees the host focusable and named, hears that it is no control
    // (flag 2 in the lent field).
    // The clipped controls a visible widget stands in for (stoodIn): flag 3.
    for (const [el, r, flag] of covered) {
      while (r.length < 29) r.push('');
      r[29] = flag || 2;
      pick.push(el); text.push(r);
    }
    for (const r of out.rows) {
      // (and the refs whose shown name leaves nested items out: the AX
      // path shows that name too; and the items the page marked as such
      // that Chromium may take for generic boxes outside the context it
      // requires — jQuery UI's role=option divs inside role-less <li>s:
      // where the AX tree has no ref for them, the walk's verdict holds)
      if (r[0] === 4 || (r[0] === 0 && (out.weak.has(els[r[2]]) || (r.length > 28 && (r[28] !== '' || r[29] === 1)) ||
          (ITEM_ROLE.has(strs[r[3] - 1]) && iattr(els[r[2]], 'role') !== null)))) {
        pick.push(els[r[2]]);
        text.push(r);
      } else if (r[0] === 0 && r.length > 30) {
        // a ref that shows text its name does not say, a field the
        // browser calls wrong (its message, which the AX tree lacks), or a
        // drop-down <select> (its choices, read the same way here): the
        // AX path shows it too, and hears (flag 4) that the walk found
        // nothing else in it
        r[29] = 4;
        pick.push(els[r[2]]);
        text.push(r);
      }
    }
    return [q({strs, pk: text.map((r, i) => i)}), encode(text), pick];
  }

  const ITEM_ROLE = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'treeitem']);

  const OBSERVE = {subtree: true, childList: true, attributes: true, characterData: true};

  // Attributes that change a ref's own state and nothing else a person
  // sees; any other change (a class, a style, hidden, aria-expanded that CSS
  // may follow, text, nodes coming and going) can show or hide anything, and
  // the look after it walks the document again.
  // (A name is not its own: aria-label and title feed the name of a heading
  // or a control labelled by the element, so they walk again.)
  const STATE_ATTRS = new Set(['aria-checked', 'aria-pressed', 'aria-selected', 'aria-valuenow', 'aria-valuetext',
    'value', 'checked', 'selected', 'aria-activedescendant', 'tabindex', 'aria-invalid',
    'aria-describedby', 'aria-disabled', 'disabled', 'aria-current', 'aria-sort']);

  // Styles can follow a state that no mutation records — a checkbox's
  // :checked showing the panel after it, :focus-within opening a menu,
  // :hover a drop-down — or a state attribute of one element showing
  // another ([aria-selected=true] + .panel). On a page whose style sheets
  // have such a rule, a state change or an action may show or hide anything,
  // and the look after it walks the document again. A rule counts when the
  // state appears before the last compound of a selector (it styles another
  // element), anywhere in :has(), or in the last compound of a rule that sets
  // display or visibility. Sheets of another origin cannot be read, and do
  // not count. The verdict holds until the next walk.
  let stateCSS = null;
  const STATE_SEL = /:(checked|indeterminate|focus|focus-within|focus-visible|hover|active|placeholder-shown|valid|invalid|user-valid|user-invalid|default|enabled|disabled|read-only|read-write|open|popover-open|target|has)\b|\[\s*(aria-|checked|disabled|selected|value|tabindex)/;
  function followsState(sel, style) {
    if (!STATE_SEL.test(sel)) return false;
    if (sel.includes(':has(')) return true;
    let depth = 0, start = 0, last = 0;
    const own = !!(style && (style.display || style.visibility));
    for (let i = 0; i <= sel.length; i++) {
      const c = sel[i];
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (depth === 0 && (c === ' ' || c === '>' || c === '+' || c === '~')) last = i + 1;
      else if (depth === 0 && (c === ',' || c === undefined)) {
        if (STATE_SEL.test(sel.slice(start, Math.max(start, last))) || (own && STATE_SEL.test(sel.slice(Math.max(start, last), i)))) return true;
        start = last = i + 1;
      }
    }
    return false;
  }
  function rulesFollowState(rules, depth) {
    for (const r of rules) {
      if (r.selectorText && followsState(r.selectorText, r.style)) return true;
      if (r.cssRules && r.cssRules.length && depth < 8 && rulesFollowState(r.cssRules, depth + 1)) return true;
    }
    return false;
  }
  function stateStyled() {
    if (stateCSS !== null) return stateCSS;
    stateCSS = false;
    const sheets = [];
    for (const root of [document, ...(S.shadows || [])]) sheets.push(...root.styleSheets, ...(root.adoptedStyleSheets || []));
    for (const sh of sheets) {
      let rules;
      try { rules = sh.cssRules; } catch (e) { continue; }
      if (rules && rulesFollowState(rules, 0)) return (stateCSS = true);
    }
    return false;
  }

  function record(recs) {
    for (const r of recs) {
      if (r.type === 'attributes' && STATE_ATTRS.has(r.attributeName) && S.index.has(r.target) && S.sig[S.index.get(r.target)] !== undefined) {
        S.dirty.add(r.target);
      } else if (r.target.nodeType !== 1 || !r.target.closest('[data-rodagent-overlay]')) {
        S.wide = true;
      }
    }
  }

  function observe() {
    S.mo = new MutationObserver(record);
    S.mo.observe(document, OBSERVE);
    const mark = e => { const t = e.composedPath()[0]; if (t && t.nodeType === 1 && S.index.has(t)) S.dirty.add(t); };
    // invalid: a refused submit marks its fields :user-invalid without
    // changing anything a mutation observer sees
    for (const ev of ['input', 'change', 'focusin', 'focusout', 'toggle', 'invalid']) document.addEventListener(ev, mark, true);
    // a list scrolled inside the page moves its items in and out of view
    document.addEventListener('scroll', e => { if (e.target !== document) S.scrolled = true; }, true);
  }

  // delta: what changed since the last walk or delta. State changes of known
  // refs are read on their own; any other change walks the document again in
  // the same call (walked: true), so a delta always equals a fresh read.
  S.delta = function (opts) {
    forgetRect();
    disabledMemo = null; // a walk that threw leaves its memo behind: the page has changed since
    record(S.mo.takeRecords()); // records not yet delivered count too
    if (hear('p').length) S.wide = true; // scripts added or removed click handlers
    // a closed shadow root came since the last walk: the caller walks, and
    // the walk hands the document to the AX tree
    if (hearClosed()) return [q({full: true}), '', []];
    if (internalsChanged()) {
      const m = hearInternals();
      if (internalsMoved(S.intl || new Map(), m)) S.wide = true;
      setInternals(m);
    } else if (S.intl) setInternals(S.intl);
    const dirty = [...S.dirty], wide = S.wide;
    S.dirty.clear(); S.wide = false;
    S.deltas++;
    const again = () => {
      const r = S.walk(Object.assign({}, opts, {warm: true}));
      const m = JSON.parse(r[0]);
      m.walked = true;
      r[0] = q(m);
      return r;
    };
    if (wide) return again();
    const vw = innerWidth, vh = innerHeight, focused = deepActive();
    const hit = new Set();
    for (const d of dirty) if (S.index.has(d)) hit.add(S.index.get(d));
    // State set by scripts (el.checked = …, el.value = …) fires no event and
    // changes no attribute: compare every ref's cheap state with the last read.
    for (let k = 0; k < S.els.length; k++) {
      const sig = S.sig[k];
      if (sig === undefined || hit.has(k)) continue;
      const el = S.els[k];
      if (!el.isConnected) { hit.add(k); continue; }
      const an = el.getAttributeNames();
      if (stateOf(el, S.role[k], focused, an) + '|' + valueOf(el, S.role[k]) + '|' + extrasOf(el, S.role[k], an).join('|') !== sig) hit.add(k);
    }
    if ((hit.size || dirty.length || opts.acted) && stateStyled()) return again();
    strs = []; sid = new Map(); regions = new Map(); styles = new Map(); raws = new Map(); lent = new Set();
    const rows = [], pick = [], pk = [], gone = [];
    for (const k of hit) {
      const el = S.els[k];
      if (!el.isConnected || hiddenFromAT(el)) { gone.push(k); S.sig[k] = undefined; continue; }
      let role = roleOf(el), name = nameOf(el, role);
      if (S.weak && S.weak.has(el)) {
        // a clickable no role marks keeps the role and the description the walk gave it
        if (!role || role === 'none' || role === 'presentation') role = S.role[k];
        if (!name && !LANDMARK.has(role) && role !== 'heading') name = describe(el);
      }
      rows.push(refRow(el, role, name, 0, '', '', focused, vw, vh));
      pick.push(el); pk.push(k);
    }
    let boxes = null;
    if (S.scrolled || scrollX !== S.sx || scrollY !== S.sy || vw !== S.vw || vh !== S.vh) {
      S.scrolled = false;
      boxes = [];
      for (let k = 0; k < S.els.length; k++) {
        if (S.sig[k] === undefined || !S.els[k].isConnected) continue;
        const c = clipOf(S.els[k]);
        boxes.push([k, ...box(S.els[k], vw, vh), ...(c[0] === '' ? [0, 0, -1, -1] : c)]);
      }
      S.sx = scrollX; S.sy = scrollY; S.vw = vw; S.vh = vh;
    }
    return [q({pk, strs, gone, boxes}), encode(rows), pick];
  };

  // settle resolves once the page has rendered what the last action set off
  // (a frame and the tasks after it, the timers and animations the action
  // started; at most 1.5 s), so a look right after an action sees it.
  // S.settleFor is settle.js, installed with this script.
  S.settle = () => S.settleFor(S.ev);

  // node(k) is the element behind key k, for its backend node id.
  // A large read travels gzipped: CDP carries a big string slowly (about
  // 0.15 s per MB through Chromium's protocol layer, measured on 2 cores),
  // and the browser's own CompressionStream shrinks rows 4–6× in a fraction
  // of that. Small reads go as they are: the round through the stream would
  // cost more than it saves. The Go side knows a packed text by its prefix,
  // which no row text has (rows start with their kind digit).
  const PACK_OVER = 1 << 16;
  S.pack = async function (r, moving) {
    // what the settle saw still going at its bound joins the meta (a JSON
    // object: its closing brace makes room)
    if (typeof moving === 'string') r[0] = r[0].slice(0, -1) + ',"moving":' + q(moving) + '}';
    const text = r[1];
    if (text.length < PACK_OVER || typeof CompressionStream !== 'function' || !Uint8Array.prototype.toBase64) return r;
    try {
      const cs = new CompressionStream('gzip');
      const w = cs.writable.getWriter();
      w.write(new TextEncoder().encode(text)).catch(() => {});
      w.close().catch(() => {});
      const buf = new Uint8Array(await new Response(cs.readable).arrayBuffer());
      r[1] = '~gz:' + buf.toBase64();
    } catch (e) { /* sent as it is */ }
    return r;
  };

  S.node = k => [q({pk: [k]}), '', S.els[k] ? [S.els[k]] : []];
  return S;
})()
