"""What an action set off in the page and has not finished: the evidence `settle` waits on.

`PENDING_WORK_SCRIPT` is an init script (every frame, before the page's own scripts; a page's
CSP does not apply to it, since Playwright adds it through DevTools). It notes work the page
starts while it handles an input event (a click, a key, `input`, `change`, `submit`, a drop...)
and the work that work starts in turn, up to `MAX_GENERATION` steps deep:

- a `setTimeout` of at most 10 s, or the first tick of a `setInterval` (later ticks are recurring
  work and hold nothing), until it runs or is cleared;
- a `requestAnimationFrame`, until it runs;
- a `fetch` or an `XMLHttpRequest`, and the reading of a fetched body, until it ends (the code
  it resolves runs as noted work too);
- microtasks and posted messages (`MessagePort`/`window.postMessage`, which React's scheduler
  uses) queued meanwhile: the "noted" state lasts until the task that set it and any message
  it posted have run;
- a cross-document navigation or a download the page starts (the Navigation API's `navigate`).

`probe(frame, limit_ms)` reads one frame: how many noted timers are due within `limit_ms` (or
overdue) and the nearest, animation frames and requests still pending, whether noted work is
running now, and how long ago the page last started a navigation. None when the script is not
in the frame (a document it could not run in); the settle then falls back to a fixed wait.

Guarantees: the script is idempotent (a second run does nothing), adds one non-enumerable
property (`__hostPendingWork`), keeps at most 1000 timers noted, never changes what the
page's timers, requests or messages do, and is not installed into workers. A probe costs one
evaluation per frame and reads nothing the page could make large.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from playwright.async_api import Frame

MAX_GENERATION = 4
"""Steps of work started by work started by the action that are still followed: a timer whose
callback sets a timer is followed, a chain of them (a poll loop) stops being followed here."""

PENDING_WORK_SCRIPT = (
    """(() => {
  const W = window, KEY = '__hostPendingWork';
  if (Object.prototype.hasOwnProperty.call(W, KEY)) return;
  const MAXGEN = """
    + str(MAX_GENERATION)
    + """, MAXTIMERS = 1000, MAXDELAY = 10000;
  const now = () => performance.now();
  const timers = new Map(), frames = new Set();
  let fetches = 0, navAt = -1, gen = -1, posted = false, reposts = 0, postedMeanwhile = false;
  const channel = new MessageChannel();
  const portPost = MessagePort.prototype.postMessage;
  // Noted work lasts until this task (its microtasks included) and any message it posted have
  // run; then the page is back to its own, unnoted, work.
  channel.port1.onmessage = () => {
    if (postedMeanwhile && reposts < MAXGEN) {
      postedMeanwhile = false; reposts++; portPost.call(channel.port2, 0); return;
    }
    gen = -1; posted = false; reposts = 0; postedMeanwhile = false;
  };
  const hold = (g) => {
    if (gen < 0 || g < gen) gen = g;
    if (!posted) { posted = true; portPost.call(channel.port2, 0); }
  };
  const next = () => (gen >= 0 && gen < MAXGEN ? gen + 1 : -1);
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'dblclick',
      'auxclick', 'contextmenu', 'mouseover', 'keydown', 'keypress', 'keyup', 'beforeinput',
      'input', 'change', 'submit', 'reset', 'focusin', 'focusout', 'dragstart', 'dragenter',
      'dragover', 'drop', 'dragend', 'wheel']) {
    W.addEventListener(type, () => hold(0), true);
  }
  const sT = W.setTimeout, cT = W.clearTimeout, sI = W.setInterval, cI = W.clearInterval;
  const rAF = W.requestAnimationFrame, cAF = W.cancelAnimationFrame;
  const wrap = (schedule) => function (fn, delay, ...rest) {
    const g = next(), d = Math.max(0, Number(delay) || 0);
    if (g < 0 || typeof fn !== 'function' || d > MAXDELAY || timers.size >= MAXTIMERS) {
      return schedule.apply(W, arguments);
    }
    let first = true;
    const id = schedule.call(W, function (...args) {
      if (first) { first = false; timers.delete(id); hold(g); }
      return fn.apply(this, args);
    }, d, ...rest);
    timers.set(id, now() + d);
    return id;
  };
  W.setTimeout = wrap(sT);
  W.setInterval = wrap(sI);
  W.clearTimeout = function (id) { timers.delete(id); return cT.apply(W, arguments); };
  W.clearInterval = function (id) { timers.delete(id); return cI.apply(W, arguments); };
  if (rAF) {
    W.requestAnimationFrame = function (fn) {
      const g = next();
      if (g < 0 || typeof fn !== 'function') return rAF.apply(W, arguments);
      const id = rAF.call(W, (t) => { frames.delete(id); hold(g); return fn(t); });
      frames.add(id);
      return id;
    };
    W.cancelAnimationFrame = function (id) { frames.delete(id); return cAF.apply(W, arguments); };
  }
  const f = W.fetch;
  if (f) {
    W.fetch = function () {
      const g = next();
      const p = f.apply(this, arguments);
      if (g < 0) return p;
      fetches++;
      const end = () => { fetches--; hold(g); };
      return p.then((v) => { end(); return v; }, (e) => { end(); throw e; });
    };
  }
  // A body read (`r.text()`, `r.json()`...) ends in a task of its own: what runs after it is
  // noted work too.
  const R = W.Response && W.Response.prototype;
  if (R) {
    for (const name of ['text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes']) {
      const read = R[name];
      if (typeof read !== 'function') continue;
      R[name] = function () {
        const g = next();
        const p = read.apply(this, arguments);
        if (g < 0) return p;
        fetches++;
        const end = () => { fetches--; hold(g); };
        return p.then((v) => { end(); return v; }, (e) => { end(); throw e; });
      };
    }
  }
  const X = W.XMLHttpRequest && W.XMLHttpRequest.prototype;
  if (X) {
    const send = X.send, noted = new WeakMap();
    X.send = function () {
      const g = next(), xhr = this;
      if (g >= 0 && !noted.has(xhr)) {
        noted.set(xhr, g); fetches++;
        xhr.addEventListener('readystatechange', function end() {
          if (xhr.readyState !== 4 || !noted.has(xhr)) return;
          noted.delete(xhr); fetches--; hold(g); xhr.removeEventListener('readystatechange', end);
        });
      }
      try { return send.apply(this, arguments); } catch (e) {
        if (noted.has(xhr)) { noted.delete(xhr); fetches--; }
        throw e;
      }
    };
  }
  const winPost = W.postMessage;
  W.postMessage = function () { if (gen >= 0) postedMeanwhile = true; return winPost.apply(this, arguments); };
  MessagePort.prototype.postMessage = function () {
    if (gen >= 0) postedMeanwhile = true;
    return portPost.apply(this, arguments);
  };
  if (W.navigation && W.navigation.addEventListener) {
    W.navigation.addEventListener('navigate', (e) => {
      if (!e.destination || !e.destination.sameDocument || e.downloadRequest) navAt = now();
    });
  }
  Object.defineProperty(W, KEY, { value: (limit) => {
    const t = now();
    let due = 0, soonest = Infinity;
    for (const at of timers.values()) {
      if (at - t <= limit) { due++; soonest = Math.min(soonest, at - t); }
    }
    return { timers: due, next: due ? Math.max(0, soonest) : -1, frames: frames.size,
             fetches, busy: gen >= 0, navAgo: navAt < 0 ? -1 : t - navAt };
  } });
})();"""
)

_PROBE = "(limit) => { const p = window.__hostPendingWork; return p ? p(limit) : null; }"


@dataclass(frozen=True)
class Pending:
    """One frame's noted work: `timers` due within the probe's limit (or overdue) and `next_ms`
    until the nearest (-1: none), `frames` animation frames and `fetches` requests still
    pending, `busy` while noted work runs, `nav_ago_ms` since the page last started a navigation
    or a download (-1: never)."""

    timers: int
    next_ms: float
    frames: int
    fetches: int
    busy: bool
    nav_ago_ms: float


async def probe(frame: Frame, limit_ms: float) -> Pending | None:
    """The frame's noted work; None when the script is not in it (it could not run there).
    Raises PlaywrightError when the frame cannot answer (detached, navigating, closed)."""
    raw = await frame.evaluate(_PROBE, limit_ms)
    if not isinstance(raw, dict):
        return None
    with contextlib.suppress(KeyError, TypeError, ValueError):
        return Pending(
            timers=int(raw["timers"]),
            next_ms=float(raw["next"]),
            frames=int(raw["frames"]),
            fetches=int(raw["fetches"]),
            busy=bool(raw["busy"]),
            nav_ago_ms=float(raw["navAgo"]),
        )
    return None
