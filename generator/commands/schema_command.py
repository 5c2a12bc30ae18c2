"""`python -m generator schema`: the allowlist's JSON Schema, made from the pinned release's
reflected surface (every run also writes it beside the outputs)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from generator.commands.arguments import schema_parser
from generator.commands.pipeline import gather, generate
from generator.commands.run_options import cache_of, python_api_of, templates_of
from generator.read.allowlist import load_allowlist
from generator.shared.diagnostics import ExitCode


def run_schema(argv: Sequence[str]) -> int:
    from generator.read.allowlist import SCHEMA_FILE

    args = schema_parser().parse_args(argv)
    cache = cache_of(args)
    allowlist = load_allowlist(args.allowlist)
    args.allow_version_mismatch = False
    args.jar = None
    python_files = python_api_of(allowlist, args, cache)
    inputs = gather(allowlist, None, templates_of(args), "schema", cache, None, None, python_files)
    text = generate(inputs, cache).files[SCHEMA_FILE]
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote the allowlist's schema to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return ExitCode.OK
