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

# Until the switch runs, the main job is the frame tool: write PFC and PAUSE frames,
# decode them with pfcswitch, and have tshark dissect the same file.
demo: build
	@mkdir -p $(OUT)
	./pfcswitch frame pfc --priorities 3,4 --quanta 65535 --count 3 --out $(OUT)/xoff.pcap
	./pfcswitch decode $(OUT)/xoff.pcap
	./pfcswitch frame pause --quanta 1000 --out $(OUT)/pause.pcap
	./pfcswitch decode --json $(OUT)/pause.pcap
	./pfcswitch frame roce --dscp 26 --qp 17 --psn 100 --payload 1024 --out $(OUT)/write.pcap
	./pfcswitch decode $(OUT)/write.pcap
	@echo "--- tshark's view of $(OUT)/xoff.pcap:"
	tshark -r $(OUT)/xoff.pcap -c 1 -V -O macc 2>/dev/null | sed -n '/MAC Control/,$$p'

bench: build
	./perf/run-jmh.sh

clean:
	$(MVN) -q clean
