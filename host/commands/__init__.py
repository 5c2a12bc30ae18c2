"""The command lines, on top of everything: `python -m host` / `playwright-tool-host` (`cli`:
`serve`, `report`, `executor`, `replay`, `export`; `entry` first, which starts Playwright's driver
for `serve --stdio` before the rest is imported), the toolset report (`report`) and the trail
commands (`trail_cli`, `replay`, `export`). They turn arguments and config files into a
`HostConfig` and start what was asked for.

May import: every other package of the host (`host.executor` included).
"""
