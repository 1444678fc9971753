# nsdyn: the two commands of the README, plus helpers.
#   make run    install missing packages, configure, build the nsdyn program, run the default example
#   make test   the same set-up, then build and run the whole test suite with ctest
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: deps configure build run test asan fuzz fuzz-deps clean install bench-deps format format-check

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# only what the default example needs: the nsdyn program (and the libraries it links)
run: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target nsdyn
	bash scripts/run-default-example.sh $(BUILD_DIR)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# Address + undefined-behaviour sanitizers over the whole suite.
asan:
	$(MAKE) test BUILD_DIR=build-asan BUILD_TYPE=Debug CMAKE_FLAGS=-DNSDYN_SANITIZE=ON

# libFuzzer targets of the readers (Tests/fuzz, doc/robustness.md): clang, ASan + UBSan,
# a separate build folder; each target runs FUZZ_SECONDS (FUZZ_TARGETS: a subset).
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= dat fclib xml checkpoint scene_checkpoint
FUZZ_RUN ?= 1
# -O1 with line tables: what libFuzzer advises, and about a fifth less compile time than -O3 -g
FUZZ_FLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -gline-tables-only
FUZZ_OPT = -O1 -DNDEBUG
fuzz: deps fuzz-deps
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=Release \
	  -DNSDYN_FUZZ=ON -DNSDYN_BUILD_TESTS=OFF -DNSDYN_OPENMP=ON \
	  "-DCMAKE_C_FLAGS=$(FUZZ_FLAGS)" "-DCMAKE_CXX_FLAGS=$(FUZZ_FLAGS)" \
	  "-DCMAKE_C_FLAGS_RELEASE=$(FUZZ_OPT)" "-DCMAKE_CXX_FLAGS_RELEASE=$(FUZZ_OPT)"
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	if [ "$(FUZZ_RUN)" != 0 ]; then bash Tests/fuzz/run-fuzzers.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS); fi

# the C/C++ files against .clang-format: format-check (CI) lists the files that differ.
format:
	bash scripts/format.sh

format-check:
	bash scripts/format.sh --check

install: build
	cmake --install $(BUILD_DIR) $(if $(PREFIX),--prefix $(PREFIX),)

clean:
	rm -rf $(BUILD_DIR)

# Peer engines for Benchmarks/race (Bullet, ODE, MuJoCo, Siconos 4.4 from Python; gnuplot for its
# plots): Debian/Ubuntu packages, installed only if missing.
bench-deps:
	@missing=""; for p in libbullet-dev libode-dev libmujoco-dev python3-siconos siconos-mechanics-tools gnuplot-nox; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else echo "bench-deps: libbullet-dev, libode-dev, libmujoco-dev, python3-siconos, siconos-mechanics-tools and gnuplot-nox already installed"; fi

# clang and its libFuzzer runtime for `make fuzz` (Debian 12 packages), only if missing.
fuzz-deps:
	@missing=""; for p in clang libclang-rt-14-dev libomp-dev; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else echo "fuzz-deps: clang, libclang-rt-14-dev and libomp-dev already installed"; fi
