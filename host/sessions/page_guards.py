"""Scripts the host puts into every page, so that a page's flood stays in the page.

`console_limiter` replaces each `console` method of every frame (an init script runs in every
frame, child frames included, before the page's own scripts) with one that forwards at most
`per_second` calls a second and counts the rest; once a second it reports the count as one
warning that starts with `DROPPED_MARKER`, which the session turns into its dropped counter. A
page that logs a million lines then costs its own renderer a million cheap calls, not the
driver, the host or other sessions a million messages. Uncaught errors and unhandled
rejections past the same limit are held back too (a cancelled `error` event is not reported to
DevTools) and counted the same way. The script runs in workers as well (`worker_guard`).

`lasting_workers_refused` refuses shared workers and service workers: they are no child of the
page's target, so neither the init script nor the tab's DevTools session reaches them (their
console and errors would escape both limits), and they outlive the page and its session. A page
that asks for one gets an exception (a rejected promise for a service worker) whose message says
why; dedicated workers are unaffected.
"""

from __future__ import annotations

import json

DROPPED_MARKER = "[playwright-tool-host] dropped "
CONSOLE_METHODS = (
    "log",
    "info",
    "warn",
    "error",
    "debug",
    "trace",
    "dir",
    "dirxml",
    "table",
    "assert",
    "count",
    "countReset",
    "timeLog",
    "group",
    "groupCollapsed",
)


def console_limiter(per_second: int) -> str:
    """The init script limiting console calls and uncaught errors to `per_second` a second per
    frame (and per worker)."""
    return f"""(() => {{
  const limit = {int(per_second)}, marker = {json.dumps(DROPPED_MARKER)};
  const c = globalThis.console;
  if (!c || c.__hostLimited) return;
  const warn = c.warn;
  let start = 0, used = 0, dropped = 0;
  const report = () => {{
    if (dropped) {{ const n = dropped; dropped = 0; warn.call(c, marker + n); }}
  }};
  const over = () => {{
    const now = Date.now();
    if (now - start >= 1000) {{ report(); start = now; used = 0; }}
    if (++used > limit) {{ if (dropped++ === 0) setTimeout(report, 1000); return true; }}
    return false;
  }};
  for (const name of {json.dumps(list(CONSOLE_METHODS))}) {{
    const original = c[name];
    if (typeof original !== 'function') continue;
    const limited = function (...args) {{
      return over() ? undefined : original.apply(this, args);
    }};
    Object.defineProperty(c, name, {{ value: limited, writable: true, configurable: true }});
  }}
  if (typeof globalThis.addEventListener === 'function') {{
    for (const type of ['error', 'unhandledrejection']) {{
      globalThis.addEventListener(type, (event) => {{ if (over()) event.preventDefault(); }});
    }}
  }}
  Object.defineProperty(c, '__hostLimited', {{ value: true }});
}})();"""


LASTING_WORKERS_REFUSED = (
    "refused by the host: shared and service workers outlive the page and escape its console"
    " and error limits; use a dedicated Worker"
)


def lasting_workers_refused() -> str:
    """The init script that refuses `SharedWorker` and `navigator.serviceWorker.register` in
    every frame (a page cannot put them back: the properties are locked)."""
    message = json.dumps(LASTING_WORKERS_REFUSED)
    return f"""(() => {{
  const message = {message};
  const lock = (target, name, value) => {{
    try {{
      Object.defineProperty(target, name, {{ value, writable: false, configurable: false }});
    }} catch (error) {{}}
  }};
  if (typeof globalThis.SharedWorker === 'function') {{
    lock(globalThis, 'SharedWorker', function SharedWorker() {{
      throw new DOMException(message, 'SecurityError');
    }});
  }}
  const container = globalThis.ServiceWorkerContainer;
  if (typeof container === 'function') {{
    lock(container.prototype, 'register', function register() {{
      return Promise.reject(new DOMException(message, 'SecurityError'));
    }});
  }}
}})();"""
