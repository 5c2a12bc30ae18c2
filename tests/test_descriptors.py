"""Every .tool.yaml is valid YAML whose `parameters` is a closed JSON Schema 2020-12, and the
generated registry's validator agrees with the `jsonschema` reference implementation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from conftest import PINNED, generate
from e2e_cases import CASES
from test_e2e_sync import BAD_CALLS

pytestmark = pytest.mark.jvm


def _descriptors(root: Path) -> dict[str, dict[str, Any]]:
    return {
        p.name.removesuffix(".tool.yaml"): yaml.safe_load(p.read_text())
        for p in (root / "tools").glob("*.tool.yaml")
    }


def test_parameters_are_valid_closed_schemas(generated_tree: Path) -> None:
    descriptors = _descriptors(generated_tree)
    assert len(descriptors) == len(
        list((generated_tree / "python/playwright_tools/tools").glob("web_*.py"))
    )
    for name, descriptor in descriptors.items():
        schema = descriptor["parameters"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["additionalProperties"] is False, name
        assert descriptor["name"] == name
        assert isinstance(descriptor["surfaceToLlm"], bool) and isinstance(
            descriptor["isRecordable"], bool
        )
        jsonschema.Draft202012Validator.check_schema(descriptor["returns"]["schema"])


def test_overrides_reach_the_descriptor(tmp_path: Path) -> None:
    allowlist = tmp_path / "allowlist.yaml"
    allowlist.write_text(
        f"playwright: {PINNED}\ntools:\n"
        "  - method: page.evaluate\n    surfaceToLlm: true\n    isRecordable: true\n"
        "  - method: page.setViewportSize\n"
    )
    assert generate(tmp_path / "out", allowlist) == 0
    descriptors = _descriptors(tmp_path / "out")
    assert descriptors["web_evaluate"]["surfaceToLlm"] is True
    assert descriptors["web_evaluate"]["isRecordable"] is True
    assert descriptors["web_setViewportSize"]["surfaceToLlm"] is False
    assert descriptors["web_setViewportSize"]["isRecordable"] is False


def test_the_committed_allowlist_surfaces_no_second_evaluate(generated_tree: Path) -> None:
    # The agent toolset has its own `evaluate`: the generated one stays off the default listing.
    assert _descriptors(generated_tree)["web_evaluate"]["surfaceToLlm"] is False


def test_hand_written_good_arguments_validate(generated_tree: Path) -> None:
    descriptors = _descriptors(generated_tree)
    for case in CASES:
        for tool, args in case.steps:
            jsonschema.validate(args, descriptors[tool]["parameters"])


@pytest.mark.parametrize(
    ("tool", "args", "code", "path"), [c for c in BAD_CALLS if c[0] != "no_such_tool"]
)
def test_bad_arguments_fail_reference_validator_too(
    tool: str, args: object, code: str, path: str, generated_tree: Path
) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(args, _descriptors(generated_tree)[tool]["parameters"])
