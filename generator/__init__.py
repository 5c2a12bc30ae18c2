"""Generates Playwright tools (Python shims, .tool.yaml, .d.ts) from allowlist.yaml.

Its packages by stage, bottom first; each imports only its own package and those listed before it
(tests/test_layers.py checks this and that no import runs in a circle):

`shared` (diagnostics, the cache and its code digests, names, targets) < `read` (the allowlist,
the JAR resolved and reflected, javadoc, the Python API, releases) < `model` (the Tool IR, the
type tree, lowering, overloads, binding, model text, the surface report) < `render` (views, type
writers, outputs, templating, layout and formatting) < `write` (the output transaction, ledger,
lock, quick check) < `review` (the diff report, the bump) < `commands` (the command lines and the
pipeline they drive). `runtime` is copied into the generated package and imports none of them;
`templates/` (installed as `generator.templates`) holds data only.
"""

__version__ = "0.1.0"
