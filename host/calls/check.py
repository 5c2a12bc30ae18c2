"""A call's first step: everything that can refuse it before any browser work.

The tool must be on (not `--enable-execute`'s or a capability's while off), its arguments within
the host's bounds and its descriptor's schema, and every URL it would open one the navigation
policy allows; a refused call starts no browser and no session.
"""

from __future__ import annotations

from host.calls.call import Call, HostParts
from host.calls.result_caps import MAX_RESULT_DEPTH, bound_arguments, guarded
from host.sessions.navigation import NavigationPolicy
from host.settings.caps import CAP_OF
from host.settings.limits import check_arguments
from host.settings.storage_state import check_cookie
from host.shared.descriptors import ToolDescriptor
from host.shared.errors import HostError

EXECUTE_TOOL = "browser_execute_python"
OBJECTIVE_TOOL = "browser_objective"
# Generated tools that open a URL a caller names (the host's own tools check theirs themselves).
NAVIGATING_ARGUMENTS = {"web_navigate": "url"}


def check(host: HostParts, call: Call, enabled: frozenset[str] | None) -> None:
    """Refuse `call` with a `HostError` (`shutting_down`, `tool_disabled`, `invalid_argument`,
    `url_blocked`, ...), or set its descriptor, its arguments as the tool takes them, its runner
    and the session it runs in (a tool with a session parameter runs in that sub-session)."""
    name = call.tool
    if host.closed:
        raise HostError("shutting_down", "the host is shutting down")
    if name == EXECUTE_TOOL and not host.config.enable_execute:
        raise HostError(
            "tool_disabled",
            "browser_execute_python is off on this host (it runs arbitrary Python); the "
            "operator enables it by starting the host with --enable-execute",
        )
    cap = CAP_OF.get(name)
    if cap is not None and cap not in host.config.caps:
        raise HostError(
            "tool_disabled",
            f"{name} comes with the {cap!r} capability, which is off on this host; the "
            f"operator turns it on by starting the host with --caps {cap}",
        )
    limit = host.config.max_result_bytes
    args = call.args
    check_arguments(args, host.config.argument_limits)
    descriptor = host.registry.lookup(name, enabled)
    try:  # @playwright/mcp's argument names, accepted as ours (never listed)
        args, described = descriptor.accept_peer_arguments(args)
        args = host.registry.peer_shaped(descriptor, args)
    except ValueError as problem:
        where, _, message = str(problem).partition(": ")
        raise HostError("invalid_argument", message, path=where) from None
    run_args = args
    if descriptor.origin == "generated":
        run_args = bound_arguments(name, args, limit, MAX_RESULT_DEPTH)
    runner = guarded(name, args, host.registry.prepare(descriptor, run_args), limit)
    check_urls(host.policy, descriptor, args)
    if name == "web_cookie_add" and descriptor.origin == "generated":
        check_cookies(args)
    call.descriptor, call.args, call.runner, call.described = descriptor, args, runner, described
    if descriptor.session_param and isinstance(args, dict):
        sub = args.get(descriptor.session_param)
        call.key = call.key.sub(sub if isinstance(sub, str) and sub else "default")


def check_cookies(args: object) -> None:
    """Refuse a cookie of `web_cookie_add` that Playwright or Chromium would refuse, naming its
    field (`cookies[1].domain`), as `browser_cookie_set` does: Chromium's own refusal names none."""
    cookies = args.get("cookies") if isinstance(args, dict) else None
    for index, cookie in enumerate(cookies if isinstance(cookies, list) else []):
        if isinstance(cookie, dict):
            check_cookie(cookie, f"cookies[{index}]")


def check_urls(policy: NavigationPolicy, descriptor: ToolDescriptor, args: object) -> None:
    """Refuse a URL argument the navigation policy would not open (before any browser work)."""
    if not isinstance(args, dict):
        return
    names = list(descriptor.navigates)
    generated = NAVIGATING_ARGUMENTS.get(descriptor.name)
    if generated is not None and descriptor.origin == "generated":
        names.append(generated)
    for name in names:
        value = args.get(name)
        if value == "" and descriptor.name == "browser_navigate":
            continue  # a no-op, as @playwright/mcp's (the tool answers where the page is)
        if isinstance(value, str) and value not in ("back", "forward", "reload"):
            policy.check_open(value, path=name)
