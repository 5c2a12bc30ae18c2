"""The hand-authored tools, each in one place: `<name>.tool.yaml` (what the tool is, its schema,
its flags) beside `<name>.py` (what it does, named by the descriptor's `calls.python`). Helpers
that several tools share live outside this package (`host.targets`, `host.page_text`,
`host.uploads`, `host.feedback`)."""
