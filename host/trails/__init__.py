"""Trails: what a session did, recorded as tool calls, replayed without a model and exported as
a Playwright test. The transports call into this package; nothing here imports a transport."""
