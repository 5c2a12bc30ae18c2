"""Browser cases for `web_locator_*` tools (Locator methods). See e2e_cases.py for the row format."""

from __future__ import annotations

from e2e_cases import Case

CASES: tuple[Case, ...] = ()
