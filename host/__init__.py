"""The run-time tool host: serves the generated Playwright tools over MCP and the scripting callback.

Its packages, bottom first; each imports only its own package and those listed before it
(tests/test_layers.py checks this and that no import runs in a circle):

`shared` (JSON types, the error type, tool descriptors, caches) < `settings` (the settings value
`HostConfig` and how options and files are read) < `browsers` (launch, endpoints) < `sessions`
(a session and its tabs, the session table, guards, targets) < `trails` (recording calls) <
`calls` (one call from name to outcome: core, registry, results) < `tools` (the hand-authored
tools) < `transports` (stdio, MCP, HTTP, the scripting callback) < `executor` (the web executor
service) < `commands` (the command lines). `toolsets` holds data only.
"""
