"""The hand-authored tools, each in one place: `<name>.tool.yaml` (what the tool is, its schema,
its flags) beside `<name>.py` (what it does, named by the descriptor's `calls.python`), and two
helpers of their own: `page_text` (a page's text) and `execute_worker` (the worker process of
`browser_execute_python`). Helpers shared with the call path live below (`host.sessions.targets`,
`host.sessions.uploads`, `host.calls.feedback`).

May import: `host.calls`, `host.trails`, `host.sessions`, `host.browsers`, `host.settings`,
`host.shared`.
"""
