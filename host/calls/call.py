"""One call as it passes through its steps (`Host.call`), and the parts of the host they use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from host.browsers.endpoints import EndpointPool
from host.calls.registry import Runner, ToolRegistry
from host.sessions.keys import SessionKey
from host.sessions.manager import SessionManager
from host.sessions.navigation import NavigationPolicy
from host.sessions.session import Session
from host.settings.config import HostConfig
from host.shared.descriptors import ToolDescriptor
from host.shared.jsontypes import JsonObject
from host.trails.recorder import Recorder


class HostParts(Protocol):
    """What the steps of a call read from the host (`Host` has these): the steps take it
    instead of the host, so the call path's modules never import the module of `Host`."""

    config: HostConfig
    registry: ToolRegistry
    policy: NavigationPolicy
    sessions: SessionManager
    endpoints: EndpointPool
    recorder: Recorder | None
    closed: bool


@dataclass
class Call:
    """One call from its arrival to its answer: each step fills in what it found for the next.

    Guarantees: `tool` is the tool's current name (a former name resolved); once `check` has
    passed, `descriptor`, `args` (with the peer's argument names accepted) and `runner` are set
    and `key` is the session the call runs in; once `place` started, `deadline` (the event
    loop's time) and `budget` (seconds) are set, and `session` (with `placed`) once it found
    the session. `extras` gathers what the session has to tell the caller (a new or ended
    session, notes, open dialogs), whatever the outcome.
    """

    tool: str
    key: SessionKey
    args: object
    descriptor: ToolDescriptor = field(init=False)
    runner: Runner = field(init=False)
    described: dict[str, str] | None = None
    """The caller's own words for the elements it targets (`element`): kept in the trail beside
    the arguments, and named in an error."""
    session: Session = field(init=False)
    placed: bool = False
    """Whether the call found its session (`session` is set)."""
    deadline: float = 0.0
    budget: float = 0.0
    extras: JsonObject = field(default_factory=dict)
