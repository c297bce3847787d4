// rodagent's settle: what a look right after an action waits for, in the
// library's isolated world of a document, before it reads the page. It
// resolves once
//   - the page has rendered a frame and run the tasks that follow it
//     (frameworks commit and run effects there): always;
//   - the work the action's input set in motion is done: short timers,
//     intervals and animation-frame chains scheduled because of it, and
//     requests it started (fetch, XMLHttpRequest) until their answers and
//     the page's reactions to them have run (the main-world record in
//     listeners.js tracks them and answers through the random-named events
//     EV+'w' / EV+'b' / EV+'z'; a jQuery UI menu's 300 ms open delay, a
//     jQuery slide, a Bootstrap transition's fallback, a "Saved" line or a
//     result list written when the server answers);
//   - running finite CSS animations and transitions have ended (a fade-in
//     whose element reads as hidden until it is opaque), never infinite
//     ones (spinners) nor ones that end past the bound;
//   - the DOM stopped changing, for a frame or two, after that work;
//   - loops the input started (an interval, a requestAnimationFrame chain)
//     count while their ticks change the document (the record watches
//     each tick); loops that change nothing are the page's upkeep (a focus
//     trap's watchdog interval, a popover's position loop: MUI, Fluent UI,
//     Headless UI), and once only they are left, QUIET_FRAMES frames and
//     QUIET_MS into the look (time for a loop that polls for something to
//     find it), the page is at rest;
// and at most CAP ms after it started, whatever the page does. A look after
// a click that set nothing in motion costs one frame, as before, plus one
// synchronous question to the record. A hidden tab renders no frames and
// is read at once.
// It resolves to true when the page came to rest (or is hidden), else to
// what was still going at the bound, for the look to tell its reader (the
// values of rodagent.Unsettled):
// 'no_frames' (the page drew no frame at all, so its animations had not even
// started: a starved or stalled renderer), 'animation', 'work' (a timer or
// request the action started, or a loop of its still changing the page),
// or 'dom' (the page kept changing).
async (ev) => {
  if (document.visibilityState !== 'visible') return true;
  const CAP = 1500, QUIET_FRAMES = 20, QUIET_MS = 300, t0 = performance.now();
  const left = () => CAP - (performance.now() - t0);
  const after = ms => new Promise(r => setTimeout(r, Math.max(0, ms)));
  // a frame that never comes is not waited for beyond 100 ms
  const frame = () => Promise.race([new Promise(r => requestAnimationFrame(() => setTimeout(r, 0))), after(100)]);
  const undo = [];
  // frames the page rendered during the look (none: a stalled renderer)
  let frames = 0, counting = true;
  const count = () => { frames++; if (counting) requestAnimationFrame(count); };
  requestAnimationFrame(count);
  undo.push(() => { counting = false; });
  await frame();

  let changed = false;
  const mo = new MutationObserver(() => { changed = true; });
  mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  undo.push(() => mo.disconnect());

  // pending asks the record whether the input's work is still running, and
  // returns a promise of its end and whether it is more than loops (null
  // when there is none).
  const pending = () => {
    if (!ev) return null;
    let busy = false, firm = false;
    const heard = () => { busy = true; }, heardFirm = () => { firm = true; };
    document.addEventListener(ev + 'b', heard, true);
    document.addEventListener(ev + 'f', heardFirm, true);
    try {
      document.dispatchEvent(new Event(ev + 'w'));
    } finally {
      document.removeEventListener(ev + 'b', heard, true);
      document.removeEventListener(ev + 'f', heardFirm, true);
    }
    if (!busy) return null;
    const done = new Promise(r => {
      const end = () => { document.removeEventListener(ev + 'z', end, true); r(); };
      document.addEventListener(ev + 'z', end, true);
      undo.push(() => document.removeEventListener(ev + 'z', end, true));
    });
    return {done, firm};
  };

  // animating lists the running animations that end within the bound.
  const animating = () => {
    const out = [];
    if (typeof document.getAnimations !== 'function') return out;
    for (const a of document.getAnimations()) {
      try {
        if (a.playState !== 'running' || !a.effect) continue;
        const t = a.effect.getComputedTiming(), at = a.currentTime, rate = a.playbackRate;
        // a scroll-driven animation's time is no clock: it ends when the page scrolls
        if (typeof at !== 'number' || !rate || !Number.isFinite(t.endTime)) continue;
        const rest = (rate > 0 ? t.endTime - at : at) / Math.abs(rate);
        if (rest <= left()) out.push(a.finished.then(() => {}, () => {}));
      } catch (e) { /* an animation that went away under the look */ }
    }
    return out;
  };

  try {
    let going = null; // what the last round still waited on at the bound
    for (let extra = 0; left() > 0;) {
      const waits = animating();
      const work = pending();
      going = null;
      if (work && !work.firm && waits.length === 0) {
        // Only loops that change nothing run: at rest, past the grace;
        // until then, ask again each frame.
        if (frames >= QUIET_FRAMES && performance.now() - t0 >= QUIET_MS) return true;
        await Promise.race([work.done, frame(), after(left())]);
        going = 'work';
        continue;
      }
      if (work) waits.push(work.done);
      if (waits.length === 0) {
        // Nothing is running: done, unless the last frame still changed
        // the DOM after work ended (a framework rendering in steps).
        if (!changed || extra >= 2) return true;
        extra++;
        going = 'dom';
      } else {
        let rested = false;
        await Promise.race([Promise.all(waits).then(() => { rested = true; }), after(left())]);
        if (!rested) going = work ? 'work' : 'animation';
      }
      changed = false;
      await frame();
    }
    if (!going) return true;
    return frames > 0 ? going : 'no_frames';
  } finally {
    for (const u of undo) u();
  }
}
