# The two commands of the README. Everything else is CMake.
BUILD ?= build
JOBS ?= $(shell nproc)
# ctest runs one test more than there are cores: most system tests are sessions of a fixed length
# that wait (for a display, a menu, a network delay), so a third one fills the cores' gaps. On two
# cores the suite took 635 s at -j 2 and 537 s at -j 3 (docs/environment.md); the tests that
# compare two timed sessions run alone whatever -j is (RUN_SERIAL, tests/schedule.cmake).
CTEST_JOBS ?= $(shell echo $$(( $(JOBS) + 1 )))
CMAKE_FLAGS ?=

# Ninja when present (scripts/setup.sh installs it): it keeps both cores busy across targets. A
# build folder configured earlier keeps the generator it was made with.
GENERATOR ?= $(if $(wildcard $(BUILD)/CMakeCache.txt),,$(if $(shell command -v ninja),-G Ninja))

.PHONY: setup setup-tests configure build demo test clean bench sanitize

setup:
	./scripts/setup.sh

# What only the tests need (scripts/setup.sh lists it): installed by `make test`, not `make demo`.
setup-tests:
	./scripts/setup.sh --tests

configure: setup
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null

# Everything: the programs, the tests, the benchmarks and the fuzz replays.
build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The demo builds only what it runs (the `programs` target: src/, no tests).
demo: configure
	cmake --build $(BUILD) -j $(JOBS) --target programs
	./scripts/demo.sh $(BUILD)

test: setup-tests build
	# sessions the tests run record into a results database of the build, not the user's
	cd $(BUILD) && XDG_DATA_HOME=$(abspath $(BUILD))/test-data ctest --output-on-failure -j $(CTEST_JOBS) --timeout 600

# Every test again under ASan and UBSan, warnings as errors (docs/fuzzing.md). An hour and more
# on two cores, so not part of `make test`; the libraries build as unity units to halve it.
# Undefined behaviour stops the process; leak checking is off (Mesa, Xlib and fontconfig end
# every process with allocations of their own).
SANITIZE_BUILD ?= build-asan
sanitize: setup-tests
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
	  -DPICTOR_SANITIZE=ON -DPICTOR_WERROR=ON -DPICTOR_SKIP_AREAS=ic -DPICTOR_BUILD_BENCH=OFF \
	  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 $(CMAKE_FLAGS) >/dev/null
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  XDG_DATA_HOME=$(abspath $(SANITIZE_BUILD))/test-data ctest --output-on-failure -j $(JOBS) --timeout 1200

bench: build
	./scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD)
