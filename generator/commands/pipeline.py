"""One generator run: gather the inputs, stop early when the output is up to date, otherwise
reflect (cached by the JAR's SHA-256), read the Python API (cached by its sources' hash), bind,
report and render. Nothing here writes the output directory; `output` does.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from generator.read.allowlist import Allowlist
from generator.read.jar_resolver import (
    UNKNOWN_VERSION,
    ResolvedJar,
    jar_version,
    looks_like_playwright,
    resolve_jar,
)
from generator.read.python_api import PythonApiFiles, PythonSurface, locate_python_api
from generator.render.template_dir import default_templates
from generator.shared import typed_command
from generator.shared.cache import Cache, sha256_bytes, sha256_file
from generator.shared.confined_files import RefusedFile, read_under
from generator.shared.diagnostics import Diagnostics, ExitCode, GeneratorError, Level
from generator.shared.dist_version import dist_version
from generator.shared.relative_paths import safe_relative
from generator.shared.targets import TARGETS
from generator.write.ledger import LEDGER

if TYPE_CHECKING:  # the stages after the up-to-date check are imported only when they run
    from generator.model.ir import Tool
    from generator.model.surface_report import SurfaceReport
    from generator.read.java_model import JavaSurface
    from generator.render.kotlin.settings import KotlinSettings

_GENERATOR_ROOT = Path(__file__).resolve().parent.parent  # generator/, above commands/
T = TypeVar("T")


@dataclass(frozen=True)
class Inputs:
    """Everything that shapes the output, resolved and hashed; `fingerprint` covers all of it,
    the generator's own code, the versions of black and Jinja, and the flags that change results."""

    allowlist: Allowlist
    jar: ResolvedJar
    jar_version: str
    jar_sha256: str
    sources_sha256: str
    python_files: PythonApiFiles
    python_sha256: str
    templates: Path
    fingerprint: str
    watched: tuple[str, ...] = ()
    """Every file and folder the fingerprint was computed from but the allowlist, whose path only
    the command line knows (`quick_check` stamps them all)."""
    outputs: tuple[str, ...] | None = None
    """The output kinds to write (`--outputs`); None: `outputs.DEFAULT_KINDS`."""
    kotlin: KotlinSettings | None = None
    """The Kotlin shims' package and Trailblaze symbols; None: the defaults."""


def _tree(root: Path, pattern: str) -> list[str]:
    """The files `_tree_digest` hashes and the folders that could gain one."""
    files = [str(p) for p in root.rglob(pattern)]
    folders = [str(p) for p in [root, *root.rglob("*")] if p.is_dir() and p.name != "__pycache__"]
    return [*files, *folders]


def _tree_digest(root: Path, pattern: str) -> str:
    """SHA-256 over the files of `root` matching `pattern`, each read as templates are
    (`shared/confined_files.py`: no symlink followed, no FIFO opened), so a custom template folder
    cannot hang the run or leak a file before its templates are checked."""
    parts = []
    for path in sorted(root.rglob(pattern)):
        name = path.relative_to(root).as_posix()
        try:
            data = read_under(root, name, _MAX_DIGESTED_BYTES)
        except RefusedFile as refused:
            raise GeneratorError(
                f"template {name}: {refused}. Fix the template or restore the default templates/.",
                ExitCode.USER_INPUT,
            ) from None
        parts.append(f"{name}\0{sha256_bytes(data)}")
    return sha256_bytes("\n".join(parts).encode())


# A template is a page of text and a module of the generator far less than this; more is
# refused by the template loader's own cap, with the template's name, before it matters here.
_MAX_DIGESTED_BYTES = 16 << 20


