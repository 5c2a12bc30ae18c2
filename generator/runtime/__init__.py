"""Modules of the generated package that do not depend on the tools: plain Python, linted and
type-checked here, and copied into every generated package (`runtime_files`). The generator
never imports them; they import the generated package."""
