"""What the translations of the peer's `cli-*.spec.ts` files share: the pages its cli fixtures
define (`eventsPage`) and the reason given for a case that checks the peer's `playwright-cli`
program rather than a tool.

The peer's cli spec files drive `playwright-cli`, a command line whose commands call its MCP
tools through a daemon. A case whose point is a tool's behaviour is translated into calls of our
tools; a case whose point is the program itself (its daemon and sessions, help text, argument
parsing, its config files, its output formats) says so with `cli_only`.
"""

from __future__ import annotations


def cli_only(what: str) -> str:
    """The ledger's reason for a case about the peer's `playwright-cli` program itself."""
    return (
        f"differs: not a tool case: {what}, a feature of the peer's playwright-cli program, "
        "which this host does not ship"
    )


# cli-fixtures.ts `eventsPage`: a 400x400 body that logs mouse and wheel events into #log.
EVENTS_PAGE = """<!DOCTYPE html>
<html>
  <body style="width: 400px; height: 400px; margin: 0; padding: 0;">
    <div id='square'style="width: 100px; height: 100px;"></div>
    <div id='log'></div>
    <script>
      const logElement = document.querySelector('#log');

      const log = (...args) => {
        const el = document.createElement('div');
        el.textContent = args.join(' ');
        logElement.appendChild(el);
      };
      document.body.addEventListener('mousemove', (event) => {
        log('mouse move', event.clientX, event.clientY);
      });
      document.body.addEventListener('mousedown', () => {
        log('mouse down');
      });
      document.body.addEventListener('mouseup', () => {
        log('mouse up');
      });
      document.body.addEventListener('wheel', (event) => {
        log('wheel', event.deltaX, event.deltaY);
      });
      document.body.addEventListener('click', () => {
        log('click', event.button);
      });
      document.body.addEventListener('dblclick', (event) => {
        log('dblclick', event.button);
      });
    </script>
  </body>
</html>
"""