def gather(
    allowlist: Allowlist,
    jar: Path | None,
    templates: Path,
    flags: str,
    cache: Cache,
    outputs: tuple[str, ...] | None = None,
    kotlin: KotlinSettings | None = None,
    python_files: PythonApiFiles | None = None,
) -> Inputs:
    """The run's inputs; `flags` must spell every setting that changes the output (the command
    line's `outputs` and `kotlin` included), since it is part of the fingerprint. `python_files`:
    the Python API to bind against (`diff` gives each side its own); None: the installed one."""
    resolved = resolve_jar(allowlist.playwright_version, jar)
    python_files = python_files or locate_python_api(allowlist.playwright_version)
    jar_sha = sha256_file(resolved.jar)
    sources_sha = sha256_file(resolved.sources) if resolved.sources else ""
    python_sha = sha256_bytes("".join(sha256_file(p) for p in python_files.paths).encode())
    fingerprint = cache.key(
        "run",
        allowlist.sha256,
        # The file's name is in every generated header.
        Path(allowlist.path).name,
        jar_sha,
        sources_sha,
        python_sha,
        _tree_digest(templates, "*.j2"),
        # Custom templates fall back to the built-in ones for the files they do not override.
        _tree_digest(default_templates(), "*.j2"),
        _tree_digest(_GENERATOR_ROOT, "*.py"),
        dist_version("black"),
        dist_version("jinja2"),
        flags,
    )
    return Inputs(
        allowlist=allowlist,
        jar=resolved,
        jar_version=jar_version(resolved.jar) if jar else allowlist.playwright_version,
        jar_sha256=jar_sha,
        sources_sha256=sources_sha,
        python_files=python_files,
        python_sha256=python_sha,
        templates=templates,
        fingerprint=fingerprint,
        outputs=outputs,
        kotlin=kotlin,
        watched=(
            str(resolved.jar),
            # The sources JAR, or without one the JAR's folder: a sources JAR put there later
            # changes the folder, and the descriptions.
            str(resolved.sources or resolved.jar.parent),
            *(str(p) for p in python_files.paths),
            *_tree(templates, "*.j2"),
            *_tree(default_templates(), "*.j2"),
            *_tree(_GENERATOR_ROOT, "*.py"),
            *(entry for entry in sys.path[1:] if os.path.isdir(entry)),
            *([allowlist.options_file] if allowlist.options_file else []),
        ),
    )


def recorded_options(inputs: Inputs) -> dict[str, Any]:
    """The options that shaped this run's output, as manifest.json records them: the output
    kinds, the Kotlin package and Trailblaze API when the Trailblaze output is written, and
    whether (and which) custom templates were used, by their digest (a path would differ between
    machines)."""
    from generator.render.kotlin.settings import KotlinSettings
    from generator.render.outputs import DEFAULT_KINDS

    kinds = inputs.outputs or DEFAULT_KINDS
    # By content: a copy of the built-in templates named by --templates writes the same tree.
    digest = _tree_digest(inputs.templates, "*.j2")
    custom = digest != _tree_digest(default_templates(), "*.j2")
    options: dict[str, Any] = {
        "outputs": ",".join(kinds),
        "templates": digest[:16] if custom else "built-in",
    }
    if "trailblaze" in kinds:
        kotlin = inputs.kotlin or KotlinSettings()
        options["kotlin-package"] = kotlin.package
        options["trailblaze-api"] = kotlin.trailblaze_api
    return options


def minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def check_versions(inputs: Inputs, allow_mismatch: bool) -> str | None:
    """Refuse a JAR and a Python playwright of different minor versions, unless allowed (then warn)."""
    java, python = inputs.jar_version, inputs.python_files.version
    if java == UNKNOWN_VERSION:
        if not looks_like_playwright(inputs.jar.jar):
            raise GeneratorError(
                f"{inputs.jar.jar} has no class com.microsoft.playwright.Page; it does not look like "
                "the Playwright Java JAR. Pass the com.microsoft.playwright:playwright JAR with --jar, "
                "or omit --jar to use Maven.",
                ExitCode.ENVIRONMENT,
            )
        message = (
            f"cannot tell which Playwright version {inputs.jar.jar} is: it carries no version in "
            "its manifest or Maven properties (or two that disagree), and its classes hold none. "
            "Pass the JAR as published, or omit --jar to resolve the pinned version through Maven."
        )
        if not allow_mismatch:
            raise GeneratorError(message, ExitCode.ENVIRONMENT)
        return "WARNING: --allow-version-mismatch: " + message
    pin, allowlist = inputs.allowlist.playwright_version, inputs.allowlist.path
    if inputs.jar.origin == "--jar" and java != pin:
        message = (
            f"--jar {inputs.jar.jar} is Playwright Java {java}, but {allowlist} pins {pin}. Pass "
            f"the {pin} JAR, or move the project to {java} with `{typed_command.generator(['bump', java])}` "
            "(it changes every pin together)."
        )
    elif minor(java) == minor(python):
        return None
    else:
        java_from = "--jar" if inputs.jar.origin == "--jar" else f"pinned in {allowlist}"
        message = (
            f"Playwright Java is {java} ({java_from}) but the Python playwright bound against is "
            f"{python}; the shims call Python, so their minor versions must match. Install the "
            f"Python package the project pins (`scripts/setup.sh`, or "
            f"`{typed_command.command('pip', 'install', f'playwright=={java}')}`), or move Java and "
            f"Python together with `{typed_command.generator(['bump', 'VERSION'])}`."
        )
    if not allow_mismatch:
        raise GeneratorError(message, ExitCode.ENVIRONMENT)
    return "WARNING: --allow-version-mismatch: " + message


