"""`--config PATH`: a YAML or JSON file whose keys are a command's long option names
(`viewport-size: 800x600`, `headed: true`, `init-script: [a.js, b.js]`).

Guarantees: the file's options are read as if given before the command line's, so the command
line wins (a repeatable option given on the command line replaces the file's list); an unknown
key, a value of the wrong kind, or a value the option refuses is a `ConfigFileError` naming the
key and the file, raised before anything starts. So is a key given twice in one mapping, at any
depth, in YAML or JSON (both would silently keep the last one): the message names its line.
"""

from __future__ import annotations

import argparse
import json
import json.decoder
import json.scanner
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from host.settings.options import shortened
from host.settings.peer_options import PEER_CONFIG_KEYS, Refused

MAX_CONFIG_BYTES = 1024 * 1024
CONFIG_OPTION = "--config"


class ConfigFileError(ValueError):
    """The config file cannot be used; the message names the file, the key and the fix."""


def add_config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        CONFIG_OPTION,
        type=Path,
        metavar="PATH",
        help="read options from a YAML or JSON file whose keys are the long option names "
        "(viewport-size: 800x600); the command line wins",
    )


def with_config(
    parser: argparse.ArgumentParser, argv: Sequence[str]
) -> tuple[list[str], dict[str, str]]:
    """`argv` (a command's arguments, after its name) with the options of its `--config` file
    put in front (`argv` itself if it names no config file), and for each option the file set,
    where it was set (`'viewport-size' in host.yaml`): a value refused later names the file."""
    path = _config_path(argv)
    if path is None:
        return list(argv), {}
    data = _load(path)
    given = _given(parser, argv)
    options = {name: action for action in parser._actions if (name := config_key(action))}
    tokens: list[str] = []
    origins: dict[str, str] = {}
    for key, value in data.items():
        where = f"{key!r} in {path}"
        if (isinstance(key, str) and key in PEER_CONFIG_KEYS) or (
            isinstance(value, dict) and key == "browser"
        ):
            raise ConfigFileError(
                f"{where} is @playwright/mcp's nested config, which this host does not read; "
                "write each option under its long name (viewport-size: 1280x720, port: 8931)"
            )
        if not isinstance(key, str) or key not in options:
            known = ", ".join(sorted(options))
            raise ConfigFileError(f"unknown option {where}; known: {known}")
        action = options[key]
        if action in given:
            continue  # the command line wins
        tokens += _tokens(parser, action, value, where)
        origins[action.option_strings[0]] = f"{where}, value {_shown(value)}"
    return [*tokens, *argv], origins


def config_key(action: argparse.Action) -> str | None:
    """The key a config file names `action` by: its first option string without the dashes
    (`viewport-size` for `--viewport-size`); None for what a file cannot set (an argument
    without a long first name, `--config` itself, `--help`). docs/options.md lists these keys."""
    if not action.option_strings or not action.option_strings[0].startswith("--"):
        return None
    key = action.option_strings[0][2:]
    return None if key in ("config", "help") else key


def where_set(option: str, origins: dict[str, str]) -> str:
    """` (set by 'key' in FILE)` for an option the config file set, else nothing."""
    return f" (set by {origins[option]})" if option in origins else ""


def _config_path(argv: Sequence[str]) -> Path | None:
    for index, token in enumerate(argv):
        if token == CONFIG_OPTION:
            if index + 1 >= len(argv):
                return None  # argparse reports the missing value
            return Path(argv[index + 1])
        if token.startswith(CONFIG_OPTION + "="):
            return Path(token.split("=", 1)[1])
    return None


