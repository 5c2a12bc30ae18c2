"""The Kotlin shims for Trailblaze (the `trailblaze` output kind), one job a module:
`settings` and `trailblaze_api` (what the shims are written for: `--kotlin-package`,
`--trailblaze-api`; loaded without the writer, so a run that writes no Kotlin does not load it),
`text` (identifiers, literals, KDoc), `types` (the type tree as Kotlin types), `java_values`
(Kotlin values handed to Java), `objects` (nested data classes with `toJava()`), `calls` (the Java
calls of `execute`), `shim` (one tool's template context, or its refusal) and `files` (every
shim, the ones Trailblaze registers, and their surface in the manifest).

Part of `generator.render`: may import what it may. Kept to this docstring.
"""
