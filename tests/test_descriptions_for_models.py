"""Descriptions in the generated descriptors are written for models and script authors, not Java
programmers (issue 11 item 7): no Java method references, no `**NOTE:**`, no links, no sentence
ending on a code sample that is gone, no placeholder. Counted on the committed tree, from the
files themselves.

Also a measurement: `python tests/test_descriptions_for_models.py DIR...` prints the counts for
each tree of descriptors (run it on an older checkout's `generated/tools` for the before figures).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import generate

from generator.read.jar_resolver import ResolvedJar

pytestmark = pytest.mark.jvm

REPO = Path(__file__).resolve().parent.parent
TOOLS = REPO / "generated" / "tools"

# `Page.setExtraHTTPHeaders()`: a Java interface and method. DOM members (`Element.x()`) are the
# page's JavaScript and are named alike in every language.
_JAVA_REFERENCE = re.compile(r"\b(?!Element\.|Document\.|Window\.)[A-Z][A-Za-z]*\.[a-z]\w*\(\)")
PROBLEMS = {
    "Java method reference": lambda text: bool(_JAVA_REFERENCE.search(text)),
    "**NOTE** markup": lambda text: "**note" in text.lower(),
    # A Markdown link, or a URL that is not an example value ("e.g. https://example.com").
    "link": lambda text: bool(
        re.search(r"\]\(|\(https?://|(?<!e\.g\. )(?<![`\"])https?://", text)
        # a reference-style link left bare: "returns a [Promise]", "See [UIEvent.detail]."
        or re.search(r"(?<=\s)\[[A-Za-z][\w .]*\](?=[\s.,;])", text)
    ),
    "placeholder": lambda text: "Calls Playwright's" in text,
    "ends on a missing example": lambda text: _dangling_colon(text),
    # A list run onto one line: "1. Find ... 1. Wait ...", or "Can be one of: - `'load'` - ...".
    "collapsed list": lambda text: any(_COLLAPSED.search(line) for line in text.split("\n")),
    # A Python parameter name where the tool takes another: `run_before_unload`, not `runBeforeUnload`.
    "snake_case parameter name": lambda text: bool(_SNAKE_PARAMETER.search(text)),
}
_COLLAPSED = re.compile(r"\S\s+\d+\. \S.*\s\d+\. \S|[.:] - [`'A-Z].*[.:] - [`'A-Z]")
_SNAKE_PARAMETER = re.compile(r"`(?:run_before_unload|no_wait_after|click_count|timeout_ms)`")

# Parameters Playwright documents in neither language (checked against 1.63.0's Python
# docstrings and 1.62.0's javadoc): each, with why it has no text. A new gap fails the test.
UNDOCUMENTED = {
    "web_cookie_add.cookies": "addCookies' argument has no text of its own",
    "web_emulateMedia.contrast": "Python's docstring leaves it empty",
    "web_emulateMedia.forcedColors": "Python's docstring leaves it empty",
    "web_locator_nth.index": "nth's argument has no text of its own",
    "web_locator_setInputFiles.files": "setInputFiles' argument has no text of its own",
    "web_setGeolocation.geolocation": "setGeolocation's argument has no text of its own",
    "web_setInputFiles.files": "setInputFiles' argument has no text of its own",
    "web_setViewportSize.width": "a key of Python's viewport_size, documented as a whole",
    "web_setViewportSize.height": "a key of Python's viewport_size, documented as a whole",
}


def missing_parameter_descriptions(tools_dir: Path) -> list[str]:
    """`tool.parameter` for every top-level parameter without a description."""
    missing = []
    for path in sorted(tools_dir.glob("*.tool.yaml")):
        descriptor = yaml.safe_load(path.read_text(encoding="utf-8"))
        for name, schema in descriptor["parameters"].get("properties", {}).items():
            if not schema.get("description"):
                missing.append(f"{descriptor['name']}.{name}")
    return missing


def _dangling_colon(text: str) -> bool:
    paragraphs = text.split("\n\n")
    return any(
        p.endswith(":")
        and (i + 1 == len(paragraphs) or paragraphs[i + 1].startswith(("Note", "**NOTE")))
        for i, p in enumerate(paragraphs)
    )


def descriptions(tools_dir: Path) -> Iterator[tuple[str, str]]:
    """(tool, text) for every description in every descriptor: the tool's and its parameters'."""

    def nested(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "description" and isinstance(value, str):
                    yield value
                else:
                    yield from nested(value)
        elif isinstance(node, list):
            for item in node:
                yield from nested(item)

    for path in sorted(tools_dir.glob("*.tool.yaml")):
        descriptor = yaml.safe_load(path.read_text(encoding="utf-8"))
        yield descriptor["name"], descriptor["description"]
        for text in nested(descriptor["parameters"]):
            yield descriptor["name"], text
        note = descriptor.get("returns", {}).get("note")
        if note:
            yield descriptor["name"], note


def count(tools_dir: Path) -> tuple[Counter[str], Counter[str]]:
    """Per problem: how many descriptors have it in their own description, and in any text."""
    main: Counter[str] = Counter()
    anywhere: dict[str, set[str]] = {problem: set() for problem in PROBLEMS}
    for path in sorted(tools_dir.glob("*.tool.yaml")):
        descriptor = yaml.safe_load(path.read_text(encoding="utf-8"))
        for problem, found in PROBLEMS.items():
            main[problem] += found(descriptor["description"])
    for tool, text in descriptions(tools_dir):
        for problem, found in PROBLEMS.items():
            if found(text):
                anywhere[problem].add(tool)
    return main, Counter({problem: len(tools) for problem, tools in anywhere.items()})


def test_the_detectors_find_what_they_look_for() -> None:
    samples = {
        "Java method reference": "Use `Page.setExtraHTTPHeaders()` instead.",
        "**NOTE** markup": "**NOTE:** this is slow.",
        "link": "See [actionability](https://example.invalid/actionability).",
        "placeholder": "Calls Playwright's `Page.url()`.",
        "ends on a missing example": "Do it like this:",
        "collapsed list": "Steps: 1. Find the element. 1. Wait for it. 1. Scroll.",
        "snake_case parameter name": "If `run_before_unload` is true, handlers run.",
    }
    for problem, text in samples.items():
        assert PROBLEMS[problem](text), problem
        assert not PROBLEMS[problem]("A plain sentence about `web_click` and `Element.focus()`.")


def test_generated_descriptions_are_written_for_models() -> None:
    offending = {
        problem: sorted({tool for tool, text in descriptions(TOOLS) if found(text)})
        for problem, found in PROBLEMS.items()
    }
    assert {p: tools for p, tools in offending.items() if tools} == {}


def test_lists_stay_lists() -> None:
    """A list keeps one item a line, however the text came (javadoc or Python docstring)."""
    kept = (
        "Steps:\n\n1. Find the element.\n2. Wait for it.\n\nCan be one of:\n\n- `'load'` - loaded."
    )
    assert not PROBLEMS["collapsed list"](kept)
    assert PROBLEMS["collapsed list"]("Can be one of: - `'load'` - wait. - `'commit'` - wait.")


def test_every_parameter_is_described_but_the_known_gaps() -> None:
    """Parameter descriptions do not silently disappear (without a sources JAR they come from the
    Python docstrings' Parameters sections): only the gaps Playwright itself leaves are allowed."""
    missing = missing_parameter_descriptions(TOOLS)
    assert sorted(set(missing) - set(UNDOCUMENTED)) == []
    assert len(missing) <= len(UNDOCUMENTED)


def test_without_a_sources_jar_the_fallback_is_counted(
    real_jar: ResolvedJar, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Descriptions never degrade silently: a JAR without its sources JAR (1.63.0 is published
    without one) gives a warning that counts the descriptions taken from the Python docstrings,
    an error under --strict (nothing written), and the manifest says where each came from."""
    import json
    import shutil

    jar = tmp_path / "playwright.jar"
    shutil.copy(real_jar.jar, jar)  # no -sources.jar beside it
    assert generate(tmp_path / "strict", None, "--jar", str(jar), "--strict") == 2
    err = capsys.readouterr().err
    assert f"{jar}: warning: no sources JAR for Playwright" in err
    assert not (tmp_path / "strict").exists()
    assert generate(tmp_path / "out", None, "--jar", str(jar)) == 0
    counted = re.search(
        r"no javadoc: (\d+) of (\d+) tool descriptions and (\d+) of (\d+) parameter descriptions "
        r"come from the Python docstrings",
        capsys.readouterr().err,
    )
    assert counted is not None
    from_python, tools, described, params = map(int, counted.groups())
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    sources = Counter(t["descriptionFrom"] for t in manifest["tools"].values())
    assert tools == len(manifest["tools"]) and from_python == sources["python"] > tools * 0.9
    assert described == params - len(missing_parameter_descriptions(tmp_path / "out" / "tools"))
    assert not any(
        PROBLEMS["collapsed list"](text) for _, text in descriptions(tmp_path / "out" / "tools")
    )


def test_references_name_tools_that_exist() -> None:
    """Every `web_*` a description names is a generated tool: references were rewritten to the
    names this allowlist gives, not to names a rule would guess."""
    names = {path.name.removesuffix(".tool.yaml") for path in TOOLS.glob("*.tool.yaml")}
    named = {
        (tool, ref)
        for tool, text in descriptions(TOOLS)
        for ref in re.findall(r"`(web_\w+)`", text)
        if not ref.endswith("_")
    }
    assert named, "no description names another tool: the rewrite did not run"
    assert sorted((tool, ref) for tool, ref in named if ref not in names) == []


if __name__ == "__main__":
    for folder in sys.argv[1:] or [str(TOOLS)]:
        own, any_text = count(Path(folder))
        total = len(list(Path(folder).glob("*.tool.yaml")))
        print(f"{folder}: {total} descriptors")
        for problem in PROBLEMS:
            print(
                f"  {problem:28} {own[problem]:4} in the tool's description, {any_text[problem]:4} in any text"
            )
        print(
            f"  parameters without a description: {len(missing_parameter_descriptions(Path(folder)))}"
        )
