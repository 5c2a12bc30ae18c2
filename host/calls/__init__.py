"""One tool call from its name to its outcome: the core every transport calls (`core`:
`Host.call`), the registry of tools and toolsets (`registry`), the generated shims (`generated`),
the bounds on results (`result_caps`), the outcome (`results`) and an action's page feedback
(`feedback`).

The registry runs a hand-authored tool by the name its descriptor gives (`calls.python:
host.tools.<name>:<function>`): data, not an import, so the tools sit above this package.

May import: `host.trails`, `host.sessions`, `host.browsers`, `host.settings`, `host.shared`.
"""
