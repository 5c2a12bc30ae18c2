"""The model rendered into text, one text per output file: `outputs` registers every kind of output
(a view, a template, a path), `views` precomputes every string a template prints with the
per-target type writers (`writers/`), `rendering` renders them through `templating` (Jinja, with
`yaml_text`'s filters; the built-in templates are found by `template_dir`) and lays Python out
(`writers/python_layout`, or black through `python_format`), keeping each tool's files in
`tool_memo`; `manifest` and `allowlist_schema` are outputs written as JSON; `kotlin/` writes the
Kotlin shims for Trailblaze and names what they are written for.

May import: `generator.model`, `generator.read` and `generator.shared` (`tests/test_layers.py`).
Kept to this docstring.
"""
