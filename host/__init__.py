"""The run-time tool host: serves the generated Playwright tools over MCP and the scripting callback."""
