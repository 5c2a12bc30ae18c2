"""Secrets a model types by name (`--secrets PATH`, a dotenv file): `${NAME}` in the text of
`fill`, `send_keys` and the other typing tools becomes the value in the browser only, and so does
a text that is a secret's name and nothing else (`X-PASSWORD`), as @playwright/mcp takes it.

Guarantees: `reveal` is the only way from a name to a value, and only typing tools call it;
`scrub` replaces every occurrence of every value (longest first) with its `${NAME}`, in each
spelling the value takes in a URL, a form, a cookie, JSON or markup, so a result, an error, a log
line or a snapshot that would show a value shows the name instead; a value too
short to mask that way (host/shared/masking.py: under 4 characters) is refused when the file is
read, naming it. A text that
names an unknown secret (`${NAME}` in the dotenv's naming style) is refused, not typed literally.
Values are never part of a repr.
"""

from __future__ import annotations

import codecs
import logging
import re
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from host.shared.errors import HostError
from host.shared.masking import Spelled, mask, secret_masks, too_short

MAX_SECRETS_BYTES = 256 * 1024
MAX_SECRETS = 256
# `-` as well: @playwright/mcp's dotenv files name secrets such as `X-PASSWORD`.
_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_REFERENCE = re.compile(r"\$\{(" + _NAME + r")\}")
_BOM = "\ufeff"
_LINE = re.compile(r"\s*(?:export\s+)?(" + _NAME + r")\s*=\s*(.*?)\s*")


class SecretsFileError(ValueError):
    """The secrets file cannot be used: the message names the file, the line and the fix."""


@dataclass(frozen=True)
class Secrets:
    """Named secret values; empty when no `--secrets` was given (then nothing is revealed or
    scrubbed and `${...}` is ordinary text)."""

    values: Mapping[str, str] = field(default_factory=dict, repr=False)

    def __bool__(self) -> bool:
        return bool(self.values)

    def names(self) -> list[str]:
        return sorted(self.values)

    def reveal(self, text: str) -> str:
        """`text` with each `${NAME}` of a known secret replaced by its value, or the value when
        `text` is a known secret's name and nothing else (the peer's form); raises HostError
        `unknown_secret` for a `${NAME}` that is not one (only when secrets are configured)."""
        if text in self.values:
            return self.values[text]
        if not self.values or "${" not in text:
            return text

        def value(match: re.Match[str]) -> str:
            name = match[1]
            if name not in self.values:
                raise HostError(
                    "unknown_secret",
                    f"there is no secret named {name}; known: {', '.join(self.names())}",
                )
            return self.values[name]

        return _REFERENCE.sub(value, text)

    def scrub(self, text: str) -> str:
        """`text` with every secret value shown as its `${NAME}`, in every spelling a page or a
        server gives it (percent-encoded in a URL or a form, quoted in a cookie, escaped in JSON
        or markup: host/shared/masking.py's `spellings`), by the rule `host replay` follows too."""
        if not self.values:
            return text
        return mask(text, self._masks)

    @cached_property
    def _masks(self) -> Spelled:
        return secret_masks(self.values)

    def scrub_json(self, value: object) -> object:
        """A JSON value with `scrub` applied to every string in it, keys too; a `Rendered` stays
        one (its text scrubbed too), an image's base64 is left as it is."""
        if not self.values:
            return value
        return _scrub_json(self, value)


def _scrub_json(secrets: Secrets, value: object) -> object:
    if type(value) is str:
        return secrets.scrub(value)
    if isinstance(value, str):
        return value  # an `Image`'s base64: pixels are not text (see docs/host.md, "Secrets", on screenshots)
    if isinstance(value, dict):
        items = {secrets.scrub(str(k)): _scrub_json(secrets, v) for k, v in value.items()}
        if type(value) is dict:
            return items
        value.clear()  # a dict subclass (`Rendered`) keeps its type and its other attributes
        value.update(items)
        text = getattr(value, "text", None)
        if isinstance(text, str):
            value.text = secrets.scrub(text)  # type: ignore[attr-defined]
        return value
    if isinstance(value, list):
        return [_scrub_json(secrets, item) for item in value]
    return value


def read_secrets(path: Path, warnings: list[str] | None = None) -> Secrets:
    """The secrets of a dotenv file (`NAME=value`, `export NAME=value`, `#` comments, values in
    single or double quotes; UTF-8, one byte-order mark at its start skipped); raises
    SecretsFileError naming the file and line (a byte-order mark anywhere else, named as one).
    A name with an empty value is skipped (there is nothing to mask; @playwright/mcp skips it
    too) and a warning naming it is added to `warnings`; the others are read as usual."""
    option = "--secrets"
    try:
        if not path.is_file():
            raise SecretsFileError(f"{option}: {path} is not a file; give a dotenv file")
        if path.stat().st_size > MAX_SECRETS_BYTES:
            raise SecretsFileError(f"{option}: {path} is larger than {MAX_SECRETS_BYTES} bytes")
        data = path.read_bytes()
    except OSError as error:
        raise SecretsFileError(f"{option}: cannot read {path}: {error.strerror}") from None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise SecretsFileError(
            f"{option}: {path} is UTF-16 text (it starts with a UTF-16 byte-order mark); save "
            "it as UTF-8"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SecretsFileError(f"{option}: {path} is not UTF-8 text") from None
    # Editors on Windows start a UTF-8 file with a byte-order mark; dotenv readers skip it.
    text = text.removeprefix(_BOM)
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if _BOM in line:
            # Anywhere else it is invisible in an editor and would be typed as part of a value.
            raise SecretsFileError(
                f"{option}: {path}:{number} holds a byte-order mark (U+FEFF) at column "
                f"{line.index(_BOM) + 1}; it is allowed only at the start of the file: remove it"
            )
        match = _LINE.fullmatch(line)
        if match is None:
            raise SecretsFileError(
                f"{option}: {path}:{number} is not NAME=value (names: letters, digits, _ and -)"
            )
        name, value = match[1], match[2]
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if name in values:
            raise SecretsFileError(f"{option}: {path}:{number}: {name} is given twice")
        if not value:
            if warnings is not None:
                warnings.append(
                    f"{option}: {path}:{number}: {name} has an empty value; it is skipped "
                    f"(${{{name}}} is then unknown), the other secrets are masked as usual"
                )
            continue
        if value.isspace():
            raise SecretsFileError(
                f"{option}: {path}:{number}: {name} is only whitespace; it cannot be kept from"
                " the model without hiding every space; give a value with other characters"
            )
        short = too_short(name, value)
        if short is not None:
            raise SecretsFileError(f"{option}: {path}:{number}: {short}")
        values[name] = value
    if len(values) > MAX_SECRETS:
        raise SecretsFileError(f"{option}: {path} has more than {MAX_SECRETS} secrets")
    return Secrets(values)


def install_log_scrubber(secrets: Secrets) -> None:
    """Make every log record of this process (the host's, the SDK's, uvicorn's) show secret
    values as their `${NAME}`: the message and any traceback are formatted and scrubbed as the
    record is made, before any handler sees it."""
    make_record = logging.getLogRecordFactory()

    def scrubbed_record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make_record(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: shown as logging would show its parts
            message = f"{record.msg!r} % {record.args!r}"
        record.msg, record.args = secrets.scrub(message), None
        if record.exc_info:
            text = "".join(traceback.format_exception(*record.exc_info))
            record.exc_text, record.exc_info = secrets.scrub(text.rstrip("\n")), None
        if record.stack_info:
            record.stack_info = secrets.scrub(record.stack_info)
        return record

    logging.setLogRecordFactory(scrubbed_record)
