"""Map<String, String> on the real JAR: lowered the same way in all three targets."""

from __future__ import annotations

from pathlib import Path

import yaml

from generator.model.lowering import Lowerer, enum_wire_values
from generator.model.type_tree import MapOf, Scalar
from generator.read.java_model import JavaSurface, JavaType
from generator.read.python_api import PythonSurface


def test_reflected_signature(java_surface: JavaSurface) -> None:
    page = java_surface.interface("com.microsoft.playwright.Page")
    assert page is not None
    (method,) = page.overloads("setExtraHTTPHeaders")
    string = JavaType("java.lang.String")
    assert method.params[0].name == "headers"
    assert method.params[0].type == JavaType("java.util.Map", args=(string, string))


def test_lowered(java_surface: JavaSurface, python_surface: PythonSurface) -> None:
    page = java_surface.interface("com.microsoft.playwright.Page")
    assert page is not None
    lowerer = Lowerer(java_surface, enum_wire_values(python_surface))
    assert lowerer.lower(page.overloads("setExtraHTTPHeaders")[0].params[0].type) == MapOf(
        Scalar("string")
    )


def test_in_every_target(generated_tree: Path) -> None:
    shim = (
        generated_tree / "python/playwright_tools/tools/web_set_extra_http_headers.py"
    ).read_text()
    assert "    headers: dict[str, str]\n" in shim
    dts = (generated_tree / "typescript/web-tools.d.ts").read_text()
    assert "headers: Record<string, string>;" in dts
    descriptor = yaml.safe_load(
        (generated_tree / "tools/web_setExtraHTTPHeaders.tool.yaml").read_text()
    )
    headers = descriptor["parameters"]["properties"]["headers"]
    assert headers["type"] == "object"
    assert headers["additionalProperties"] == {"type": "string"}
