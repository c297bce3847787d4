// rodagent's listener record. It runs in the page's own (main) world of
// every document, before the page's scripts, and remembers which elements a
// script made clickable: addEventListener with a click-like type, or an
// on<type> handler set as a property. The inventory runs in an isolated
// world, which cannot see the page's listeners; it asks this record through
// DOM events only, whose names carry a random token the page never learns
// (EV, below): nothing here touches the DOM (no attributes, no nodes), so
// the page's MutationObservers see nothing.
//
// Protocol (all synchronous, inside one dispatchEvent of the asking world):
//   EV+'q' on document: answer with EV+'a' dispatched on every recorded,
//          connected element that still has a click-like handler;
//   EV+'p' on document: answer with EV+'a' on the document itself when
//          handlers were added or removed since the last EV+'q';
//   EV+'i' on document (cancelable): this record marks it handled, so a
//          second copy of the script in the same document stands down;
//   EV+'w' on document: answer with EV+'b' on the document when work an
//          input set in motion is still pending (see "Motion" below),
//          preceded by EV+'f' when some of it is more than loops, and
//          then dispatch EV+'z' on it once that work is done or expired;
//   EV+'r', EV+'s': roles and states set through ElementInternals, answered
//          with EV+'n' (the section at the end).
(EV => {
  const doc = document;
  const Ev = Event; // the page may replace the global later
  const dispatch = EventTarget.prototype.dispatchEvent;
  const probe = new Ev(EV + 'i', {cancelable: true});
  dispatch.call(doc, probe);
  if (probe.defaultPrevented) return;

  const TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick']);
  const ET = EventTarget.prototype;
  const add = ET.addEventListener, remove = ET.removeEventListener;
  const nodeType = Object.getOwnPropertyDescriptor(Node.prototype, 'nodeType').get;
  const connected = Object.getOwnPropertyDescriptor(Node.prototype, 'isConnected').get;
  const rootOf = Node.prototype.getRootNode;
  const SR = globalThis.ShadowRoot;
  const modeOf = SR && Object.getOwnPropertyDescriptor(SR.prototype, 'mode').get;
  const hostOf = SR && Object.getOwnPropertyDescriptor(SR.prototype, 'host').get;
  const WR = WeakRef;

  // el -> its click-like listeners [type, listener, capture]; refs lists the
  // recorded elements weakly, so a removed element can be collected.
  const seen = new WeakMap();
  let refs = [], gen = 0, told = 0;
  // props: element -> the on<type> getters to ask (property handlers)
  const propGetters = [];

  const isElement = t => { try { return nodeType.call(t) === 1; } catch (e) { return false; } };
  const captureOf = o => typeof o === 'boolean' ? o : !!(o && typeof o === 'object' && o.capture);

  function entry(el) {
    let list = seen.get(el);
    if (!list) { list = []; seen.set(el, list); refs.push(new WR(el)); }
    return list;
  }

  function forget(el, type, fn, capture) {
    const list = seen.get(el);
    if (!list) return;
    const i = list.findIndex(x => x[0] === type && x[1] === fn && x[2] === capture);
    if (i >= 0) { list.splice(i, 1); gen++; }
  }

  // Wrappers keep the native methods' names and lengths, and
  // Function.prototype.toString shows them as native code (below).
  const wrappers = new WeakMap();
  const wrapped = {
    addEventListener(type, fn) {
      const r = add.apply(this, arguments);
      try {
        if (fn && TYPES.has(type) && isElement(this)) {
          const o = arguments[2], capture = captureOf(o), list = entry(this);
          if (!list.some(x => x[0] === type && x[1] === fn && x[2] === capture)) {
            list.push([type, fn, capture]);
            gen++;
            const signal = o && typeof o === 'object' ? o.signal : null;
            if (signal && typeof signal.aborted === 'boolean') {
              const el = this;
              add.call(signal, 'abort', () => forget(el, type, fn, capture), {once: true});
            }
          }
        }
      } catch (e) { /* the page's call has happened; recording is best effort */ }
      return r;
    },
    removeEventListener(type, fn) {
      const r = remove.apply(this, arguments);
      try {
        if (fn && TYPES.has(type) && isElement(this)) forget(this, type, fn, captureOf(arguments[2]));
      } catch (e) { /* as above */ }
      return r;
    },
  };
  wrappers.set(wrapped.addEventListener, add);
  wrappers.set(wrapped.removeEventListener, remove);
  ET.addEventListener = wrapped.addEventListener;
  ET.removeEventListener = wrapped.removeEventListener;

  // on<type> = fn on elements: record the element; whether a handler is set
  // is read back through the native getter when asked.
  for (const C of [globalThis.HTMLElement, globalThis.SVGElement, globalThis.MathMLElement]) {
    if (!C) continue;
    for (const t of TYPES) {
      const d = Object.getOwnPropertyDescriptor(C.prototype, 'on' + t);
      if (!d || !d.set || !d.get) continue;
      const set = d.set;
      const w = {set ['on' + t](v) { set.call(this, v); try { if (isElement(this)) { entry(this); gen++; } } catch (e) { /* best effort */ } }};
      const ws = Object.getOwnPropertyDescriptor(w, 'on' + t).set;
      wrappers.set(ws, set);
      Object.defineProperty(C.prototype, 'on' + t, {get: d.get, set: ws, enumerable: d.enumerable, configurable: true});
      propGetters.push(d.get);
    }
  }

  // Motion: what an input set in motion, so a look after an action can wait
  // for it (settle.js, in the asking world). A timer with a short delay, an
  // interval, or an animation-frame callback is the input's when it was
  // scheduled from the page's handlers of a trusted input event (or the
  // microtasks, promise continuations and other events that follow, within
  // WINDOW of the input), or from a callback that was itself the input's: a
  // jQuery animation's rAF chain, a menu's 300 ms open delay, a transition's
  // fallback timer; and so is a request it started (see network(), below).
  // Callbacks of everything else (a clock's interval, a poller's timeout
  // chain, a game loop started at load, a request poller's answers) are
  // marked as not the input's, and so is what they schedule: they never
  // hold a look.
  // Work belongs to the burst of input it came from (an action's events
  // follow each other closely; the next action's come after a look, which
  // is QUIET or more later when the work held it): an interval an action
  // started and never stops holds that action's look at most (settle.js
  // bounds it), never a later action's; and no work counts past EXPIRE.
  (() => { // its own scope: its names stay apart from the listener record's
    'use strict'; // a frame callback gets this === undefined, as from the browser
    const W = globalThis, apply = Reflect.apply;
    const perf = W.performance, perfNow = Performance.prototype.now;
    const now = () => perfNow.call(perf);
    const nST = W.setTimeout, nCT = W.clearTimeout, nSI = W.setInterval, nCI = W.clearInterval;
    const nRAF = W.requestAnimationFrame, nCAF = W.cancelAnimationFrame, nQM = W.queueMicrotask;
    const WINDOW = 1200, QUIET = 1000, EXPIRE = 3000, SHORT = 1000, STILL = 300;
    const MO = W.MutationObserver, moObserve = MO.prototype.observe, moTake = MO.prototype.takeRecords, moOff = MO.prototype.disconnect;
    let tickMutated = false, tickMO = null;
    const tickOpts = {subtree: true, childList: true, attributes: true, characterData: true};
    // id -> {o: the input's time, s: a loop's, c: the loop}; timers and
    // frames number their ids apart. A loop's work (s) is an interval, or a
    // frame the input's own callbacks asked for (a rAF chain): an open
    // popover's position loop or a focus trap's watchdog runs as long as the
    // popover or trap, so a loop is firm work (waited for) only while its
    // ticks change the document (a jQuery slide's frames): c.m is when one
    // last did, watched by a mutation observer for the tick alone.
    const timers = Object.create(null), frames = Object.create(null);
    // id -> {o}: requests (and reads of their answers) the input started.
    const nets = Object.create(null);
    let lastInput = -1, burst = -1, cur = null, waiting = false, expiry = 0;

    const markInput = e => {
      if (!e.isTrusted) return;
      const t = now();
      if (lastInput < 0 || t - lastInput >= QUIET) burst = t;
      lastInput = t;
    };
    // (Boundary events come first on a move: a menu opens on mouseover; focus
    // comes before focusin.)
    for (const t of ['pointerover', 'mouseover', 'pointermove', 'mousemove', 'pointerdown', 'mousedown', 'pointerup', 'mouseup',
      'click', 'dblclick', 'contextmenu', 'keydown', 'keyup', 'beforeinput', 'input', 'wheel', 'touchstart', 'touchend',
      'blur', 'focus', 'focusin', 'dragstart', 'drop']) {
      add.call(W, t, markInput, {capture: true, passive: true});
    }

    // originNow is the input the code running now works for, or -1.
    function originNow() {
      if (cur) return cur.o;
      return lastInput >= 0 && now() - lastInput <= WINDOW ? lastInput : -1;
    }
    const fresh = tok => tok.o >= 0 && tok.o >= burst && now() - tok.o <= EXPIRE;

    // (No for-of, spread or method calls on built-ins from here on: the page
    // may have replaced them by the time this runs, and would see the calls.)
    function busyIn(m) {
      let b = false;
      for (const id in m) {
        if (fresh(m[id])) b = true;
        else delete m[id];
      }
      return b;
    }
    const busy = () => busyIn(timers) | busyIn(frames) | busyIn(nets);
    // firm reports whether work other than loops is pending (run after busy,
    // which dropped what went stale).
    function firmIn(m) {
      const t = now();
      for (const id in m) if (!m[id].s || (m[id].c && t - m[id].c.m < STILL)) return true;
      return false;
    }
    const firm = () => firmIn(timers) || firmIn(frames) || firmIn(nets);

    // check tells a waiting asker when the input's work is over, or is down
    // to loops (the asker then watches the document, and asks again).
    function check() {
      if (!waiting) return;
      try {
        if (busy() && firm()) return armExpiry();
      } catch (e) { /* answer done rather than hold the asker */ }
      waiting = false;
      dispatch.call(doc, new Ev(EV + 'z'));
    }
    const later = () => apply(nQM, W, [check]);
    // forgetWork drops work the page cancelled; an id the page passes as an object
    // is not looked up (that would call its toString).
    function forgetWork(m, id) {
      if (typeof id === 'number' && id in m) {
        delete m[id];
        if (waiting) later();
      }
    }

    // armExpiry wakes check when the last pending work expires (a native
    // timer: it is not the page's and is not tracked).
    function armExpiry() {
      let end = 0;
      for (const id in timers) if (timers[id].o + EXPIRE > end) end = timers[id].o + EXPIRE;
      for (const id in frames) if (frames[id].o + EXPIRE > end) end = frames[id].o + EXPIRE;
      for (const id in nets) if (nets[id].o + EXPIRE > end) end = nets[id].o + EXPIRE;
      if (end <= expiry) return;
      expiry = end;
      apply(nST, W, [() => { expiry = 0; check(); }, end - now() + 1]);
    }

    // run calls a timer's or frame's callback as work of tok's input; the
    // microtasks it queues run as that work too (cur is reset after them).
    // A loop's tick of the input's is watched for changes to the document:
    // from the callback's start to the end of its microtasks.
    function run(tok, fn, self, args) {
      cur = tok;
      const watch = tok.c && fresh(tok);
      if (watch) {
        try {
          if (!tickMO) tickMO = new MO(() => { tickMutated = true; });
          tickMutated = false;
          apply(moObserve, tickMO, [doc, tickOpts]);
        } catch (e) { /* unwatched: the loop counts as still */ }
      }
      try {
        return apply(fn, self, args);
      } finally {
        apply(nQM, W, [() => {
          if (cur === tok) cur = null;
          if (watch && tickMO) {
            try {
              if (apply(moTake, tickMO, []).length > 0 || tickMutated) tok.c.m = now();
              apply(moOff, tickMO, []);
            } catch (e) { /* unwatched */ }
          }
          if (waiting) check();
        }]);
      }
    }

    function schedule(native, self, args, repeat) {
      const fn = args[0], d = args[1];
      if (typeof fn !== 'function') return apply(native, self, args);
      let o = -1;
      try {
        // A delay the page passes as an object is converted once, by the
        // browser: its valueOf is not called twice.
        if (d === undefined || typeof d === 'number' || typeof d === 'string') {
          const ms = +d || 0;
          if (ms <= SHORT) o = originNow();
        }
      } catch (e) { o = -1; }
      const tok = {o, s: repeat, c: repeat ? {m: 0} : null};
      const call = [];
      for (let i = 0; i < args.length; i++) call[i] = args[i];
      let id;
      const rest = [];
      for (let i = 2; i < args.length; i++) rest[i - 2] = args[i];
      call[0] = function () {
        if (!repeat && id !== undefined) delete timers[id];
        return run(tok, fn, this, rest);
      };
      id = apply(native, self, call);
      if (o >= 0) timers[id] = tok;
      return id;
    }

    // Network: a request is the input's work when the input's code started
    // it (fetch, XMLHttpRequest.send: a save, a search, a form's answer),
    // until its answer has reached the page and the page's first reactions
    // to it have run (the continuation that writes "Saved" or the result
    // list); a read of a fetch answer's body (json(), text(), …) is the
    // request's work too. Those reactions run as the request's work, so a
    // request, timer or frame they start is the input's when the request
    // was, and not when it was not: a poller's or a long poll's next request
    // never holds a look, nor does a stream (EventSource, WebSocket: not
    // wrapped). A request that never answers holds its look to the bound,
    // and no work counts past EXPIRE or after a later burst of input.
    function network() {
      const pThen = Promise.prototype.then;
      const WM = WeakMap.prototype, wmGet = WM.get, wmSet = WM.set;
      const answers = new WeakMap(); // a fetch's Response -> its request's token
      let seq = 0;
      // hold records tok's request as pending (when the input's); the
      // function it returns ends it, once.
      const hold = tok => {
        if (tok.o < 0) return () => {};
        const id = ++seq;
        nets[id] = tok;
        return () => {
          if (!(id in nets)) return;
          delete nets[id];
          if (waiting) later();
        };
      };
      // handOver runs the reactions to an answer as tok's work: the page's
      // reaction to a promise comes one microtask after the library's, and
      // the code it awaits next one or two after that; then the request ends.
      const handOver = (tok, end) => {
        cur = tok;
        let hops = 3;
        const step = () => {
          if (--hops > 0) return apply(nQM, W, [step]);
          if (cur === tok) cur = null;
          end();
        };
        apply(nQM, W, [step]);
      };
      // follow returns p's outcome, handed over to the page as tok's work.
      const follow = (p, tok, keep) => {
        const end = hold(tok);
        return apply(pThen, p, [v => {
          if (keep) { try { apply(wmSet, answers, [v, tok]); } catch (e) { /* not an object */ } }
          handOver(tok, end);
          return v;
        }, err => {
          handOver(tok, end);
          throw err;
        }]);
      };
      const net = {
        fetch(input) {
          const p = apply(nFetch, this, arguments);
          return follow(p, {o: originNow()}, true);
        },
      };
      const nFetch = W.fetch;
      if (typeof nFetch === 'function') {
        wrappers.set(net.fetch, nFetch);
        W.fetch = net.fetch;
      }
      const RP = W.Response && W.Response.prototype;
      for (const name of ['json', 'text', 'arrayBuffer', 'blob', 'formData', 'bytes']) {
        const native = RP && RP[name];
        if (typeof native !== 'function') continue;
        const w = {[name]() {
          const p = apply(native, this, arguments);
          let tok;
          try { tok = apply(wmGet, answers, [this]); } catch (e) { /* not ours to follow */ }
          return tok ? follow(p, tok, false) : p;
        }}[name];
        wrappers.set(w, native);
        RP[name] = w;
      }
      const XP = W.XMLHttpRequest && W.XMLHttpRequest.prototype;
      const nSend = XP && XP.send;
      const rs = XP && Object.getOwnPropertyDescriptor(XP, 'readyState');
      if (typeof nSend !== 'function' || !rs || !rs.get) return;
      const state = rs.get;
      const xhr = {
        send() {
          const x = this, tok = {o: -1};
          let end = () => {}, done = () => {};
          try {
            tok.o = originNow();
            end = hold(tok);
            // The answer's events (readystatechange, load, loadend) come in
            // one task; a capturing listener at the target runs before the
            // page's, so the page's handlers run as the request's work.
            const onState = () => {
              if (apply(state, x, []) !== 4) return;
              cur = tok;
              apply(nST, W, [() => { if (cur === tok) cur = null; }, 0]);
            };
            const onEnd = () => { done(); handOver(tok, end); };
            done = () => {
              apply(remove, x, ['readystatechange', onState, true]);
              apply(remove, x, ['loadend', onEnd, false]);
            };
            apply(add, x, ['readystatechange', onState, true]);
            apply(add, x, ['loadend', onEnd, false]);
          } catch (e) { /* followed or not, the page's call goes on */ }
          let sent = false;
          try {
            const r = apply(nSend, x, arguments);
            sent = true;
            return r;
          } finally {
            // a synchronous request has answered by now; a failed send never will
            try {
              if (!sent || apply(state, x, []) === 4) { done(); if (cur === tok) cur = null; end(); }
            } catch (e) { /* as above */ }
          }
        },
      };
      wrappers.set(xhr.send, nSend);
      XP.send = xhr.send;
    }

    const motion = {
      setTimeout(handler) { return schedule(nST, this, arguments, false); },
      setInterval(handler) { return schedule(nSI, this, arguments, true); },
      clearTimeout() {
        const r = apply(nCT, this, arguments);
        try { forgetWork(timers, arguments[0]); } catch (e) { /* best effort */ }
        return r;
      },
      clearInterval() {
        const r = apply(nCI, this, arguments);
        try { forgetWork(timers, arguments[0]); } catch (e) { /* best effort */ }
        return r;
      },
      requestAnimationFrame(callback) {
        if (typeof callback !== 'function') return apply(nRAF, this, arguments);
        const tok = {o: originNow(), s: cur !== null, c: cur ? (cur.c || {m: 0}) : null};
        let id;
        const w = function (t) {
          if (id !== undefined) delete frames[id];
          return run(tok, callback, this, [t]);
        };
        id = apply(nRAF, this, [w]);
        if (tok.o >= 0) frames[id] = tok;
        return id;
      },
      cancelAnimationFrame(handle) {
        const r = apply(nCAF, this, arguments);
        try { forgetWork(frames, arguments[0]); } catch (e) { /* best effort */ }
        return r;
      },
    };
    for (const [name, native] of [['setTimeout', nST], ['setInterval', nSI], ['clearTimeout', nCT], ['clearInterval', nCI],
      ['requestAnimationFrame', nRAF], ['cancelAnimationFrame', nCAF]]) {
      if (typeof native !== 'function') continue;
      wrappers.set(motion[name], native);
      W[name] = motion[name];
    }
    network();
    add.call(doc, EV + 'w', () => {
      let b = false, f = true;
      try { b = busy(); } catch (e) { /* not busy, then */ }
      if (!b) return;
      try { f = firm(); } catch (e) { /* firm, then: waited for */ }
      waiting = true;
      if (f) dispatch.call(doc, new Ev(EV + 'f'));
      dispatch.call(doc, new Ev(EV + 'b'));
      try { armExpiry(); } catch (e) { /* the asker's own bound holds */ }
    });
  })();

  const fnToString = Function.prototype.toString;
  const toString = {toString() { return fnToString.call(wrappers.get(this) || this); }}.toString;
  wrappers.set(toString, fnToString);
  Function.prototype.toString = toString;

  // Inside a closed shadow tree the asking world would see only the host
  // (the event is retargeted), and would take the host for the control.
  function closedIn(el) {
    if (!SR) return false;
    for (let r = rootOf.call(el); r instanceof SR; r = rootOf.call(hostOf.call(r))) {
      if (modeOf.call(r) === 'closed') return true;
    }
    return false;
  }

  function live(el) {
    const list = seen.get(el);
    if (list && list.length) return true;
    for (const g of propGetters) { try { if (g.call(el)) return true; } catch (e) { /* not this kind of element */ } }
    return false;
  }

  add.call(doc, EV + 'i', e => e.preventDefault());
  add.call(doc, EV + 'q', () => {
    try {
      const keep = [];
      for (const r of refs) {
        const el = r.deref();
        if (!el) continue;
        keep.push(r);
        if (connected.call(el) && live(el) && !closedIn(el)) dispatch.call(el, new Ev(EV + 'a', {composed: true}));
      }
      refs = keep;
      told = gen;
    } catch (e) { /* answer what could be answered */ }
  });
  add.call(doc, EV + 'p', () => {
    if (gen !== told) dispatch.call(doc, new Ev(EV + 'a', {composed: true}));
  });

  // ---- ElementInternals record ------------------------------------------
  // A custom element can give itself a role, states and a name through
  // ElementInternals (this.attachInternals(); internals.role = 'tab';
  // internals.ariaSelected = 'true'): no attribute shows them and the
  // isolated world cannot reach the internals object, yet Chromium's AX tree
  // reads them. The record keeps the internals of every element that asked
  // for them (weakly) and answers, inside one dispatchEvent as above:
  //   EV+'r' on document: EV+'n', a CustomEvent whose detail is a JSON
  //          string of the role and ARIA properties set
  //          ({"role":"tab","aria-selected":"true"}), dispatched on every
  //          recorded, connected element outside closed shadow trees that
  //          has any set;
  //   EV+'s' on document: EV+'n' on the document itself when a role or
  //          ARIA property of some internals changed value since the last
  //          EV+'r'.
  // Nothing here touches the DOM either; the wrapped attachInternals and
  // setters look native as the listener wrappers do.
  (() => {
    const EI = globalThis.ElementInternals, HE = globalThis.HTMLElement;
    if (!EI || !HE || typeof HE.prototype.attachInternals !== 'function') return;
    const CE = CustomEvent, stringify = JSON.stringify;
    const attach = HE.prototype.attachInternals;
    const owners = new WeakMap(); // element -> its ElementInternals
    let irefs = [], igen = 0, itold = 0;
    const w = {
      attachInternals() {
        const r = attach.apply(this, arguments);
        try { if (!owners.has(this)) { owners.set(this, r); irefs.push(new WR(this)); igen++; } } catch (e) { /* best effort */ }
        return r;
      },
    };
    wrappers.set(w.attachInternals, attach);
    HE.prototype.attachInternals = w.attachInternals;
    // The string-valued ARIA reflection (role, ariaSelected, …): element
    // references (ariaLabelledByElements) cannot travel as text.
    const props = [];
    for (const p of Object.getOwnPropertyNames(EI.prototype)) {
      if (p !== 'role' && !/^aria[A-Z]/.test(p)) continue;
      const d = Object.getOwnPropertyDescriptor(EI.prototype, p);
      if (!d || !d.get || !d.set) continue;
      const set = d.set, get = d.get;
      const ws = Object.getOwnPropertyDescriptor({set [p](v) {
        let was;
        try { was = get.call(this); } catch (e) { /* not an ElementInternals: the native setter throws */ }
        set.call(this, v);
        try { if (get.call(this) !== was) igen++; } catch (e) { /* as above */ }
      }}, p).set;
      wrappers.set(ws, set);
      Object.defineProperty(EI.prototype, p, {get: d.get, set: ws, enumerable: d.enumerable, configurable: true});
      if (!/Elements?$/.test(p)) props.push([p === 'role' ? 'role' : 'aria-' + p.slice(4).toLowerCase(), get]);
    }
    add.call(doc, EV + 'r', () => {
      try {
        const keep = [];
        for (const r of irefs) {
          const el = r.deref();
          if (!el) continue;
          keep.push(r);
          if (!connected.call(el) || closedIn(el)) continue;
          const i = owners.get(el), o = {};
          let any = false;
          for (let k = 0; k < props.length; k++) {
            const v = props[k][1].call(i);
            if (typeof v === 'string') { o[props[k][0]] = v; any = true; }
          }
          if (any) dispatch.call(el, new CE(EV + 'n', {composed: true, detail: stringify(o)}));
        }
        irefs = keep;
        itold = igen;
      } catch (e) { /* answer what could be answered */ }
    });
    add.call(doc, EV + 's', () => {
      if (igen !== itold) dispatch.call(doc, new CE(EV + 'n', {composed: true, detail: ''}));
    });
  })();
  // ---- end of the ElementInternals record --------------------------------

  // ---- closed shadow roots -------------------------------------------------
  // A closed shadow root hides its tree from the isolated world (shadowRoot
  // is null there) on any host that takes one, a <div> as well as a custom
  // element, and the inventory would read its controls as nothing at all.
  // The record keeps (weakly) every element given a closed root through
  // attachShadow and answers, inside one dispatchEvent as above:
  //   EV+'c' on document: EV+'h' on the document itself when some such
  //          host is still connected.
  // The walk then hands the document to the AX tree, which sees inside.
  // (A declarative closed root, <template shadowrootmode="closed">, is made
  // by the parser without attachShadow and is not seen here.)
  (() => {
    const EP = globalThis.Element && Element.prototype;
    if (!EP || typeof EP.attachShadow !== 'function' || !modeOf) return;
    const attachShadow = EP.attachShadow;
    let hosts = [];
    const w = {
      attachShadow(init) { // (one parameter, as the native's length says)
        const r = attachShadow.apply(this, arguments);
        try { if (modeOf.call(r) === 'closed') hosts.push(new WR(this)); } catch (e) { /* best effort */ }
        return r;
      },
    };
    wrappers.set(w.attachShadow, attachShadow);
    EP.attachShadow = w.attachShadow;
    add.call(doc, EV + 'c', () => {
      try {
        hosts = hosts.filter(r => r.deref());
        if (hosts.some(r => connected.call(r.deref()))) dispatch.call(doc, new Ev(EV + 'h'));
      } catch (e) { /* answer what could be answered */ }
    });
  })();
})
