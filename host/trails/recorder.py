"""Recording: every successful call of a recordable tool, appended to its caller's trail.

The host starts `prepare` as a recordable call starts, its requests ahead of the call's (a ref
must be resolved while its snapshot is current), and `commit`s after the call succeeded; a call
that failed is never written. One trail file for a stdio host (one caller), one per
caller in a directory for HTTP. `web_objective` opens a `prompt` item in the caller's trail.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.sessions.keys import SessionKey
from host.sessions.targets import ref_of, stale, to_selector
from host.shared.descriptors import ToolDescriptor
from host.shared.errors import HostError
from host.trails.locators import stable_selector
from host.trails.trail import TrailWriter

TARGET_ARGUMENTS = ("target", "to", "selector", "targetSelector")
TYPED_ARGUMENTS = ("text", "value")
STORED_VALUES = frozenset(
    {"browser_cookie_set", "browser_localstorage_set", "browser_sessionstorage_set"}
)
"""Tools whose `value` is stored by the browser, never typed into the focused field: no password
field can have received it."""
_PASSWORD_NAME = """(e) => {
  const el = e || document.activeElement;
  if (!(el instanceof HTMLInputElement) || el.type !== 'password') return null;
  return el.name || el.id || '';
}"""


class RecordingError(Exception):
    """A `--record` path that cannot be written (refused at start)."""


@dataclass(frozen=True)
class Prepared:
    """A call's arguments as the trail will hold them."""

    arguments: dict[str, Any]
    notes: tuple[str, ...] = ()
    into_focus: tuple[str, ...] = ()
    """Typed arguments with no target: they went into whatever had focus, which the call's own
    keys may have moved (`Tab`), so the focused field is asked again after the call."""

    def with_secret(self, field: str) -> Prepared:
        """These arguments with every typed value replaced by the field's `${NAME}`."""
        secret = "${" + secret_name(field) + "}"
        typed = [
            n
            for n in TYPED_ARGUMENTS
            # A value the caller typed by name (`--secrets`) already names its secret.
            if isinstance(self.arguments.get(n), str) and not _BY_NAME.fullmatch(self.arguments[n])
        ]
        arguments = {**self.arguments, **dict.fromkeys(typed, secret)}
        note = f"a password field: the trail holds {secret}"
        return Prepared(arguments, (*self.notes, note), ())


_BY_NAME = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}")


def secret_name(field: str) -> str:
    """`${NAME}` for a password field: its name or id in upper snake case, else PASSWORD."""
    name = re.sub(r"[^A-Za-z0-9]+", "_", field).strip("_").upper()
    if not name or name[0].isdigit():
        name = "PASSWORD" if not name else "F_" + name
    return name


