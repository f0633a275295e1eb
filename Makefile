# The two commands of the README. Everything else is CMake.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: setup setup-tests build demo test clean bench

setup:
	./scripts/setup.sh

# What only the tests need (scripts/setup.sh lists it): installed by `make test`, not `make demo`.
setup-tests:
	./scripts/setup.sh --tests

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	./scripts/demo.sh $(BUILD)

test: setup-tests build
	# sessions the tests run record into a results database of the build, not the user's
	cd $(BUILD) && XDG_DATA_HOME=$(abspath $(BUILD))/test-data ctest --output-on-failure -j $(JOBS) --timeout 600

bench: build
	./scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD)
