# The two commands in the README, and the fast lane of the second. All set everything up first
# (scripts/setup.sh), into .venv.
.PHONY: generate test check lint options-doc peer-suite-doc dist

PYTHON := .venv/bin/python

generate:
	./scripts/setup.sh
	$(PYTHON) -m generator

lint:
	$(PYTHON) -m ruff check generator tests benchmarks host scripts
	$(PYTHON) -m ruff format --check generator tests benchmarks host scripts
	$(PYTHON) -m mypy

# The generator's release, from HEAD (scripts/dist.py): its wheel and sdist in dist/, the same
# bytes on every build of one commit, and dist/playwright-tool-generator.requirements.txt pinning
# the wheel and every dependency by sha256 (docs/generator.md, "A pinned release"). The first
# build after a dependency change asks the package index for the dependencies' sha256 (pip).
dist:
	./scripts/setup.sh
	$(PYTHON) scripts/dist.py

# docs/options.md from the argument parsers (tests/test_docs.py fails while it is stale).
options-doc:
	$(PYTHON) scripts/options_doc.py

# docs/peer-suite.md from tests/peer_suite's ledger (tests/peer_suite/test_ledger.py fails while stale).
peer-suite-doc:
	$(PYTHON) scripts/peer_suite_doc.py

# Three workers on two cores: the tests wait as well as compute (for pages, servers, processes),
# and a third worker keeps both cores busy (2026-11-28, pytest in a clean clone: 890 s against 973 s with
# two, all passing). Tried twice before, when every browser test ran the full chromium (three
# times the CPU a page), three workers starved the executor's 50-concurrent-actions test past its
# 120 s deadline. Bytecode is written as for `check` below, so the hosts, executors and generators
# the tests start compile the generated package and the test modules once, not at every start.
test:
	./scripts/setup.sh --with-test-tools
	$(MAKE) lint
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/.venv/pycache \
		$(PYTHON) -m pytest -n 3 --dist loadfile

# The edit-test loop: lint, types and every test that starts no browser and no JVM (the lanes of
# tests/lanes.py; the rest is deselected, not skipped). The watch PLAYWRIGHT_TOOL_TEST_LANE turns
# on fails a selected test that starts one anyway. Bytecode is written (to .venv/pycache, not
# beside the sources) even where PYTHONDONTWRITEBYTECODE is set: pytest then rewrites the
# asserts of the 150 test modules once, not in every worker of every run.
check:
	./scripts/setup.sh --with-test-tools
	$(MAKE) lint
	PLAYWRIGHT_TOOL_TEST_LANE=check PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/.venv/pycache \
		$(PYTHON) -m pytest -n 2 --dist loadfile -m "not browser and not jvm"
