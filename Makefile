# The two commands a newcomer needs (README):
#   make demo   installs what is missing, builds, and runs the main job
#   make test   installs what is missing, builds, and runs the whole test suite
# Both are idempotent. JAVA_HOME is found, never assumed: scripts/find-jdk.sh.

SHELL := /bin/bash
JAVA_HOME := $(shell scripts/find-jdk.sh)
export JAVA_HOME
MVN := mvn -B -ntp
OUT ?= target/demo

.PHONY: deps jdk build test demo demo-sim bench clean

jdk:
	@test -n "$(JAVA_HOME)" || { scripts/find-jdk.sh; exit 1; }
	@echo "using JDK $(JAVA_HOME)"

deps:
	@scripts/ensure-deps.sh

build: deps jdk
	$(MVN) -q -DskipTests install

test: deps jdk
	$(MVN) install
	scripts/launcher-smoke.sh

# The live switch: the emulated 9-port lab (4 hosts in network namespaces + 5 clone ports) runs
# the SPFC victim pattern on the DPDK switch under DT and SPFC, with a status line per second,
# then the same scenario in virtual time; one table puts live and sim side by side. Needs root.
demo: build
	./pfcswitch lab -c testbed-configs/emulated-9port.yaml --scenario testbed-configs/scenarios/emulated-9port.yaml --scheme dt,spfc

# The SPFC paper's victim-flow case in virtual time only (table, CSV and PNG figures in $(OUT)).
demo-sim: build
	./pfcswitch sim -c testbed-configs/scenarios/spfc-victim.yaml --scheme dt,spfc,dsh --out $(OUT)

bench: build
	./perf/run-jmh.sh

clean:
	$(MVN) -q clean
