"""Generates Playwright tools (Python shims, .tool.yaml, .d.ts) from allowlist.yaml."""

__version__ = "0.1.0"
