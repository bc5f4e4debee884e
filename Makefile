# skuflow developer commands. `make demo` and `make test` are all a fresh machine needs.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PACKAGES := libs/contracts libs/catalog libs/platform libs/llm services/gateway services/evaluator services/parser \
            services/classifier services/extractor services/binder services/collab services/output cli
STAMP := $(VENV)/.installed
WORKBENCH := services/collab/workbench
WORKBENCH_BUILT := services/collab/src/skuflow_collab/static/workbench/index.html
CHROMIUM := /usr/bin/chromium
TESSDATA := /usr/share/tesseract-ocr/5/tessdata/ell.traineddata
PROMTOOL := /usr/bin/promtool
DEMO_PDF := .run/demo/catalog.pdf

.PHONY: setup infra-up infra-down up down status demo test test-fast bench fuzz chaos lint schemas clean

setup: $(STAMP) $(WORKBENCH_BUILT) $(CHROMIUM) $(TESSDATA) $(PROMTOOL) ## .venv with every package (editable) and dev tools, the workbench built, Chromium for its tests, Tesseract for Cyrillic, Persian, Korean, Thai, Vietnamese and Greek scans, promtool for the alert rules

$(STAMP): $(addsuffix /pyproject.toml,$(PACKAGES)) requirements-dev.txt constraints.txt
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt $(addprefix -e ,$(PACKAGES)) -r requirements-dev.txt
	@touch $@

# npm install, not npm ci: with this machine's npmrc (omit-lockfile-registry-resolved) npm ci refuses the
# lock file's optional platform packages of Rollup; install keeps to the lock file's versions all the same.
$(WORKBENCH_BUILT): $(WORKBENCH)/package-lock.json $(WORKBENCH)/index.html $(WORKBENCH)/ops.html $(WORKBENCH)/vite.config.ts \
                    $(wildcard $(WORKBENCH)/src/*) $(wildcard $(WORKBENCH)/src/ops/*)
	cd $(WORKBENCH) && npm install --no-audit --no-fund --loglevel=error && npm run build

$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-zenhei

# the parser reads Cyrillic, Persian, Korean, Thai, Vietnamese and Greek scans with Tesseract (skuflow_parser.backends.tesseract);
# DejaVu draws the Cyrillic, Vietnamese and Greek test pages (the Greek pack, installed last, stands for the set)
$(TESSDATA):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-osd \
		tesseract-ocr-rus tesseract-ocr-ukr tesseract-ocr-fas tesseract-ocr-kor tesseract-ocr-tha tesseract-ocr-vie tesseract-ocr-ell fonts-dejavu-core

# promtool checks and unit-tests the alert rules (tests/deploy/test_observability.py); Debian ships it
# in the prometheus package, whose server scripts/observe runs against the local services (the
# package's own system service is not used; --no-install-recommends leaves out the node exporter).
$(PROMTOOL):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus

infra-up: setup ## install (if missing) and start PostgreSQL and Kafka, create topics
	bash scripts/infra start

infra-down: down ## stop the services, Kafka and PostgreSQL
	bash scripts/infra stop

up: infra-up ## start the eight services as local processes (logs in .run/services/)
	$(VENV)/bin/skuflow-services up

down: ## stop the services
	@if [ -x $(VENV)/bin/skuflow-services ]; then $(VENV)/bin/skuflow-services down; fi

status:
	bash scripts/infra status || true
	$(VENV)/bin/skuflow-services status

demo: up ## run a generated catalog through the running services and print where the result is
	$(VENV)/bin/skuflow sample-catalog --out $(DEMO_PDF) --pages 8
	$(VENV)/bin/skuflow submit $(DEMO_PDF)

test: infra-up lint ## the linter, then every test: unit, contract, adapters on real Postgres/Kafka, end to end
	$(PY) -m pytest --durations=25  # the slowest tests named, for where a long CI run waited

test-fast: setup ## only the tests that need no Kafka or Postgres
	$(PY) -m pytest -m "not infra"

bench: infra-up ## performance figures: pages/s in-process, then through the services (started after those)
	$(PY) -m skuflow_cli.bench --gateway http://127.0.0.1:8000 --start-services

fuzz: setup ## >= 1,000 hostile and broken PDFs through the parser path: outcomes, crashes, peak RSS
	$(PY) -m tests.fuzz.run --mutations 1000

chaos: infra-up ## concurrent jobs while services, the broker and Postgres are killed and restarted
	$(PY) -m tests.chaos.run --jobs 50

lint: setup ## ruff over the whole repository (part of make test)
	$(VENV)/bin/ruff check .

schemas: setup ## export JSON schemas and the AsyncAPI document to schemas/
	$(PY) -m skuflow_contracts export-schemas --out schemas

clean: down
	rm -rf .run/services .run/demo .run/storage
