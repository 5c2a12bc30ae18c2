"""What a reviewer reads when Playwright moves: `diff_report` compares two surface manifests
(`python -m generator diff`), and `bump` moves the project to another release and writes its
report (`python -m generator bump`).

May import: `generator.write`, `generator.render`, `generator.model`, `generator.read` and
`generator.shared` (`tests/test_layers.py`). Kept to this docstring.
"""
