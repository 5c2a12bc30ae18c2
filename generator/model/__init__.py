"""The model: the Tool IR (`ir`) and the neutral type tree (`type_tree`) every writer reads, and
how the inputs become them: `binding` per allowlist entry, with `overloads` (merging Java
overloads), `lowering` (Java types into the type tree), `python_binding` (how each argument
reaches Python), `java_objects` (how JSON objects become Java ones), `live_objects` (which live
results are handles or summaries), `bounds` (limits on numeric arguments), `model_text`
(descriptions rewritten for their reader), `refusal` (why a method is not a tool) and
`surface_report` (every method, as a tool or with its refusal).

May import: `generator.read` and `generator.shared` (`tests/test_layers.py`). Kept to this
docstring.
"""
