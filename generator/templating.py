"""The Jinja environment every output is rendered in: strict about undefined names, with the filters
that escape values for YAML, Python and Markdown.

A custom template folder overrides the built-in templates file by file; any template it does not
hold is taken from the built-in folder, so a folder with one edited template keeps working when a
new kind of output (and its template) is added.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import jinja2

from generator.diagnostics import ExitCode, GeneratorError
from generator.template_dir import default_templates
from generator.writers.python import string_literal
from generator.yaml_text import yaml_block, yaml_scalar


def markdown_cell(text: str) -> str:
    """Text that stays inside one Markdown table cell."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _loader(template_dir: Path) -> jinja2.BaseLoader:
    built_in = default_templates()
    own = jinja2.FileSystemLoader(str(template_dir))
    if template_dir.resolve() == built_in.resolve():
        return own
    return jinja2.ChoiceLoader([own, jinja2.FileSystemLoader(str(built_in))])


def environment(template_dir: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=_loader(template_dir),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["yaml"] = yaml_scalar
    env.filters["yaml_block"] = yaml_block
    env.filters["pystr"] = string_literal
    env.filters["md"] = markdown_cell
    return env


def templates_digest(env: jinja2.Environment) -> str:
    """SHA-256 over every template the environment can load (after overrides), by name; other
    files in a template folder (`__init__.py`, compiled caches) are not templates."""
    assert env.loader is not None
    digest = hashlib.sha256()
    for name in sorted(env.list_templates(extensions=["j2"])):
        source = env.loader.get_source(env, name)[0]
        digest.update(name.encode() + b"\0" + source.encode() + b"\0")
    return digest.hexdigest()


def render(env: jinja2.Environment, template: str, context: dict[str, Any]) -> str:
    """`template` rendered with `context`; a template mistake is a user error naming the place."""
    try:
        return env.get_template(template).render(**context)
    except jinja2.TemplateError as exc:
        where = getattr(exc, "filename", None) or template
        line = getattr(exc, "lineno", None)
        raise GeneratorError(
            f"template {where}{f':{line}' if line else ''}: {exc.message or exc}. "
            "Fix the template or restore the default templates/.",
            ExitCode.USER_INPUT,
        ) from None