# --- the up-to-date check -----------------------------------------------------------------------


def _record_key(cache: Cache, out: Path) -> str:
    return cache.key("record", str(out.resolve()))


def _valid_record(text: str) -> bool:
    """A run record is `{"fingerprint": str, "files": {plain relative path: sha256 hex}}`."""
    try:
        record = json.loads(text)
    except ValueError:
        return False
    if not isinstance(record, dict) or set(record) != {"fingerprint", "files"}:
        return False
    files = record["files"]
    return (
        isinstance(record["fingerprint"], str)
        and isinstance(files, dict)
        and LEDGER in files
        and all(
            safe_relative(rel) and isinstance(d, str) and len(d) == 64 for rel, d in files.items()
        )
    )


def up_to_date(inputs: Inputs, out: Path, cache: Cache) -> bool:
    """Whether the last successful run into `out` had these exact inputs and left these exact files."""
    text = cache.load("runs", _record_key(cache, out), _valid_record)
    if text is None:
        return False
    record = json.loads(text)
    if record["fingerprint"] != inputs.fingerprint:
        return False
    root = str(out)  # plain strings: pathlib costs more than hashing these small files
    try:
        for rel, digest in record["files"].items():
            if sha256_file(f"{root}/{rel}") != digest:
                return False
        # The record must cover every file the (unchanged) ledger lists, no fewer.
        with open(f"{root}/{LEDGER}", encoding="utf-8") as handle:
            listed = {line.partition("  ")[2] for line in handle if not line.startswith("#")}
    except (OSError, UnicodeDecodeError):
        return False
    return {rel.rstrip("\n") for rel in listed} | {LEDGER} == set(record["files"])


def recorded_files(inputs: Inputs, out: Path, cache: Cache) -> list[str] | None:
    """The files of the last run's record for `out`, if it was made with these inputs."""
    text = cache.load("runs", _record_key(cache, out), _valid_record)
    if text is None:
        return None
    record = json.loads(text)
    return list(record["files"]) if record["fingerprint"] == inputs.fingerprint else None


def remember(inputs: Inputs, out: Path, files: dict[str, str], cache: Cache) -> None:
    # The digests of what this run wrote (or found already equal), from its own text: a file
    # changed by someone else meanwhile is then not taken for the output. The ledger is checked
    # too: a run with a missing or damaged ledger is never "up to date".
    digests = {rel: sha256_bytes(text.encode("utf-8")) for rel, text in files.items()}
    digests[LEDGER] = sha256_file(out / LEDGER)
    record = {"fingerprint": inputs.fingerprint, "files": digests}
    cache.store("runs", _record_key(cache, out), json.dumps(record, sort_keys=True))


# --- surfaces -----------------------------------------------------------------------------------


def _cached(
    cache: Cache,
    kind: str,
    key: str,
    parse: Callable[[str], T],
    build: Callable[[], T],
    dump: Callable[[T], str],
    *,
    parse_checks: bool = False,
) -> T:
    """The cached value when its entry is believed, else a fresh one (stored). An entry is believed
    when `parse` accepts it and the value dumps back to exactly its own text, so a malformed entry
    with a valid checksum is never believed. `parse_checks` says that `parse` itself raises on any
    text that is not a well-formed value (`JavaSurface.from_json`, `PythonSurface.from_json`),
    which makes dumping again needless."""
    text = cache.load(kind, key)
    if text is not None:
        try:
            value = parse(text)
            if parse_checks or dump(value) == text:
                return value
        except Exception:
            pass  # any failure to parse means a malformed entry: rebuilt, never fatal
        cache.discard(kind, key)
    value = build()
    if cache.enabled:
        cache.store(kind, key, dump(value))
    return value


def _reflected_interfaces(inputs: Inputs) -> list[str]:
    return sorted(
        {e.target.java_class for e in inputs.allowlist.entries}
        | {t.java_class for t in TARGETS.values()}
    )


def _java_key(inputs: Inputs, cache: Cache) -> str:
    return cache.value_key(
        "generator.read.java_surface",
        inputs.jar_sha256,
        inputs.sources_sha256,
        inputs.jar_version,
        *_reflected_interfaces(inputs),
    )


def _python_key(inputs: Inputs, cache: Cache) -> str:
    return cache.value_key(
        "generator.read.python_api", inputs.python_sha256, inputs.python_files.version
    )


