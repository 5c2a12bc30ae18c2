"""The generator's inputs, read: the allowlist (`allowlist`), the Playwright JAR found
(`jar_resolver`) and reflected (`java_reflect`, the only module that touches the JVM, with
`javadoc` from the sources JAR, joined by `java_surface` into the plain `java_model`), the Python
API read with `ast` (`python_api`, `python_types`), any release's Python API (`python_release`)
and which releases are published (`releases`).

May import: `generator.shared` only (`tests/test_layers.py`). Kept to this docstring.
"""
