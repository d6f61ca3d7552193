# Bindery: `make run` starts the whole API locally; `make test` runs every test tier.
# Both create the virtualenv and install what they need on first use.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements-dev.txt layers/shared/requirements.txt layers/insights/requirements.txt | sha1sum | cut -c1-12)

.PHONY: run test test-moto test-dynamodb-local conformance mutation fuzz lint openapi check-openapi check-wheels clean

$(STAMP): requirements-dev.txt layers/shared/requirements.txt layers/insights/requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	rm -f $(VENV)/.installed-* && touch $@

run: $(STAMP)
	$(PY) -m local.server

test: test-moto test-dynamodb-local conformance fuzz

test-moto: $(STAMP)
	$(PY) -m pytest

test-dynamodb-local: $(STAMP)
	BINDERY_TEST_ENGINE=dynamodb-local $(PY) -m pytest -m "repository or concurrent"

conformance: $(STAMP)
	cd conformance && npm ci --silent --no-audit --no-fund && PYTHON=../$(PY) npm test

# Not part of `make test`: minutes per module (docs/testing.md). MUTATION_ARGS="pagination --max-children 2"
mutation: $(STAMP)
	$(PY) -m local.mutation $(MUTATION_ARGS)

# schemathesis against `make run`'s server (a throwaway one), both OpenAPI documents (docs/testing.md)
fuzz: $(STAMP)
	$(PY) -m tests.fuzz

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m local.self_contained
	$(VENV)/bin/mypy layers/shared/bindery functions local bench
	PYTHONPATH=layers/shared $(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/cfn-lint template.yaml

openapi: $(STAMP)
	$(PY) -m local.openapi --write

check-openapi: $(STAMP)
	$(PY) -m local.openapi --check

check-wheels: $(STAMP)
	$(PY) -m local.wheels

clean:
	rm -rf $(VENV) .bindery .aws-sam
