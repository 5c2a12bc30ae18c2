"""The allowlist's JSON Schema and the generator agree: every case below is refused by both, or
taken by both. The schema is the committed `generated/allowlist.schema.json` (the golden tests
keep it current); the generator side is `check_options`, every check a run makes before it
resolves the JAR or starts a JVM. `test_hostile_allowlist.py` runs cases as the command a user
types, and those only the bound surface tells.

What a JSON Schema cannot say is listed apart (`GENERATOR_ONLY`): those the generator refuses and
the schema takes, each with the reason, so the list is a decision, not a drift."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import REPO

from generator.commands.arguments import parser
from generator.commands.run_options import check_options
from generator.shared.diagnostics import ExitCode, GeneratorError

PIN = "playwright: 1.63.0\n"
EVALUATE = "tools:\n  - method: page.evaluate\n"


def entry_text(*lines: str) -> str:
    return PIN + EVALUATE + "".join(f"    {line}\n" for line in lines)


def block_text(*lines: str) -> str:
    return PIN + "generate:\n" + "".join(f"  {line}\n" for line in lines) + EVALUATE


REFUSED = {
    # The pin.
    "pin-two-parts": "playwright: '1.63'\n" + EVALUATE,
    "pin-a-number": "playwright: 1.63\n" + EVALUATE,
    "pin-with-a-suffix": "playwright: 1.63.0-beta\n" + EVALUATE,
    "pin-missing": EVALUATE,
    # An entry.
    "name-a-boolean": entry_text("name: true"),
    "name-starts-with-a-digit": entry_text("name: 1web"),
    "name-with-a-dash": entry_text("name: web-evaluate"),
    "name-65-characters": entry_text("name: " + "a" * 65),
    "description-a-number": entry_text("description: 5"),
    "description-empty": entry_text("description: ''"),
    "description-null": entry_text("description:"),
    "description-blank": entry_text("description: '   '"),
    "flag-not-a-boolean": entry_text("surfaceToLlm: 'yes'"),
    "trailblaze-unknown": entry_text("trailblaze: x"),
    "wire-name-underscore": entry_text("wireNames: {expression: _}"),
    "wire-name-underscores": entry_text("wireNames: {expression: __}"),
    "wire-name-dash": entry_text("wireNames: {expression: a-b}"),
    "wire-name-a-number": entry_text("wireNames: {expression: 5}"),
    "wire-name-65-characters": entry_text("wireNames: {expression: " + "a" * 65 + "}"),
    "wire-names-empty": entry_text("wireNames: {}"),
    "entry-unknown-key": entry_text("nmae: x"),
    "top-unknown-key": PIN + "tool: []\n" + EVALUATE,
    # The generate: block.
    "out-a-number": block_text("out: 5"),
    "out-null": block_text("out: null"),
    "out-tilde": block_text("out: ~"),
    "out-empty": block_text("out:"),
    "out-blank": block_text("out: '  '"),
    "out-nul": block_text('out: "a\\0b"'),
    "out-5000-characters": block_text("out: " + "x" * 5000),
    "out-a-300-character-name": block_text("out: build/" + "x" * 300),
    "templates-null": block_text("templates: ~"),
    "outputs-unknown-kind": block_text("outputs: 'python,bogus'"),
    "outputs-unknown-kind-in-a-list": block_text("outputs: [python, pyhton]"),
    "outputs-empty-list": block_text("outputs: []"),
    "outputs-all-and-more": block_text("outputs: [all, python]"),
    "outputs-all-and-more-as-text": block_text("outputs: 'all,python'"),
    "outputs-empty-item": block_text("outputs: 'python,,yaml'"),
    "kotlin-package-empty-part": block_text("kotlin-package: a..b"),
    "kotlin-package-keyword": block_text("kotlin-package: a.fun"),
    "kotlin-package-kotlin": block_text("kotlin-package: kotlin"),
    "kotlin-package-under-kotlin": block_text("kotlin-package: kotlin.tools"),
    "kotlin-package-java-lang": block_text("kotlin-package: java.lang"),
    "kotlin-package-underscore": block_text("kotlin-package: com._"),
    "kotlin-package-digit": block_text("kotlin-package: com.2tools"),
    "kotlin-package-256-characters": block_text("kotlin-package: a" + ".b" * 128),
    "trailblaze-api-unknown": block_text("trailblaze-api: x"),
    "generate-unknown-key": block_text("outptus: python"),
    "generate-a-number": PIN + "generate: 5\n" + EVALUATE,
    "generate-absolute-file": PIN + "generate: /etc/options.yaml\n" + EVALUATE,
    "generate-file-above": PIN + "generate: ../options.yaml\n" + EVALUATE,
    "generate-file-up-inside": PIN + "generate: a/../../options.yaml\n" + EVALUATE,
}

TAKEN = {
    "plain": PIN + EVALUATE,
    "every-entry-field": entry_text(
        "name: web_run",
        "description: Runs a script.",
        "surfaceToLlm: true",
        "isRecordable: false",
        "trailblaze: replace",
        "wireNames: {expression: script}",
    ),
    "description-with-a-surrogate-pair": entry_text('description: "Smiles \\ud83d\\ude00."'),
    "wire-name-starting-with-underscore": entry_text("wireNames: {expression: _script}"),
    "outputs-spaced-text": block_text("outputs: 'python , yaml'"),
    "outputs-all": block_text("outputs: all"),
    "outputs-all-in-a-list": block_text("outputs: [all]"),
    "outputs-a-list": block_text("outputs: [python, trailblaze]"),
    "out-above-the-allowlist": block_text("out: ../build/tools"),
    "kotlin-package-kotlinx": block_text("kotlin-package: kotlinx.tools", "outputs: trailblaze"),
    "kotlin-package-underscored": block_text("kotlin-package: com._tools.v2"),
    "trailblaze-api-known": block_text("trailblaze-api: 2026.05.19", "outputs: trailblaze"),
    "generate-file-inside": PIN + "generate: config/options.yaml\n" + EVALUATE,
}

# What a JSON Schema cannot say, with the reason; the generator refuses each.
GENERATOR_ONLY = {
    "a key given twice": (
        entry_text("name: a", "name: b"),
        "a YAML reader keeps one of the two values: the schema sees a mapping",
    ),
    "two parameters given one wire name": (
        entry_text("wireNames: {expression: x, arg: x}"),
        "JSON Schema cannot ask for the values of an object to differ",
    ),
    "a lone surrogate in a description": (
        entry_text('description: "\\ud800"'),
        "a schema pattern reads UTF-16 code units, where half a pair is a character",
    ),
    "an options file that is not there": (
        PIN + "generate: missing.yaml\n" + EVALUATE,
        "a schema does not read files",
    ),
}


def schema_validator() -> jsonschema.Draft202012Validator:
    """A validator of the committed schema, itself checked as a draft 2020-12 schema."""
    schema = json.loads((REPO / "generated" / "allowlist.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    return schema_validator()


def allowlist_in(tmp_path: Path, text: str) -> Path:
    """An allowlist in a folder of its own, with the options file the taken case names."""
    allowlist = tmp_path / "tools" / "allowlist.yaml"
    (allowlist.parent / "config").mkdir(parents=True)
    allowlist.write_text(text, encoding="utf-8")
    (allowlist.parent / "config" / "options.yaml").write_text("outputs: python\n")
    return allowlist


def generator_refusal(allowlist: Path) -> str | None:
    """The generator's one-line refusal of `allowlist` before any JVM, or None if it takes it."""
    try:
        check_options(parser().parse_args(["--allowlist", str(allowlist)]))
    except GeneratorError as error:
        assert error.exit_code == ExitCode.USER_INPUT, error
        assert "\n" not in str(error)
        return str(error)
    return None


