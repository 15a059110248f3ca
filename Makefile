# The two commands a newcomer needs (README):
#   make demo   installs what is missing, builds, and runs the main job
#   make test   installs what is missing, builds, and runs the whole test suite
# Both are idempotent. JAVA_HOME is found, never assumed: scripts/find-jdk.sh.

SHELL := /bin/bash
JAVA_HOME := $(shell scripts/find-jdk.sh)
export JAVA_HOME
MVN := mvn -B -ntp
OUT ?= target/demo

.PHONY: deps jdk build test demo bench clean

jdk:
	@test -n "$(JAVA_HOME)" || { scripts/find-jdk.sh; exit 1; }
	@echo "using JDK $(JAVA_HOME)"

deps:
	@scripts/ensure-deps.sh

build: deps jdk
	$(MVN) -q -DskipTests install

test: deps jdk
	$(MVN) install

# Until the DPDK switch is the main job, the demo is the SPFC paper's victim-flow case in
# virtual time under DT, SPFC and DSH (table on stdout, CSV and PNG figures in $(OUT)).
demo: build
	./pfcswitch sim -c testbed-configs/scenarios/spfc-victim.yaml --scheme dt,spfc,dsh --out $(OUT)

bench: build
	./perf/run-jmh.sh

clean:
	$(MVN) -q clean
