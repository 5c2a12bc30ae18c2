"""The generator's command lines and the run they drive: `cli` (`python -m generator` and the
entry point of `diff`, `schema`, `bump`; `generator/__main__.py` asks `write.quick_check` first),
`arguments` (every command's parser), `run_options` (the options checked before anything
starts), `diff_command` and `schema_command` (the two subcommands), `pipeline` (one run: gather
the inputs, reflect and read them through the cache, bind, report and render) and `resolve_jar`
(`python -m generator.commands.resolve_jar`: the JAR the generator reflects, for scripts).

May import: every package of the generator below it (`tests/test_layers.py`). Kept to this
docstring.
"""
