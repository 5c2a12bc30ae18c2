"""A session's dialogs: answered by the host's policy or as armed, else kept open and blocking
the calls on their tab until `browser_handle_dialog` answers."""

from __future__ import annotations

from playwright.async_api import Dialog

from host.sessions.session_state import Rate, SessionState, clip
from host.settings.config import HostConfig
from host.shared.jsontypes import JsonObject


class Dialogs(SessionState):
    """The dialog part of a session: `open_dialogs`, the answer armed for the next one, and
    whether a dialog cut the running call short (`interrupted_by_dialog`)."""

    def _init_dialogs(self, config: HostConfig) -> None:
        """No dialog open, none armed."""
        self.open_dialogs: list[Dialog] = []
        self.dialog_answer: tuple[bool, str | None] | None = None
        self.interrupted_by_dialog = False
        self._dialog_rate = Rate(20)

    def _on_dialog(self, dialog: Dialog) -> None:
        if self.dialog_answer is not None:
            accept, text = self.dialog_answer
            self.dialog_answer = None
            self._answer(dialog, accept, text, how="answered as armed by web_handle_dialog")
            return
        policy = self.config.dialog_policy
        if self._dialog_rate.hit():
            self.note(
                {
                    "event": "flood",
                    "kind": "dialog",
                    "detail": "a page opened more than 20 dialogs in a second; this one stays "
                    "open (answer it with browser_handle_dialog)",
                }
            )
        elif policy in ("accept", "dismiss") and self._dialog_rate.count <= 20:
            self._answer(dialog, policy == "accept", None, how=f"answered by the '{policy}' policy")
            return
        self.open_dialogs.append(dialog)
        task = self.inflight
        if task is not None and not task.done() and self._blocks(dialog):
            self.interrupted_by_dialog = True
            task.cancel()

    def _on_dialog_closed(self, dialog: Dialog) -> None:
        # Closed by someone else (another client of a --cdp-endpoint browser, a person at a
        # headed browser): it no longer blocks the tab (@playwright/mcp, playwright#41837).
        if dialog in self.open_dialogs:
            self.open_dialogs.remove(dialog)

    def _answer(self, dialog: Dialog, accept: bool, text: str | None, *, how: str) -> None:
        self.note({"event": "dialog", **describe_dialog(dialog), "accepted": accept, "how": how})
        if accept:
            self._spawn(dialog.accept(text) if text is not None else dialog.accept())
        else:
            self._spawn(dialog.dismiss())

    def _blocks(self, dialog: Dialog) -> bool:
        return self.current is not None and (
            dialog.page is None or dialog.page is self.current.page
        )

    def blocking_dialog(self) -> Dialog | None:
        """The open dialog of the current tab, if any (calls on that tab wait for an answer)."""
        for dialog in self.open_dialogs:
            if self._blocks(dialog):
                return dialog
        return None


def describe_dialog(dialog: Dialog) -> JsonObject:
    described: JsonObject = {"type": dialog.type, "message": clip(dialog.message, 2048)}
    if dialog.type == "prompt":
        described["defaultValue"] = dialog.default_value
    return described
