"""Javadoc from a `-sources.jar`: find the comment of each member and turn it into Markdown.

Pure text processing (no JVM). Members are keyed by the nested class path in the source file
(`Page`, `Page.ScreenshotOptions`) plus the member name and, for methods, parameter names, which
tells overloads apart.
"""

from __future__ import annotations

import html
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from generator.read.java_model import JavaDoc
from generator.shared.diagnostics import ExitCode, GeneratorError

_CLASS_DECL = re.compile(r"\b(?:class|interface|enum)\s+(\w+)")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


@dataclass(frozen=True)
class MemberKey:
    """Where a comment belongs: `owner` is the dotted class path inside the file."""

    owner: str
    name: str
    params: tuple[str, ...] | None  # None for fields


def _split_params(text: str) -> tuple[str, ...]:
    depth, parts, current = 0, [], ""
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return tuple(_IDENT.findall(p)[-1] for p in parts if _IDENT.findall(p))


def _member_key(owner: str, declaration: str) -> MemberKey | None:
    declaration = re.sub(r"@\w+(\([^)]*\))?", " ", declaration).strip()
    if "(" in declaration:
        head, _, rest = declaration.partition("(")
        names = _IDENT.findall(head)
        if not names:
            return None
        return MemberKey(owner, names[-1], _split_params(rest.rpartition(")")[0]))
    names = _IDENT.findall(declaration.split("=")[0])
    return MemberKey(owner, names[-1], None) if names else None


def scan_source(source: str, top: str) -> dict[MemberKey, str]:
    """Map each documented member of one Java file to its raw comment body."""
    found: dict[MemberKey, str] = {}
    stack: list[str] = []  # class names of open class bodies; "" for other braces
    parens = 0  # braces inside parentheses (`@SuppressWarnings({"a"})`) are not bodies
    pending_doc: str | None = None
    pending_decl = ""
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        two = source[i : i + 2]
        if two == "/*":
            end = source.find("*/", i + 2)
            end = n if end < 0 else end
            if source[i : i + 3] == "/**":
                pending_doc, pending_decl = source[i + 3 : end], ""
            i = end + 2
            continue
        if two == "//":
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and source[j] != ch:
                j += 2 if source[j] == "\\" else 1
            pending_decl += " "
            i = j + 1
            continue
        if ch in "()":
            parens = max(0, parens + (1 if ch == "(" else -1))
            pending_decl += ch
        elif parens and ch in "{};":
            pending_decl += ch
        elif ch in "{;":
            owner = ".".join(s for s in stack if s) or top
            decl_class = _CLASS_DECL.search(pending_decl)
            if pending_doc is not None and not decl_class:
                key = _member_key(owner, pending_decl)
                if key is not None:
                    found.setdefault(key, pending_doc)
            if ch == "{":
                stack.append(decl_class.group(1) if decl_class else "")
            pending_doc, pending_decl = None, ""
        elif ch == "}":
            if stack:
                stack.pop()
            pending_doc, pending_decl = None, ""
        else:
            pending_decl += ch
        i += 1
    return found


# One Playwright source file is well under 1 MiB; a larger one is not a Playwright source.
_MAX_SOURCE_BYTES = 8 << 20


def read_sources(sources_jar: Path, class_names: set[str]) -> dict[str, dict[MemberKey, str]]:
    """Scan the source files of `class_names` (binary names; nested classes share a file)."""
    files = sorted({name.split("$")[0] for name in class_names})
    result: dict[str, dict[MemberKey, str]] = {}
    try:
        with zipfile.ZipFile(sources_jar) as jar:
            present = set(jar.namelist())
            for top_name in files:
                path = top_name.replace(".", "/") + ".java"
                if path in present:
                    if jar.getinfo(path).file_size > _MAX_SOURCE_BYTES:
                        raise ValueError(f"{path} is larger than {_MAX_SOURCE_BYTES >> 20} MiB")
                    text = jar.read(path).decode("utf-8", errors="replace")
                    result[top_name] = scan_source(text, top_name.rsplit(".", 1)[-1])
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise GeneratorError(
            f"{sources_jar}: cannot read the sources JAR that supplies the descriptions ({exc}). "
            "Replace it with the matching playwright-VERSION-sources.jar, or move it away to "
            "generate without javadoc descriptions.",
            ExitCode.ENVIRONMENT,
        ) from None
    return result


# --- Javadoc to Markdown -------------------------------------------------------------------------

_PRE = re.compile(r"<pre>\s*\{@code.*?\}\s*</pre>|<pre>.*?</pre>", re.S)
_USAGE = re.compile(r"<p>\s*<strong>Usage</strong>.*", re.S)
_LINK = re.compile(r"\{@link(?:plain)?\s+([^}\s]+)(?:\s+([^}]*))?\}")
_ANCHOR = re.compile(r"<a\s+href=[\"']([^\"']*)[\"']\s*>(.*?)</a>", re.S)


def _inline_code(text: str) -> str:
    out, i = [], 0
    while True:
        start = text.find("{@code", i)
        if start < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:start])
        depth, j = 1, start + len("{@code")
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        out.append("`" + " ".join(text[start + len("{@code") : j - 1].split()) + "`")
        i = j


def _markdown(text: str) -> str:
    text = _PRE.sub("\n\n", text)
    text = _inline_code(text)
    text = _LINK.sub(lambda m: f"`{(m.group(2) or m.group(1).split('#')[-1]).strip()}`", text)
    text = _ANCHOR.sub(lambda m: f"[{' '.join(m.group(2).split())}]({m.group(1)})", text)
    text = re.sub(r"</?strong>", "**", text)
    text = re.sub(r"</?em>|</?i>", "_", text)
    text = re.sub(r"<li>", "\n\n- ", text)
    text = re.sub(r"</li>|</?ul>|</?ol>|</p>", "\n\n", text)
    text = re.sub(r"<p>", "\n\n", text)
    text = html.unescape(text)
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
    lines = [p for p in paragraphs if p]
    # List items stay on their own lines; other paragraphs are separated by a blank line.
    out: list[str] = []
    for line in lines:
        if out and not (line.startswith("- ") and out[-1].startswith("- ")):
            out.append("")
        out.append(line)
    return "\n".join(out)


def to_javadoc(raw_comment: str) -> JavaDoc:
    """Convert a raw comment body to a JavaDoc: main text up to the Usage section, `@param`s."""
    lines = [re.sub(r"^\s*\*( ?)", "", line) for line in raw_comment.splitlines()]
    body, tags, current = [], [], None
    for line in lines:
        if line.lstrip().startswith("@"):
            current = [line.lstrip()]
            tags.append(current)
        elif current is not None:
            current.append(line)
        else:
            body.append(line)
    params = []
    for tag in tags:
        joined = " ".join(tag)
        match = re.match(r"@param\s+(\w+)\s*(.*)", joined, re.S)
        if match:
            params.append((match.group(1), _markdown(match.group(2))))
    main = _USAGE.sub("", "\n".join(body))
    return JavaDoc(text=_markdown(main), params=tuple(params))
