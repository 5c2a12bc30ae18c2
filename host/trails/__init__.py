"""Trails: what a session did, recorded as tool calls (`recorder`), in their file format
(`trail`), with the locators a recorded target became (`locators`) and the Playwright code a call
amounts to (`code`, `render`). Replaying and exporting a trail are commands (`host.commands`).

May import: `host.sessions`, `host.browsers`, `host.settings`, `host.shared`.
"""
