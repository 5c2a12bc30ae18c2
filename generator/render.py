"""Renders the Tool IR through the Jinja templates into {relative path: text}; formats Python with black."""

from __future__ import annotations

import concurrent.futures
import functools
import importlib.metadata
import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import jinja2
import yaml

from generator import views
from generator.cache import Cache
from generator.diagnostics import ExitCode, GeneratorError
from generator.ir import Tool
from generator.manifest import build_manifest, manifest_text
from generator.surface_report import SurfaceReport
from generator.template_dir import default_templates as default_templates
from generator.writers import python as python_writer

_BLACK_LINE_LENGTH = 100
# Formatting in worker processes pays off only from this many uncached files per worker.
_PARALLEL_BATCH = 24
PYTHON_ROOT = f"python/{views.PYTHON_PACKAGE}"


class _BlockDumper(yaml.SafeDumper):
    """Multi-line strings as `|` blocks (when YAML can represent them exactly), others as usual."""


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text and text == text.strip() and "\t" not in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_BlockDumper.add_representer(str, _represent_str)


_YAML_BREAKS = ("\x85", "\u2028", "\u2029")


def _has_yaml_breaks(value: Any) -> bool:
    if isinstance(value, str):
        return any(ch in value for ch in _YAML_BREAKS)
    if isinstance(value, dict):
        return any(_has_yaml_breaks(k) or _has_yaml_breaks(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_yaml_breaks(v) for v in value)
    return False


def _dump(value: Any) -> str:
    # YAML reads NEL, LS and PS as line breaks; written raw they would not survive a round trip,
    # so text holding one is written with every non-ASCII character escaped.
    unicode = not _has_yaml_breaks(value)
    return yaml.dump(value, Dumper=_BlockDumper, sort_keys=False, allow_unicode=unicode, width=100)


def yaml_scalar(value: Any) -> str:
    """A YAML value to follow `key: ` on the same line; `yaml.safe_load` gives back exactly `value`."""
    text = _dump(value)
    text = text.removesuffix("\n").removesuffix("\n...")
    return text


def yaml_block(value: Any, indent: int) -> str:
    """A YAML mapping or list, indented by `indent` spaces, to stand under `key:`."""
    pad = " " * indent
    return "\n".join(
        pad + line if line else line for line in _dump(value).rstrip("\n").splitlines()
    )


def environment(template_dir: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["yaml"] = yaml_scalar
    env.filters["yaml_block"] = yaml_block
    env.filters["pystr"] = python_writer.string_literal
    env.filters["md"] = markdown_cell
    return env


@functools.cache
def _black_version() -> str:
    return importlib.metadata.version("black")


def _black_key(cache: Cache, text: str) -> str:
    return cache.key("black", _black_version(), str(_BLACK_LINE_LENGTH), text)


def format_python(path: str, text: str, cache: Cache) -> str:
    """black's formatting of `text`, from the cache when this exact text was formatted before."""
    key = _black_key(cache, text)
    cached = cache.load("black", key)
    if cached is not None:
        return cached
    formatted = _format_uncached(path, text)
    cache.store("black", key, formatted)
    return formatted


def _format_uncached(path: str, text: str) -> str:
    import black  # imported only on a cache miss: it costs more than a whole up-to-date run
    from black.mode import Mode, TargetVersion
    from black.parsing import InvalidInput

    mode = Mode(target_versions={TargetVersion.PY311}, line_length=_BLACK_LINE_LENGTH)
    try:
        formatted = black.format_str(text, mode=mode)
    except InvalidInput as exc:
        raise GeneratorError(
            f"{path}: the rendered Python does not parse ({exc}). If you use custom templates, check them; "
            "otherwise this is a generator bug, please report it.",
            ExitCode.USER_INPUT,
        ) from None
    return formatted


class Renderer:
    """Renders every output file for one set of tools."""

    def __init__(self, template_dir: Path, cache: Cache) -> None:
        self._env = environment(template_dir)
        self._cache = cache

    def _render(self, template: str, **context: Any) -> str:
        try:
            return self._env.get_template(template).render(
                generated_by=views.GENERATED_BY,
                package=views.PYTHON_PACKAGE,
                playwright_structures_module="playwright._impl",
                playwright_structures=views.PLAYWRIGHT_STRUCTURES,
                **context,
            )
        except jinja2.TemplateError as exc:
            where = getattr(exc, "filename", None) or template
            line = getattr(exc, "lineno", None)
            raise GeneratorError(
                f"template {where}{f':{line}' if line else ''}: {exc.message or exc}. "
                "Fix the template or restore the default templates/.",
                ExitCode.USER_INPUT,
            ) from None

    def _format_all(self, texts: dict[str, str]) -> dict[str, str]:
        """black over every Python file; cache misses are formatted on all cores when there are many."""
        keys = {path: _black_key(self._cache, text) for path, text in texts.items()}
        done = {path: self._cache.load("black", key) for path, key in keys.items()}
        missing = [path for path, text in done.items() if text is None]
        workers = min(os.cpu_count() or 1, len(missing) // _PARALLEL_BATCH)
        if workers > 1:
            import black  # noqa: F401  # imported before forking, so workers share it

            context = multiprocessing.get_context("fork")
            with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
                formatted = pool.map(
                    _format_uncached, missing, [texts[p] for p in missing], chunksize=8
                )
                for path, text in zip(missing, formatted, strict=True):
                    self._cache.store("black", keys[path], text)
                    done[path] = text
        return {
            path: text if text is not None else format_python(path, texts[path], self._cache)
            for path, text in done.items()
        }

    def _template_text(self, name: str) -> str:
        loader = self._env.loader
        assert loader is not None
        return loader.get_source(self._env, name)[0]

    def render_all(
        self,
        tools: list[Tool],
        java_version: str,
        python_version: str,
        report: SurfaceReport,
        jar_sha256: str,
    ) -> dict[str, str]:
        files: dict[str, str] = {}
        shims = [views.shim_view(t) for t in tools]
        objects = views.object_types(tools)
        python_files = {
            f"{PYTHON_ROOT}/__init__.py": self._render("package_init.py.j2"),
            f"{PYTHON_ROOT}/_types.py": self._render(
                "types.py.j2",
                typed_dicts=[views.typed_dict_view(o) for o in objects],
                imports_typing=views.types_module_imports(objects),
            ),
            f"{PYTHON_ROOT}/_validate.py": self._render("validate.py.j2"),
            f"{PYTHON_ROOT}/_convert.py": self._render("convert.py.j2"),
            f"{PYTHON_ROOT}/registry.py": self._render("registry.py.j2", shims=shims),
            f"{PYTHON_ROOT}/tools/__init__.py": self._render("tools_init.py.j2"),
        }
        for shim in shims:
            python_files[f"{PYTHON_ROOT}/tools/{shim.module}.py"] = self._render(
                "shim.py.j2", shim=shim
            )
        files.update(self._format_all(python_files))
        files[f"{PYTHON_ROOT}/py.typed"] = ""
        descriptor_template = self._template_text("tool.yaml.j2")
        for tool in tools:
            descriptor = views.descriptor(tool)
            # PyYAML's emitter is slow; an unchanged descriptor is not rendered again.
            key = self._cache.key(
                "descriptor", descriptor_template, json.dumps(descriptor, sort_keys=True)
            )
            cached = self._cache.load("descriptor", key)
            if cached is None:
                cached = self._render("tool.yaml.j2", d=descriptor)
                self._cache.store("descriptor", key, cached)
            files[f"tools/{tool.name}.tool.yaml"] = cached
        files["toolsets/web_framework.toolset.yaml"] = self._render(
            "toolset.yaml.j2",
            tool_names=[t.name.value for t in tools],
            java_version=java_version,
            python_version=python_version,
        )
        files["typescript/web-tools.d.ts"] = self._render(
            "tools.d.ts.j2",
            interfaces=[views.ts_interface_view(o) for o in objects],
            tools=[views.ts_tool_view(t) for t in tools],
        )
        files["SURFACE.md"] = self._render(
            "SURFACE.md.j2", report=report, java_version=java_version, python_version=python_version
        )
        manifest = build_manifest(tools, report, java_version, python_version, jar_sha256)
        files["manifest.json"] = manifest_text(manifest)
        return dict(sorted(files.items()))


def markdown_cell(text: str) -> str:
    """Text that stays inside one Markdown table cell."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
