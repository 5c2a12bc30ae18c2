"""The rendered tree written: `output` writes it as a transaction (or diffs it for `--check`),
`ledger` records what the generator wrote and keeps it from touching anything else, `lock` lets one
run at a time write an output folder, and `quick_check` answers an up-to-date run before anything
heavy is imported (so it imports nothing of the generator).

May import: `generator.render`, `generator.model`, `generator.read` and `generator.shared`
(`tests/test_layers.py`; today it needs only `read` and `shared`). Kept to this docstring: the
quick check is imported through this package before anything else.
"""
