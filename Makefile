# Two commands set everything up on a fresh machine: `make up` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install up test test-instants bench clean browser schemas postgres

install: $(STAMP)

## headless browser for tests/api/test_docs_browser.py: Debian's chromium, installed only when missing
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

## PostgreSQL server binaries for tests/orchestration/test_dagster_postgres_instance.py (the Dagster
## production instance's storage): Debian's postgresql, installed only when missing
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; }

## the token-list JSON schema wallets load (npm @uniswap/token-lists), for tests/orchestration/test_v1_curation.py
TOKENLIST_VERSION := 1.0.0-beta.35
TOKENLIST_SCHEMA  := .cache/tokenlist-$(TOKENLIST_VERSION).schema.json
## the contract tools integrators use (npm), for tests/api/test_contract_tools.py: Redocly's CLI (its
## `recommended` ruleset over every contract), openapi-typescript and TypeScript (the generated types compile)
CONTRACT_TOOLS       := @redocly/cli@2.77.0 openapi-typescript@7.13.0 typescript@5.9.3
CONTRACT_TOOLS_STAMP := .cache/contract-tools/.installed
schemas: $(TOKENLIST_SCHEMA) $(CONTRACT_TOOLS_STAMP)

$(CONTRACT_TOOLS_STAMP): Makefile
	mkdir -p .cache/contract-tools
	cd .cache/contract-tools && npm install --silent --no-audit --no-fund $(CONTRACT_TOOLS) >/dev/null
	touch $@

$(TOKENLIST_SCHEMA):
	mkdir -p .cache/npm
	cd .cache/npm && npm pack --silent @uniswap/token-lists@$(TOKENLIST_VERSION) >/dev/null
	tar -xzf .cache/npm/uniswap-token-lists-$(TOKENLIST_VERSION).tgz -C .cache/npm package/src/tokenlist.schema.json
	mv .cache/npm/package/src/tokenlist.schema.json $@

$(STAMP): pyproject.toml devnet/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# the product, and the devnet (a distribution of its own) for the local stack and the tests
	$(PY) -m pip install --quiet -e '.[test,bench]' -e ./devnet
	touch $(STAMP)

## run warehouse, devnet, Dagster and the API on this machine, history backfilled
up: install
	$(PY) -m ve_analytics.cli.main up

## install and run the whole test suite (servers start on free ports and stop)
test: install browser schemas postgres
	$(PY) -m pytest -q

## the date-sensitive suites (tests/instants.py) at pinned instants: the most recent Thursday 00:05
## and 07:40, Wednesday 23:50 and last day of a month 23:50 UTC, and now (VEA_TEST_AT; tests/support/instant.py)
test-instants: install schemas postgres
	$(PY) tests/instants.py

## latency ratios and ingestion rates, printed with the dataset size; then the scale bench
## (5 chains x 1,000 pools: one 15-minute snapshot as a fraction of 15 minutes, backfill snapshots/s);
## then the flood (one API worker's peak memory against its bound under distinct large answers);
## then how long a chain's snapshot run takes to fail on a hung upstream
bench: install
	$(PY) -m bench.run
	@echo "== scale: 5 chains x 1,000 pools (bench/scale.py) =="
	$(PY) -m bench.scale
	@echo "== flood: one API worker, distinct large answers (bench/flood.py) =="
	$(PY) -m bench.flood
	@echo "== dead upstream: a hung chain's snapshot run until it fails (bench/dead_upstream.py) =="
	$(PY) -m bench.dead_upstream --cap 600

clean:
	rm -rf .data .pytest_cache
