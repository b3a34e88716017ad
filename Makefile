.PHONY: help build test lint bench

help: ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

build: ## build ./mas_refactored.sh and a mas symlink
	go build -o mas_refactored.sh . && ln -sf mas_refactored.sh mas

test: ## run every check (installs missing tools as root)
	scripts/test.sh

lint: ## gofmt, go vet and shellcheck only
	test -z "$$(gofmt -l .)" && go vet ./... && shellcheck scripts/*.sh .ci/run bats/*.bash bats/*.bats bats/stub-agent

bench: ## performance benchmarks
	scripts/bench.sh
