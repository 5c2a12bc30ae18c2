"""The executor's pure parts, without a browser: payloads, URL policy, PII, redaction, excerpt,
drift ranking, log lines, and the command line's refusals."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import subprocess

import pytest

from host.executor import stacks
from host.executor.drift import ElementInfo, hints, rank, similarity, words
from host.executor.errors import ExecutorError
from host.executor.excerpt import sanitise
from host.executor.logs import JsonFormatter, event
from host.executor.payload import PayloadError, parse_action
from host.executor.pii import SelectorPrivacy
from host.executor.portguard import chromium_guard
from host.executor.redaction import REDACTED, Redactor, SecretRegistry
from host.executor.runner import _until_committed
from host.executor.settings import ExecutorSettings
from host.executor.urlpolicy import UrlPolicy, origin_of
from host_executor.helpers import PYTHON, REPO

SETTINGS = ExecutorSettings()


def parse(payload: object) -> object:
    return parse_action(json.dumps(payload).encode(), SETTINGS)


def test_a_full_payload_parses_into_frozen_values() -> None:
    action = parse(
        {
            "url": "https://shop.example/login",
            "fields": [
                {"selector": "#user", "value": "ada"},
                {"selector": "#pw", "value": "s3cret", "redact": True},
            ],
            "submit": {"selector": "form", "kind": "submit", "wait_after_ms": 250},
            "snapshot_selector": "#result",
            "timeout_ms": 10_000,
        }
    )
    assert action.secrets == ["s3cret"]  # type: ignore[attr-defined]
    assert action.submit.kind == "submit" and action.submit.wait_after_ms == 250  # type: ignore[attr-defined]
    assert parse({"url": "http://a.test/"}).submit is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        (
            {"url": "http://a.test/", "fields": [{"selector": "#a", "value": "x" * 40_000}]},
            "fields[0].value",
        ),
        (
            {"url": "http://a.test/", "fields": [{"selector": "#a" * 600, "value": ""}]},
            "fields[0].selector",
        ),
        ({"url": "http://a.test/", "fields": [{"selector": "#a", "value": "v"}] * 65}, "fields"),
        (
            {"url": "http://a.test/", "fields": [{"selector": "#a\u0000", "value": "v"}]},
            "fields[0].selector",
        ),
        ({"url": "http://a.test/", "fields": ["#a"]}, "fields[0]"),
        ({"url": "http://a.test/", "timeout_ms": 10}, "timeout_ms"),
        ({"url": "http://a.test/", "timeout_ms": 1.5}, "timeout_ms"),
        ({"url": "http://a.test/", "submit": "#go"}, "submit"),
        (
            {"url": "http://a.test/", "submit": {"selector": "#s", "wait_after_ms": 10**9}},
            "submit.wait_after_ms",
        ),
    ],
)
def test_limits_and_types_name_the_field(payload: object, path: str) -> None:
    with pytest.raises(PayloadError) as caught:
        parse(payload)
    assert caught.value.path == path
    assert caught.value.status == 400


def test_errors_never_quote_a_value() -> None:
    with pytest.raises(PayloadError) as caught:
        parse(
            {
                "url": "http://a.test/",
                "fields": [{"selector": "#a", "value": 7, "redact": "hunter2"}],
            }
        )
    assert "hunter2" not in caught.value.message and "7" not in caught.value.message
    with pytest.raises(ExecutorError) as too_big:
        parse_action(b" " * (SETTINGS.max_body_bytes + 1), SETTINGS)
    assert too_big.value.code == "payload_too_large"


def test_the_url_policy() -> None:
    open_policy = UrlPolicy()
    assert open_policy.check("https://shop.example/a?b=c") == "https://shop.example/a?b=c"
    for bad in ("file:///etc/passwd", "JAVASCRIPT:alert(1)", "data:,x", "http:/x", "https://"):
        with pytest.raises(ExecutorError) as caught:
            open_policy.check(bad)
        assert caught.value.code == "url_refused" and caught.value.path == "url"
        assert bad not in caught.value.message
    policy = UrlPolicy(["https://Shop.Example:443", "http://127.0.0.1:8080"])
    assert policy.check("https://shop.example/x")
    assert policy.check("http://127.0.0.1:8080/")
    for elsewhere in (
        "https://shop.example:8443/",
        "http://shop.example/",
        "http://127.0.0.1:8081/",
    ):
        with pytest.raises(ExecutorError):
            policy.check(elsewhere)
    assert policy.allows("https://SHOP.example/path") and not policy.allows("https://evil.example/")
    assert origin_of("http://[::1]:80/x") == "http://[::1]"
    with pytest.raises(ValueError):
        UrlPolicy(["shop.example"])


def test_pii_is_hashed_with_a_key_and_consistently() -> None:
    privacy = SelectorPrivacy(b"k" * 32)
    cleaned = privacy.clean('[name="Jane.Doe@Example.com"] >> #acct-1234 5678 9012, #f12, nth=3')
    assert "Jane" not in cleaned and "1234" not in cleaned and "9012" not in cleaned
    assert cleaned.startswith('[name="{email:') and "#acct-{digits:" in cleaned
    assert "#f12" in cleaned and "nth=3" in cleaned  # short numbers are not PII
    assert privacy.clean("#jane.doe@example.com") == privacy.clean("#JANE.DOE@example.com")
    assert SelectorPrivacy(b"x" * 32).clean("#12345678") != privacy.clean("#12345678")
    assert not privacy.has_pii(cleaned)


def test_the_redactor_catches_every_encoding() -> None:
    secret = 'p@ss w"rd&<1>'
    redactor = Redactor([secret, ""])
    text = (
        f"raw {secret} | url pw=p%40ss+w%22rd%26%3C1%3E | path p%40ss%20w%22rd%26%3C1%3E"
        f" | html p@ss w&quot;rd&amp;&lt;1&gt; | json {json.dumps(secret)}"
    )
    cleaned = redactor.scrub(text)
    assert cleaned.count(REDACTED) == 5, cleaned
    assert "ss w" not in cleaned
    nested = redactor.scrub_json({"a": [secret, {secret: 1}], "n": 2})
    assert nested == {"a": [REDACTED, {REDACTED: 1}], "n": 2}
    assert Redactor().scrub(secret) == secret


def test_the_redactor_catches_collapsed_whitespace_and_a_secret_cut_short() -> None:
    secret = "pass  word\t9"
    redactor = Redactor([secret])
    # HTML text and document titles fold whitespace runs into one space.
    for shown in ("pass word 9", "pass\nword  9", "<b>pass word 9</b>"):
        cleaned = redactor.scrub(shown)
        assert REDACTED in cleaned and "word" not in cleaned, cleaned
    # A cut that falls inside the secret leaves its start: that is removed too, in every form.
    for start in ("pass  wo", "pass%20%20w", "pa"):
        cut = f"<p>title {start}"
        assert redactor.scrub_cut(cut) == f"<p>title {REDACTED}", start
    assert redactor.scrub_cut("<p>title p") == "<p>title p"  # one character says nothing
    assert redactor.scrub_cut("no secret here") == "no secret here"


def test_log_lines_are_json_and_scrubbed_of_active_secrets() -> None:
    registry = SecretRegistry(linger=60)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter(registry))
    logger = logging.getLogger("host.executor")
    logger.addHandler(handler)
    previous = logger.level
    logger.setLevel(logging.INFO)
    try:
        with registry.holding(Redactor(["s3cret-value"])):
            event("executor_web.retry", attempt=1, candidates_left=["#s3cret-value"])
            logging.getLogger("host.executor").warning("plain s3cret-value\nsecond line")
            try:
                raise RuntimeError("failed with s3cret-value")
            except RuntimeError as error:
                logger.error("boom", exc_info=error)
        # Retired secrets linger: a late line about the action is scrubbed too.
        logger.info("late s3cret-value")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4
    parsed = [json.loads(line) for line in lines]
    assert parsed[0]["event"] == "executor_web.retry" and parsed[0]["attempt"] == 1
    assert parsed[0]["candidates_left"] == ["#REDACTED"]
    assert "Traceback" not in stream.getvalue() and "s3cret" not in stream.getvalue()
    assert parsed[2]["error"] == "RuntimeError: failed with REDACTED"


def test_the_excerpt_sanitiser() -> None:
    raw = (
        '<div onclick="x()" style="a"><script>s()</script><style>p{}</style><noscript>n</noscript>'
        '<template><p>t</p></template><p>keep &amp; <b>this</b></p><input value="v" name="n">'
        '<textarea>typed</textarea><a href=" javascript:x">j</a><a href="data:text/html,x">d</a>'
        '<img src="/i.png" onerror="y()"><iframe srcdoc="<p>x</p>"></iframe><!-- comment --></div>'
    )
    excerpt = sanitise(raw, 10_000)
    assert excerpt.html == (
        '<div><p>keep &amp; <b>this</b></p><input name="n"><textarea></textarea><a>j</a><a>d</a>'
        '<img src="/i.png"></div>'
    )
    assert excerpt.removed == 12 and not excerpt.truncated
    cut = sanitise("<p>" + "word " * 1000 + "</p>", 100)
    assert cut.truncated and len(cut.html) <= 100


@pytest.mark.parametrize(
    "markup",
    [
        '<a href="java\tscript:alert(1)">x</a>',
        '<a href="java\nscript:alert(1)">x</a>',
        '<a href="\x01javascript:alert(1)">x</a>',
        '<a href=" \x00 JaVaScRiPt:alert(1)">x</a>',
        '<a href="&#106;avascript:alert(1)">x</a>',
        '<a href="jav&#x09;ascript:alert(1)">x</a>',
        '<a href="vbscript:msgbox(1)">x</a>',
        '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>',
        '<svg><animate attributeName="href" to="javascript:alert(1)"/><a href="#">x</a></svg>',
        '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
        '<meta http-equiv="refresh" content="0;javascript:alert(1)">',
        '<base href="javascript:alert(1)//">',
        '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>',
        '<img srcset="javascript:alert(1) 1x" src="javascript:alert(1)">',
        '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
        '<iframe src="javascript:alert(1)"></iframe>',
        '<div style="background:url(javascript:alert(1))" onclick="x()">x</div>',
        '<x-widget href="javascript:alert(1)" onload="x()">x</x-widget>',
        '<a href="javascript&colon;alert(1)">x</a>',
    ],
)
def test_no_script_bearing_url_survives_the_sanitiser(markup: str) -> None:
    cleaned = sanitise(markup, 10_000).html
    for word in ("script", "alert", "onclick", "onload", "refresh", "style", "srcset", "data:"):
        assert word not in cleaned.lower(), cleaned


def test_the_sanitiser_keeps_pages_readable() -> None:
    cleaned = sanitise(
        '<main><h1 id=t aria-label="Title">Hi</h1><a href="/next?a=1&amp;b=2" rel=next>next</a>'
        '<a href="mailto:a@example.org">mail</a><a href="https://example.org/x">out</a>'
        "<custom-card><span data-testid=c>card</span></custom-card></main>",
        10_000,
    ).html
    assert cleaned == (
        '<main><h1 id="t" aria-label="Title">Hi</h1><a href="/next?a=1&amp;b=2" rel="next">'
        'next</a><a href="mailto:a@example.org">mail</a><a href="https://example.org/x">out</a>'
        '<span data-testid="c">card</span></main>'
    )


def test_drift_words_similarity_and_ranking() -> None:
    assert words("userEmail-input2") == ("user", "email", "input", "2")
    assert hints('input[name="userEmail"]') == ["userEmail"]
    assert hints("#pw.big") == ["pw", "big"]
    assert hints('internal:label="E-mail"i') == ["E-mail"]
    assert similarity("user_name", "userName") == 1.0
    assert similarity("email", "email-input") > 0.8
    assert similarity("first-name", "last_name") < 0.6
    assert similarity("login-email", "login-password") < 0.6
    elements = [
        ElementInfo("input", name="email_confirm"),
        ElementInfo("input", name="password"),
        ElementInfo("input", id="e-mail"),
        ElementInfo("input", label="Your email"),
        ElementInfo("input", testid="first name"),
    ]
    ranked = rank("#email", elements, limit=5)
    assert [c.selector for c in ranked] == [
        "#e-mail",
        'input[name="email_confirm"]',
        'internal:label="Your email"s',
    ]
    assert (
        rank("#email", elements, exclude=frozenset({"#e-mail"}))[0].selector
        == 'input[name="email_confirm"]'
    )
    assert rank("#zzz", elements) == []


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [PYTHON, "-m", "host", "executor", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        check=False,
    )


def test_the_command_line_refuses_unsafe_settings_before_starting() -> None:
    off_loopback = run_cli(env={"WEB_EXECUTOR_BIND_ADDR": "0.0.0.0:0", "WEB_EXECUTOR_TOKEN": ""})
    assert off_loopback.returncode == 2
    assert "needs a bearer token" in off_loopback.stderr
    bad_origin = run_cli("--allow-url-origin", "shop.example")
    assert bad_origin.returncode == 2 and "not an http(s) origin" in bad_origin.stderr
    bad_engine = run_cli(env={"WEB_EXECUTOR_ENGINES": "chromium,netscape"})
    assert bad_engine.returncode == 2 and "netscape" in bad_engine.stderr
    unknown_user = run_cli("--user", "no-such-user-here", "--bind", "127.0.0.1:0")
    assert unknown_user.returncode == 2 and "no user named" in unknown_user.stderr


@pytest.mark.parametrize(
    "spelling",
    [
        "a%7Eb%E9%26%2320013%3Bc",  # WHATWG form encoding on a windows-1252 page
        "a%7eb%c3%a9%e4%b8%adc",  # UTF-8, lower-case hex
        "a~b&#233;&#x4E2D;c",  # numeric character references
        "a%7Eb%C3%A9&#20013;c",  # mixed, as a page echoing half-decoded input shows it
        "a%257Eb%25C3%25A9%25E4%25B8%25ADc",  # encoded twice (a redirect's query in a query)
    ],
)
def test_the_redactor_catches_every_spelling_a_browser_makes(spelling: str) -> None:
    redactor = Redactor(["a~bé中c"])
    assert redactor.scrub(f"<p>{spelling}</p>") == f"<p>{REDACTED}</p>", spelling


def test_the_registry_holds_a_bounded_number_of_finished_actions() -> None:
    registry = SecretRegistry(linger=3600, limit=64)
    redactors = [Redactor([f"secret-{n:04d}"]) for n in range(1000)]
    for redactor in redactors:
        with registry.holding(redactor):
            pass
    # Past requests beyond the limit cost nothing: a group that lost most of its members is
    # rebuilt without them, and one pass per group scrubs a line.
    groups = registry.groups()
    held = [r for group in groups for r in group]
    assert set(redactors[-64:]) <= set(held) and len(held) <= 2 * 64
    assert len(groups) <= 2 * 7, [len(g) for g in groups]
    assert registry.scrub("secret-0999 secret-0936") == f"{REDACTED} {REDACTED}"
    assert registry.scrub("secret-0001 secret-0500") == "secret-0001 secret-0500"


def test_chromium_refuses_the_services_ports_itself_except_80_and_443() -> None:
    args, routed = chromium_guard((8091, 0, 443, 8091), ("--no-sandbox",))
    assert args == ("--no-sandbox", "--host-rules=MAP *:8091 ~NOTFOUND")
    assert routed == (443,)
    assert chromium_guard((), ("--no-sandbox",)) == (("--no-sandbox",), ())
    own = ("--host-rules=MAP example.org 127.0.0.1",)
    assert chromium_guard((8091,), own) == (own, (8091,))  # never replaced: the host guards
    settings = ExecutorSettings(guarded_ports=(9000, 80))
    chromium = settings.host_config("chromium")
    assert chromium.guarded_ports == (80,)
    assert chromium.browser_args[-1] == "--host-rules=MAP *:9000 ~NOTFOUND"
    firefox = settings.host_config("firefox")
    assert firefox.guarded_ports == (9000, 80) and firefox.browser_args == ()


# -- a submit's settle ends when its navigation commits ------------------------------------------


def test_a_settle_ends_as_soon_as_the_navigation_commits() -> None:
    async def body() -> tuple[bool, bool]:
        committed = asyncio.Event()
        ran_to_its_end = False

        async def settle() -> None:  # a settle that would wait its whole limit
            nonlocal ran_to_its_end
            await asyncio.sleep(3600)
            ran_to_its_end = True

        asyncio.get_running_loop().call_soon(committed.set)
        await asyncio.wait_for(_until_committed(settle(), committed), timeout=60)
        return ran_to_its_end, committed.is_set()

    assert asyncio.run(body()) == (False, True)


def test_a_settle_that_ends_first_is_waited_for_and_its_error_raised() -> None:
    async def finishes() -> str:
        done: list[str] = []

        async def settle() -> None:
            done.append("settled")

        await _until_committed(settle(), asyncio.Event())  # never committed
        return done[0]

    async def fails() -> None:
        async def settle() -> None:
            raise RuntimeError("the page went away")

        await _until_committed(settle(), asyncio.Event())

    assert asyncio.run(finishes()) == "settled"
    with pytest.raises(RuntimeError, match="the page went away"):
        asyncio.run(fails())


def test_the_services_tasks_carry_a_fixed_stack_for_playwright() -> None:
    async def check() -> None:
        loop = asyncio.get_running_loop()
        stacks.install(loop)
        try:
            task = asyncio.ensure_future(asyncio.sleep(0))
            await task
            # Playwright takes a task's own stack when it has one that is truthy.
            assert getattr(task, "__pw_stack_trace__", None) is stacks.STACK and stacks.STACK
            assert "web executor" in "".join(stacks.STACK.format())
        finally:
            loop.set_task_factory(None)

        def other(loop: asyncio.AbstractEventLoop, coro: object, **options: object) -> object:
            return asyncio.Task(coro, loop=loop, **options)  # type: ignore[arg-type]

        loop.set_task_factory(other)  # type: ignore[arg-type]
        stacks.install(loop)
        assert loop.get_task_factory() is other  # someone else's factory is left alone
        loop.set_task_factory(None)

    asyncio.run(check())
