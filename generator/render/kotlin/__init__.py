"""The Kotlin shims for Trailblaze (the `trailblaze` output kind): `settings` and `trailblaze_api`
say what they are written for (`--kotlin-package`, `--trailblaze-api`; loaded without the writer,
so a run that writes no Kotlin does not load it), `shim` writes them.

Part of `generator.render`: may import what it may. Kept to this docstring.
"""
