.PHONY: help build install uninstall test lint bench

# Where install puts mas: PREFIX=~/.local needs no root. DESTDIR stages it.
PREFIX ?= /usr/local
# The binary install puts in place: by default the one build makes.
BIN ?= mas_refactored.sh

help: ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

build: ## build ./mas_refactored.sh and a mas symlink
	CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o mas_refactored.sh . && ln -sf mas_refactored.sh mas

install: ## build, then install mas, mas_refactored.sh, mas(1) and the completions under PREFIX (default /usr/local)
	@if [ "$(BIN)" = mas_refactored.sh ]; then $(MAKE) --no-print-directory build; fi
	scripts/install.sh "$(BIN)" "$(DESTDIR)$(PREFIX)"

uninstall: ## remove what install put under PREFIX
	scripts/install.sh -u "$(BIN)" "$(DESTDIR)$(PREFIX)"

test: ## run every check (installs missing tools as root)
	scripts/test.sh

lint: ## gofmt, go vet and shellcheck only
	test -z "$$(gofmt -l .)" && go vet ./... && shellcheck scripts/*.sh .ci/run bats/*.bash bats/*.bats bats/stub-agent

bench: ## performance benchmarks
	scripts/bench.sh