class Recorder:
    """Appends recorded calls to trails.

    Guarantees: `prepare` never holds a snapshot ref in what it returns (a ref becomes the stable
    selector it resolved to, checked to match exactly one element) nor a value typed into a
    password field (it becomes `${NAME}`); `commit` writes one call as one complete YAML block,
    so each trail stays valid whatever happens to the host after a call was answered."""

    def __init__(self, path: Path, per_caller: bool) -> None:
        self.path = path
        self.per_caller = per_caller
        self._writers: dict[SessionKey | None, TrailWriter] = {}
        self.check()

    def check(self) -> None:
        """Refuse a path that cannot be written, before any call (at start)."""
        try:
            if self.per_caller:
                self.path.mkdir(parents=True, exist_ok=True)
                probe = self.path / ".probe"
                probe.write_text("")
                probe.unlink()
            else:
                if self.path.is_dir():
                    raise RecordingError(
                        f"--record {self.path}: is a directory; a stdio host writes one trail "
                        "file (a directory is for --http, one trail per caller)"
                    )
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._writers[None] = TrailWriter(self.path)
        except OSError as error:
            raise RecordingError(
                f"--record {self.path}: cannot be written ({error.strerror}); choose a path "
                "this user can write"
            ) from None

    def writer(self, key: SessionKey) -> TrailWriter:
        if not self.per_caller:
            return self._writers[None]
        caller = key.parent
        writer = self._writers.get(caller)
        if writer is None:
            writer = TrailWriter(self.path / trail_file_name(caller))
            self._writers[caller] = writer
        return writer

    @staticmethod
    def check_refs(tab: Any, args: object) -> None:
        """Fail at once (`stale_ref`) for a ref not in the tab's current snapshot."""
        if not isinstance(args, dict):
            return
        for name in TARGET_ARGUMENTS:
            value = args.get(name)
            ref = ref_of(value) if isinstance(value, str) else None
            if ref is not None and ref not in tab.refs:
                raise stale(ref)

    @staticmethod
    async def prepare(tab: Any, descriptor: ToolDescriptor, args: object) -> Prepared:
        """The call's arguments as the trail holds them. The page is asked once per question,
        and the questions at once: a recordable call pays for the slowest, not the sum."""
        arguments = dict(args) if isinstance(args, dict) else {}
        resolving: dict[str, Awaitable[str]] = {}
        element: str | None = None
        for name in TARGET_ARGUMENTS:
            value = arguments.get(name)
            if not isinstance(value, str):
                continue
            ref = ref_of(value)
            if ref is not None:  # in the tab's snapshot: `check_refs` ran first
                resolving[name] = _resolve(tab, ref, name)
                element = element or f"aria-ref={ref}"
            elif element is None and name in ("target", "selector"):
                element = to_selector(value)
        typed = [n for n in TYPED_ARGUMENTS if isinstance(arguments.get(n), str)]
        if descriptor.name in STORED_VALUES:
            typed = []
        asking: list[Awaitable[Any]] = list(resolving.values())
        if typed:
            asking.append(_password_field(tab, element))
        answers = await asyncio.gather(*asking)
        for name, selector in zip(resolving, answers, strict=False):
            arguments[name] = selector
        prepared = Prepared(arguments, (), tuple(typed) if element is None else ())
        field = answers[-1] if typed else None
        return prepared.with_secret(field) if field is not None else prepared

    @staticmethod
    async def after_call(tab: Any, prepared: Prepared) -> Prepared:
        """Typed text that went into the focused element: is that element a password field?"""
        if not prepared.into_focus:
            return prepared
        field = await _password_field(tab, None)
        return prepared.with_secret(field) if field is not None else prepared

    def commit(self, key: SessionKey, tool: str, prepared: Prepared) -> None:
        self.writer(key).add(tool, prepared.arguments)

    def objective(self, key: SessionKey, text: str) -> None:
        self.writer(key).objective(text)

    def close(self) -> None:
        for writer in self._writers.values():
            writer.close()


async def _resolve(tab: Any, ref: str, name: str) -> str:
    try:
        return await stable_selector(tab.page.locator(f"aria-ref={ref}"))
    except HostError as error:
        raise HostError("not_recordable", f"{name}: {error.message}", path=name) from None
    except Exception:
        raise stale(ref) from None  # its element is gone


async def _password_field(tab: Any, element: str | None) -> str | None:
    """The name of the password field a value goes into (the target, else the focused element),
    or None when it is not a password field. One cheap count answers the usual case."""
    try:
        if element is None:
            found = await tab.page.evaluate(f"({_PASSWORD_NAME})(null)")
            return found if isinstance(found, str) else None
        password = tab.page.locator(f"{element} >> css=:scope:is(input[type=password i])")
        if await password.count() != 1:
            return None
        for attribute in ("name", "id"):
            value = await password.get_attribute(attribute)
            if value:
                return str(value)
        return ""
    except Exception:
        return None


def trail_file_name(key: SessionKey) -> str:
    """A file name for a caller's trail: readable, and never a path a caller's text shapes."""
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "-", key.caller)[:40].strip("-.") or "caller"
    digest = hashlib.sha256(f"{key.transport}\0{key.caller}".encode()).hexdigest()[:10]
    return f"{key.transport}-{readable}-{digest}.trail.yaml"
