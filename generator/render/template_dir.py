"""Where the built-in Jinja templates live; kept apart from `render` so that finding them imports
nothing heavy (an up-to-date run needs their digest, not Jinja)."""

from __future__ import annotations

from pathlib import Path


def default_templates() -> Path:
    """The repository's templates/ when running from a checkout, else the installed copy."""
    checkout = (
        Path(__file__).resolve().parents[2] / "templates"
    )  # generator/render/ -> the checkout
    if (checkout / "shim.py.j2").is_file():
        return checkout
    from importlib import resources  # an installed copy only

    return Path(str(resources.files("generator") / "templates"))
