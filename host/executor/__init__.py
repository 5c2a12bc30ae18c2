"""The web executor service: one planner action (navigate, fill, submit, snapshot) per request.

`python -m host executor` serves it (see docs/executor.md). The modules each do one job:
`payload` (validation), `urlpolicy` (which URLs an action may open), `drift` (selector candidates
and the retry schedule), `pii` (selectors made safe to remember), `redaction` (secret values kept
out of every output), `excerpt` (the sanitised DOM excerpt), `runner` (one action on one session),
`prepared` (the next action's session, made while one runs), `action_session` (what an action's
session leaves out), `stacks` (the stack Playwright keeps per message), `engines` (which browser engine runs), `service` (the service's state and answers), `app`
(the ASGI app), `logs` (JSON log lines), `privileges` (dropping root), `cli` (the command line).

Nothing but the command line (`host.commands`) imports it.
May import: `host.transports` (the HTTP server and its request checks), `host.tools`,
`host.calls`, `host.trails`, `host.sessions`, `host.browsers`, `host.settings`, `host.shared`.
"""
