# The two commands in the README. Both set everything up first.
.PHONY: generate test lint

generate:
	./scripts/setup.sh
	python3 -m generator

lint:
	ruff check generator tests
	ruff format --check generator tests
	mypy

test:
	./scripts/setup.sh --with-test-tools
	$(MAKE) lint
	python3 -m pytest
