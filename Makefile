# The two commands in the README. Both set everything up first.
.PHONY: generate test lint

generate:
	./scripts/setup.sh
	python3 -m generator

lint:
	ruff check generator tests benchmarks
	ruff format --check generator tests benchmarks
	mypy

test:
	./scripts/setup.sh --with-test-tools
	$(MAKE) lint
	python3 -m pytest
