# The two commands of the README: `make demo` and `make test`. Both install what is missing first.
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?=

.PHONY: all deps configure build demo python-install test test-cpp test-python conformance bench tsan fuzz byteflip format clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The Python package into .venv too, so that the README's Python quick start works right after.
demo: build python-install
	$(BUILD)/tfscope demo

python-install: deps
	.venv/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation .

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	BUILD=$(BUILD) scripts/test-python.sh

bench: build
	@mkdir -p $(BUILD)/bench
	@for b in $(BUILD)/bench/bm_*; do \
	  [ -x "$$b" ] || continue; \
	  echo "== $$b"; \
	  "$$b" --benchmark_format=json --benchmark_out=$$b.json --benchmark_out_format=json || exit 1; \
	done
	@if [ -x bench/python_vs_tf.sh ]; then bench/python_vs_tf.sh $(BUILD)/bench/python_vs_tf.json; fi

tsan: deps
	cmake -S . -B $(BUILD)-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFSCOPE_TSAN=ON \
	  -DTFSCOPE_BUILD_BENCH=OFF -DTFSCOPE_BUILD_CLI=OFF
	cmake --build $(BUILD)-tsan -j $(JOBS) --target function_tests core_tests
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir $(BUILD)-tsan --output-on-failure -R '^(function\.|core\.ThreadPool)'

fuzz: deps
	CXX=clang++ cmake -S . -B $(BUILD)-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFSCOPE_FUZZ=ON \
	  -DTFSCOPE_BUILD_TESTS=OFF -DTFSCOPE_BUILD_BENCH=OFF -DTFSCOPE_BUILD_CLI=OFF \
	  -DPython_EXECUTABLE=$(CURDIR)/.venv/bin/python
	cmake --build $(BUILD)-fuzz -j $(JOBS)
	@for f in $(BUILD)-fuzz/fuzz/fuzz_*; do \
	  [ -x "$$f" ] || continue; mkdir -p fuzz-corpus/$$(basename $$f); \
	  echo "== $$f for $${FUZZ_SECONDS:-60}s"; \
	  seeds=fuzz/seeds/$$(basename $$f); [ -d "$$seeds" ] || seeds=; \
	  "$$f" -max_total_time=$${FUZZ_SECONDS:-60} -timeout=60 -rss_limit_mb=4096 \
	    fuzz-corpus/$$(basename $$f) $$seeds || exit 1; \
	done

# Damaged model files (FLIPS single-byte flips per file, TF- and tfscope-written .tflite,
# saved_model.pb and variables.index) through the command and the Python API: 0 crashes, 0 hangs,
# one-line errors. `ctest -R cli.byte_flip` runs a short version.
FLIPS ?= 1000
byteflip: build python-install
	python3 tests/cli/byte_flip.py --tfscope $(BUILD)/tfscope --python .venv/bin/python --flips $(FLIPS)

format:
	clang-format -i $$(git ls-files '*.h' '*.cc' '*.cpp')

clean:
	rm -rf $(BUILD) $(BUILD)-tsan $(BUILD)-fuzz
