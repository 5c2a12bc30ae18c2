"""The ways in: MCP over stdio (`stdio` and its wire `stdio_wire`, with `early_answers` before the
SDK is loaded), the MCP server (`mcp_server`) and the results of calls (`call_results`), the HTTP app and server (`http_app`, `http_server`),
the checks on every HTTP request (`security`, `request_ids`) and the scripting callback
(`scripting`). Each maps its callers to a session key and calls `Host.call`.

May import: `host.tools`, `host.calls`, `host.trails`, `host.sessions`, `host.browsers`,
`host.settings`, `host.shared`.
"""
