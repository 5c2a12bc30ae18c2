# The two commands in the README. Both set everything up first (scripts/setup.sh), into .venv.
.PHONY: generate test lint

PYTHON := .venv/bin/python

generate:
	./scripts/setup.sh
	$(PYTHON) -m generator

lint:
	$(PYTHON) -m ruff check generator tests benchmarks host
	$(PYTHON) -m ruff format --check generator tests benchmarks host
	$(PYTHON) -m mypy

test:
	./scripts/setup.sh --with-test-tools
	$(MAKE) lint
	$(PYTHON) -m pytest -n 2 --dist loadfile