def _load(path: Path) -> dict[object, object]:
    try:
        if not path.is_file():
            raise ConfigFileError(f"{CONFIG_OPTION}: {path} is not a file")
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ConfigFileError(
                f"{CONFIG_OPTION}: {path} is larger than {MAX_CONFIG_BYTES} bytes"
            )
        # utf-8-sig: a leading byte order mark, which Windows editors write, is not content.
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise ConfigFileError(f"{CONFIG_OPTION}: cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigFileError(f"{CONFIG_OPTION}: {path} is not UTF-8 text") from None
    kind = "JSON" if path.suffix == ".json" else "YAML"
    try:
        data = _JsonDecoder().decode(text) if kind == "JSON" else yaml.load(text, Loader=_Loader)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        detail = " ".join(str(error).split())  # YAML's message spans lines: one line
        raise ConfigFileError(
            f"{CONFIG_OPTION}: {path} is not valid {kind}: {shortened(detail, 300)}"
        ) from None
    except _DuplicateKey as duplicate:
        where = f"{path}:{duplicate.line}" if duplicate.line is not None else str(path)
        raise ConfigFileError(
            f"{CONFIG_OPTION}: {where}: the key {shortened(repr(duplicate.key), 80)} is given "
            f"twice in one {kind} mapping, which would silently keep the last; keep one of them"
        ) from None
    except RecursionError:
        raise ConfigFileError(
            f"{CONFIG_OPTION}: {path} nests its values too deep to read; "
            "a config file is a mapping of option names to values"
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigFileError(
            f"{CONFIG_OPTION}: {path} must hold a mapping of option names to values"
        )
    return data


def _int_or_text(digits: str) -> int | str:
    """A JSON integer, or its digits as text past Python's limit on digits (int() would raise):
    the option then refuses the value by name, as any other it cannot read."""
    try:
        return int(digits)
    except ValueError:
        return digits


# The pure-Python parts of `json` (typeshed does not list them): its object parser, string
# scanner and scanner maker, which `_JsonDecoder` puts together to know where a key is.
_json_object: Any = vars(json.decoder)["JSONObject"]
_json_string: Any = vars(json.decoder)["scanstring"]
_python_scanner: Any = vars(json.scanner)["py_make_scanner"]
_JSON_SPACE = re.compile(r"[ \t\n\r]*")


class _DuplicateKey(Exception):
    """A key given twice in one mapping (its second place's line, when known)."""

    def __init__(self, key: object, line: int | None) -> None:
        super().__init__(key, line)
        self.key = key
        self.line = line


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a key given twice is a `_DuplicateKey`."""
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key, None)
            seen.add(key)
    return result


def _located_object(s_and_end: tuple[str, int], strict: bool, scan_once: Any, *rest: Any) -> Any:
    """JSON's object parser; a `_DuplicateKey` from it gets the line of the key's second place."""
    try:
        return _json_object(s_and_end, strict, scan_once, *rest)
    except _DuplicateKey as duplicate:
        if duplicate.line is None:  # this object's: the ones inside it were read whole
            duplicate.line = _second_place(*s_and_end, strict, scan_once, str(duplicate.key))
        raise


def _second_place(text: str, end: int, strict: bool, scan_once: Any, key: str) -> int | None:
    """The line where `key` comes a second time in the object whose text starts at `end`
    (just after its `{`), which parsed but for that."""
    seen = False
    while True:
        end = _past_space(text, end)
        if text[end : end + 1] != '"':
            return None
        name, after = _json_string(text, end + 1, strict)
        if name == key:
            if seen:
                return text.count("\n", 0, end) + 1
            seen = True
        end = _past_space(text, after) + 1  # past the ':'
        _, end = scan_once(text, _past_space(text, end))
        end = _past_space(text, end) + 1  # past the ','


def _past_space(text: str, end: int) -> int:
    match = _JSON_SPACE.match(text, end)
    return match.end() if match is not None else end


class _JsonDecoder(json.JSONDecoder):
    """JSON's decoder for a config file: a whole number past Python's limit on digits read as its
    text (`_int_or_text`), and a key given twice in an object a `_DuplicateKey` naming its line.
    Its scanner is the Python one, which parses objects with `parse_object` (a config file is
    small)."""

    def __init__(self) -> None:
        super().__init__(parse_int=_int_or_text, object_pairs_hook=_unique_pairs)
        self.parse_object = _located_object
        self.scan_once = _python_scanner(self)


class _Loader(yaml.SafeLoader):
    """YAML's safe loader, with an integer past Python's limit on digits read as its text, and a
    key given twice in one mapping, at any depth, a `_DuplicateKey` (a merge, `<<: *base`, may
    still be overridden: that is what it is for)."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int | str:  # type: ignore[override]
        try:
            return super().construct_yaml_int(node)
        except ValueError:
            return str(self.construct_scalar(node))

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
                try:
                    if key in seen:
                        raise _DuplicateKey(key, key_node.start_mark.line + 1)
                    seen.add(key)
                except TypeError:  # an unhashable key, which the safe loader refuses
                    continue
        return super().construct_mapping(node, deep=deep)


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


def _shown(value: object) -> str:
    """A config value as a message quotes it: JSON-like, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:
        text = repr(value)
    return shortened(text, 80)


def _given(parser: argparse.ArgumentParser, argv: Sequence[str]) -> set[argparse.Action]:
    """The actions the command line itself uses."""
    given: set[argparse.Action] = set()
    for token in argv:
        if not token.startswith("--"):
            continue
        name = token.split("=", 1)[0]
        for action in parser._actions:
            if name in action.option_strings:
                given.add(action)
    for group in parser._mutually_exclusive_groups:  # --stdio on the command line drops http:
        if given.intersection(group._group_actions):
            given.update(group._group_actions)
    return given


def _endpoint_entry(value: object, where: str) -> object:
    """A `browser-endpoint` item may be `{url: ws://..., max: 8}`: the URL with `?max=8`."""
    if not isinstance(value, dict):
        return value
    url, limit = value.get("url"), value.get("max")
    unknown = sorted(set(value) - {"url", "max"})
    if not isinstance(url, str) or unknown:
        raise ConfigFileError(
            f"{where}: an endpoint entry is {{url: ..., max: N}}"
            + (f" (unknown key {', '.join(map(str, unknown))})" if unknown else "")
        )
    if limit is None:
        return url
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise ConfigFileError(f"{where}: max must be a whole number")
    if "#" in url or "max=" in url.partition("?")[2]:
        raise ConfigFileError(f"{where}: give max once, as the entry's max or in a URL without #")
    return f"{url}{'&' if '?' in url else '?'}max={limit}"


def _json_entry(value: object, where: str) -> object:
    """`selenium-capabilities` may be a mapping: its JSON text."""
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else value


# Options whose values a config file may give as structures, and how they become text.
_STRUCTURED = {"--browser-endpoint": _endpoint_entry, "--selenium-capabilities": _json_entry}


def _tokens(
    parser: argparse.ArgumentParser, action: argparse.Action, value: object, where: str
) -> list[str]:
    flag = action.option_strings[0]
    if isinstance(action, Refused):
        raise ConfigFileError(f"{where}: not supported by this host: {action.why}")
    structured = _STRUCTURED.get(flag)
    if structured is not None:
        value = (
            [structured(v, where) for v in value]
            if isinstance(value, list)
            else structured(value, where)
        )
    if action.nargs == 0:  # store_true
        if not isinstance(value, bool):
            raise ConfigFileError(f"{where} must be true or false, got {_shown(value)}")
        return [flag] if value else []
    repeatable = isinstance(action, argparse._AppendAction)
    if isinstance(value, list):
        if not all(
            isinstance(item, str | int | float) and not isinstance(item, bool) for item in value
        ):
            raise ConfigFileError(
                f"{where} must be a list of strings or numbers, got {_shown(value)}"
            )
        items = [str(item) for item in value]
        # A list for a one-value option is its comma-separated form (grant-permissions: [a, b]).
        values = items if repeatable else [",".join(items)]
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        values = [str(value)]
    else:
        raise ConfigFileError(f"{where} must be a string or a number, got {_shown(value)}")
    tokens: list[str] = []
    for text in values:
        try:
            converted = parser._get_value(action, text)
            parser._check_value(action, converted)
        except argparse.ArgumentError as error:
            raise ConfigFileError(f"{where}: {shortened(error.message)}") from None
        # One token, `--key=value`: a value that begins with `-` (`-Infinity`, `--enable-execute`
        # as a user agent) is then a value, never read as an option.
        tokens.append(f"{flag}={text}")
    return tokens
