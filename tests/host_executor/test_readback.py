"""What an action reads back, without a browser: the title and excerpt as answered."""

from __future__ import annotations

from host.executor.readback import TITLE_CHARS, PageRead, limits, shown_excerpt, shown_title
from host.executor.redaction import REDACTED, Redactor

SECRET = "Tr0ub4dor&3-horse"


def test_the_page_is_asked_for_a_few_times_what_is_returned() -> None:
    assert limits(1000) == {"title": TITLE_CHARS * 4, "html": 4000}


def test_what_the_page_sent_is_read_leniently() -> None:
    assert PageRead.from_json({"title": "t", "html": "<p>x</p>"}) == PageRead("t", "<p>x</p>")
    assert PageRead.from_json({"title": None, "html": "<p>x</p>"}) == PageRead(None, "<p>x</p>")
    assert PageRead.from_json({"title": 3, "html": ["x"]}) == PageRead(None, None)
    assert PageRead.from_json("text") == PageRead(None, None)


def test_a_title_is_scrubbed_then_cut() -> None:
    redactor = Redactor([SECRET])
    assert shown_title(f"Hi {SECRET}!", redactor) == f"Hi {REDACTED}!"
    long = "x" * (TITLE_CHARS - 5) + SECRET
    shown = shown_title(long, redactor)
    assert len(shown) <= TITLE_CHARS + len(REDACTED)
    assert SECRET[:2] not in shown[TITLE_CHARS - 5 :].replace(REDACTED, "")


def test_a_title_the_page_cut_inside_a_secret_loses_the_secrets_start() -> None:
    redactor = Redactor([SECRET])
    # As the page sends it: cut at four times the size returned, inside the secret.
    sent = ("y" * (TITLE_CHARS * 4 - 6) + SECRET)[: TITLE_CHARS * 4]
    assert len(sent) == TITLE_CHARS * 4
    shown = shown_title(sent, redactor)
    assert len(shown) <= TITLE_CHARS
    assert SECRET[:6] not in shown


def test_an_excerpt_is_sanitised_scrubbed_and_labelled() -> None:
    redactor = Redactor([SECRET])
    excerpt = shown_excerpt(
        f"<body><p onclick=x()>pw {SECRET}</p><script>s()</script></body>",
        1000,
        "body",
        False,
        redactor,
    )
    assert excerpt["html"] == f"<body><p>pw {REDACTED}</p></body>"
    assert excerpt["selector"] == "body" and excerpt["fallback"] is False
    assert excerpt["truncated"] is False and excerpt["removed"] >= 2


def test_an_excerpt_the_page_cut_inside_a_secret_loses_the_secrets_start() -> None:
    redactor = Redactor([SECRET])
    limit = 100
    sent = ("<p>" + "z" * (limit * 4 - 10) + SECRET)[: limit * 4]
    excerpt = shown_excerpt(sent, limit, "#x", True, redactor)
    assert excerpt["truncated"] is True
    assert SECRET[:4] not in str(excerpt["html"])
