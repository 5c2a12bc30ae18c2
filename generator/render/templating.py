"""The Jinja environment every output is rendered in: strict about undefined names, with the filters
that escape values for YAML, Python and Markdown.

A custom template folder overrides the built-in templates file by file; any template it does not
hold is taken from the built-in folder, so a folder with one edited template keeps working when a
new kind of output (and its template) is added.
"""

from __future__ import annotations

import base64
import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import jinja2.sandbox
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path

from generator.render.template_dir import default_templates
from generator.render.writers.python import string_literal
from generator.render.yaml_text import yaml_block, yaml_scalar
from generator.shared.confined_files import RefusedFile, read_under
from generator.shared.diagnostics import ExitCode, GeneratorError

if TYPE_CHECKING:
    from generator.shared.cache import Cache


def markdown_cell(text: str) -> str:
    """Text that stays inside one Markdown table cell."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


# A template is a page of text; far larger means the wrong file (or a device) was named.
MAX_TEMPLATE_BYTES = 1 << 20


class _ConfinedLoader(jinja2.FileSystemLoader):
    """Jinja's file loader, listing as it does, but reading each template by the rule of
    `shared/confined_files.py`: a regular file under the template folder, no symlink followed at
    any depth, never a FIFO or device, at most MAX_TEMPLATE_BYTES, UTF-8. A template folder
    is code from outside the project, so `toolset.yaml.j2 -> /proc/self/environ` is refused
    naming the template, never rendered into the output (nor into `--check`'s diff)."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        name = "/".join(split_template_path(template))
        for folder in self.searchpath:
            try:
                raw = read_under(Path(folder), name, MAX_TEMPLATE_BYTES)
            except RefusedFile as refused:
                if refused.missing:
                    continue  # not overridden here: the next folder's (the built-in one)
                raise _template_error(template, None, str(refused)) from None
            try:
                source = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise _template_error(
                    template, None, f"not UTF-8 (byte {raw[exc.start]:#x})"
                ) from None
            return source, os.path.normpath(os.path.join(folder, name)), lambda: True
        raise jinja2.TemplateNotFound(template)


def _template_error(template: str, line: int | None, problem: str) -> GeneratorError:
    return GeneratorError(
        f"template {template}{f':{line}' if line else ''}: {problem}. "
        "Fix the template or restore the default templates/.",
        ExitCode.USER_INPUT,
    )


def _loader(template_dir: Path) -> jinja2.BaseLoader:
    built_in = default_templates()
    if not template_dir.is_dir():
        raise GeneratorError(
            f"--templates {template_dir}: no such directory. Name a folder of .j2 templates "
            "(only the ones it holds replace the built-in templates).",
            ExitCode.USER_INPUT,
        )
    own = _ConfinedLoader(str(template_dir))
    if template_dir.resolve() == built_in.resolve():
        return own
    return jinja2.ChoiceLoader([own, _ConfinedLoader(str(built_in))])


# The largest value `*` and `**` may build in a template: far above any real output, far below
# what would exhaust memory or compute for hours (`{{ 10 ** 10000000000 }}`, `{{ "x" * 10 ** 12 }}`).
MAX_PRODUCT_BYTES = 1 << 20


class _Sandbox(jinja2.sandbox.ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox (no access to Python's internals, no changing data), whose `*`
    and `**` also refuse to build values larger than `MAX_PRODUCT_BYTES`: a template cannot hang
    the run or exhaust its memory with one expression."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        # Bits of left ** right, bounded before it is computed.
        if (
            operator == "**"
            and _ints(left, right)
            and right > 0
            and right * abs(left).bit_length() > 8 * MAX_PRODUCT_BYTES
        ):
            raise SecurityError(f"{left} ** {right} is too large a number")
        if operator == "*":
            for sized, times in ((left, right), (right, left)):
                if (
                    isinstance(sized, str | bytes | list | tuple)
                    and _ints(times)
                    and len(sized) * times > MAX_PRODUCT_BYTES
                ):
                    raise SecurityError(f"repeating a value {times} times is too large")
        return super().call_binop(context, operator, left, right)


def _ints(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


class _CompiledTemplates(jinja2.BytecodeCache):
    """The built-in templates, compiled, in the generator's verified cache (kind `jinja`): a run
    that renders a template needs no compile of it. The key covers the template's name and
    source, Jinja's and Python's versions and this module's code (the environment's options);
    Jinja checks the source's checksum again when it loads the code. What is loaded is run, as
    Python runs what `__pycache__` holds, so it is only used in a cache folder that is this
    user's own and that nobody else may write (`_private`)."""

    def __init__(self, cache: Cache) -> None:
        self._cache = cache

    def _key(self, bucket: jinja2.bccache.Bucket) -> str:
        return self._cache.value_key(
            "generator.render.templating",
            jinja2.__version__,
            sys.version,
            bucket.key,
            bucket.checksum,
        )

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        key = self._key(bucket)
        text = self._cache.load("jinja", key)
        if text is None:
            return
        try:
            bucket.bytecode_from_string(base64.b64decode(text, validate=True))
        except Exception:
            # Code that does not load (a forged entry with a good checksum) is compiled again.
            bucket.reset()
            self._cache.discard("jinja", key)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = base64.b64encode(bucket.bytecode_to_string()).decode()
        self._cache.store("jinja", self._key(bucket), code)


def _private(root: Path) -> bool:
    """Whether `root` and its `jinja` folder, as far as they exist, are this user's and writable
    by nobody else (so that nobody else can put code there). A folder not made yet will be."""
    for folder in (root, root / "jinja"):
        try:
            status = folder.lstat()
        except FileNotFoundError:
            continue
        except OSError:
            return False
        if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.geteuid():
            return False
        if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return False
    return True


def environment(template_dir: Path, cache: Cache | None = None) -> jinja2.Environment:
    """The environment for `template_dir`: sandboxed when it is a custom folder, because a custom
    template is code from outside the project; it may print values but not reach Python's
    internals, change data or build values without bound. The built-in templates are this
    project's own code and render without the sandbox's check on every attribute; with `cache`,
    their compiled code is kept there."""
    built_in_only = template_dir.resolve() == default_templates().resolve()
    kind = jinja2.Environment if built_in_only else _Sandbox
    compiled = None
    if built_in_only and cache is not None and cache.enabled and _private(cache.root):
        compiled = _CompiledTemplates(cache)
    env = kind(
        bytecode_cache=compiled,
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


def built_in(env: jinja2.Environment, template: str) -> bool:
    """Whether `template` is one of ours (no custom template folder overrides it)."""
    assert env.loader is not None
    filename = env.loader.get_source(env, template)[1]
    return filename is not None and Path(filename).resolve().parent == default_templates().resolve()


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
    """`template` rendered with `context`; a template mistake (syntax, an undefined name, a
    reach past the sandbox, an exception such as a division by zero) is a user error naming the
    template and its line."""
    try:
        return env.get_template(template).render(**context)
    except SecurityError as exc:
        where, line = _template_frame(exc, template)
        raise _template_error(
            where, line, f"not allowed in a template ({exc}); templates may only print values"
        ) from None
    except jinja2.TemplateNotFound as exc:
        where, line = _template_frame(exc, template)
        raise _template_error(
            where,
            line,
            f"no template named {exc.name!r} in the --templates folder or the built-in templates",
        ) from None
    except jinja2.TemplateError as exc:
        where = getattr(exc, "filename", None) or template
        line = getattr(exc, "lineno", None) or _template_frame(exc, template)[1]
        raise _template_error(Path(where).name, line, str(exc.message or exc)) from None
    except GeneratorError:
        raise
    except Exception as exc:
        where, line = _template_frame(exc, template)
        raise _template_error(where, line, f"{type(exc).__name__}: {exc}") from None


def _template_frame(exc: BaseException, template: str) -> tuple[str, int | None]:
    """The template file and line where `exc` was raised: Jinja rewrites tracebacks so that
    template code appears as frames of the template file itself."""
    found: tuple[str, int | None] = (template, None)
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2"):
            found = (Path(filename).name, tb.tb_lineno)
        tb = tb.tb_next
    return found
