"""Small pieces every stage of the generator uses: errors with places and exit statuses
(`diagnostics`), the verified content-addressed cache and the code digests in its keys (`cache`,
`code_digest`), names as values with rules (`names`), the Playwright objects a tool runs on
(`targets`), test checkpoints, installed versions and JSON shape checks.

May import: nothing of the generator but `generator.__version__` (it is the bottom rank;
`tests/test_layers.py`). Kept to this docstring: importing a module of the package loads no other.
"""