def java_surface(inputs: Inputs, cache: Cache) -> JavaSurface:
    """The reflected surface, from the cache when this JAR was reflected before (no JVM then)."""
    from generator.read.java_model import JavaSurface

    interfaces = _reflected_interfaces(inputs)
    key = _java_key(inputs, cache)

    def reflect() -> JavaSurface:
        from generator.read.java_surface import (
            build_surface,  # JPype is imported only when reflecting
        )

        return build_surface(inputs.jar.jar, inputs.jar.sources, interfaces, inputs.jar_version)

    return _cached(
        cache, "java", key, JavaSurface.from_json, reflect, JavaSurface.to_json, parse_checks=True
    )


def python_surface(inputs: Inputs, cache: Cache) -> PythonSurface:
    from generator.read.python_api import read_python_surface

    key = _python_key(inputs, cache)
    return _cached(
        cache,
        "python",
        key,
        PythonSurface.from_json,
        lambda: read_python_surface(inputs.python_files),
        PythonSurface.to_json,
        parse_checks=True,
    )


def _warn_undocumented(inputs: Inputs, tools: list[Tool], diagnostics: Diagnostics) -> None:
    """Say how many descriptions fall back to the Python docstrings when the JAR came without its
    sources JAR (a release can be published without one): never a silent degradation, and an
    error under --strict."""
    from_python = sum(t.description_from == "python" for t in tools)
    # A locator tool's leading `selector` is the generator's own, described whatever the JAR.
    params = [
        p
        for t in tools
        for p in t.params
        if not (t.target.selector_param and p.wire_name == "selector")
    ]
    described = sum(bool(p.description) for p in params)
    # Maven was asked and has none: nothing for the user to do, so a note (-v), not a warning.
    say = diagnostics.info if inputs.jar.sources_unpublished else diagnostics.warning
    say(
        str(inputs.jar.jar),
        f"no sources JAR for Playwright {inputs.jar_version}, so no javadoc: {from_python} of "
        f"{len(tools)} tool descriptions and {described} of {len(params)} parameter descriptions "
        "come from the Python docstrings instead",
        f"put {inputs.jar.jar.name.removesuffix('.jar')}-sources.jar beside the JAR once it is "
        "published (the descriptions are then the javadoc's), or accept the Python docstrings",
    )


@dataclass(frozen=True)
class Generation:
    """The pure result of a run: files to write, the tools, the surface report, what was said."""

    files: dict[str, str]
    tools: list[Tool]
    report: SurfaceReport
    diagnostics: Diagnostics


def generate(inputs: Inputs, cache: Cache) -> Generation:
    from generator.model import probe_memo
    from generator.model.binding import Binder
    from generator.model.surface_report import build_report
    from generator.render.rendering import Renderer

    java = java_surface(inputs, cache)
    python = python_surface(inputs, cache)
    diagnostics = Diagnostics()
    from generator.render.outputs import DEFAULT_KINDS, KOTLIN, selected
    from generator.render.views import generated_by

    outputs = selected(inputs.outputs or DEFAULT_KINDS)
    # Java object recipes are for the Kotlin shims alone: computed only when they are written.
    binder = Binder(java, python, diagnostics, objects=any(o.kind == KOTLIN for o in outputs))
    tools = binder.bind_all(inputs.allowlist)
    # The probes of the last run against the same surfaces: a one-line change probes one method.
    memo_key = probe_memo.probes_key(cache, _java_key(inputs, cache), _python_key(inputs, cache))
    probed = probe_memo.load(cache, memo_key)
    known = len(probed)
    report = build_report(java, python, tools, diagnostics, binder, probed)
    if len(probed) != known:
        probe_memo.store(cache, memo_key, probed)
    renderer = Renderer(
        inputs.templates,
        cache,
        outputs,
        inputs.kotlin,
        generated_by(Path(inputs.allowlist.path).name),
        recorded_options(inputs),
    )
    files = renderer.render_all(
        tools, inputs.jar_version, python.version, report, inputs.jar_sha256
    )
    for path, reason in sorted(renderer.formatted_by_black.items()):
        diagnostics.info(path, f"formatted by black ({reason})")
    for where, note in renderer.notes:
        diagnostics.info(where, note)
    # Not said when the run fails anyway: its errors are what the user must read first.
    if not java.documented and tools and not diagnostics.at_least(Level.ERROR):
        _warn_undocumented(inputs, tools, diagnostics)
    return Generation(files, tools, report, diagnostics)
