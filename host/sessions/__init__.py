"""Isolated browser sessions: a session and its tabs (`session`), the table of sessions
(`manager`), their keys (`keys`), the guards on pages, workers and the host's own ports
(`page_guards`, `worker_guard`, `selfguard`), where pages may go (`navigation`), downloads and
uploads, what a target names on a page (`targets`) and waiting for what an action set off
(`settle`, on the evidence `pending_work` notes in the page).

May import: `host.browsers`, `host.settings`, `host.shared`.
"""