def schema_refuses(validator: jsonschema.Draft202012Validator, text: str) -> bool:
    return any(True for _ in validator.iter_errors(yaml.safe_load(text)))


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_both_refuse(case: str, tmp_path: Path, validator: jsonschema.Draft202012Validator) -> None:
    text = REFUSED[case]
    assert schema_refuses(validator, text), f"the schema takes {case}"
    assert generator_refusal(allowlist_in(tmp_path, text)), f"the generator takes {case}"


@pytest.mark.parametrize("case", sorted(TAKEN))
def test_both_take(case: str, tmp_path: Path, validator: jsonschema.Draft202012Validator) -> None:
    text = TAKEN[case]
    assert not schema_refuses(validator, text), list(validator.iter_errors(yaml.safe_load(text)))
    assert generator_refusal(allowlist_in(tmp_path, text)) is None


@pytest.mark.parametrize("case", sorted(GENERATOR_ONLY))
def test_what_a_schema_cannot_say_thegenerator_refusal(
    case: str, tmp_path: Path, validator: jsonschema.Draft202012Validator
) -> None:
    text, _reason = GENERATOR_ONLY[case]
    assert not schema_refuses(validator, text), "the schema says it after all: move the case"
    if "wire name" in case:  # checked against the tool's parameters, when it is bound
        return
    assert generator_refusal(allowlist_in(tmp_path, text))
