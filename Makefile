# tnav — the trace navigator.
#
#   make            build ./tnav (and the trace generator sample-logs/gen)
#   make run        install missing dependencies (as root), build, open a sample trace
#   make test       install missing dependencies (as root), build everything, run every test
#   make bench      load/throughput benchmark on generated traces (see doc/PERFORMANCE.md)
#   make install PREFIX=/usr/local
#   make asan       sanitizer build in build/asan/
#   make fuzz       libFuzzer targets in build/fuzz/ (clang)
#   make deps       install missing build dependencies (apt-get when root)

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=

BUILD_DEBS = gcc libc6-dev make pkg-config libncurses-dev libcsv-dev libpcre2-dev zlib1g-dev libzstd-dev libopen-trace-format2-dev
TEST_DEBS  = clang libclang-rt-14-dev valgrind tmux groff-base gzip zstd python3 otf2-tools python3-otf2 parallel ninja-build golang-go linux-perf

WARN    = -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
CSTD    = -std=c11 -D_GNU_SOURCE
OPT     ?= -O2 -g
NCURSES_CFLAGS = $(shell pkg-config --cflags ncursesw 2>/dev/null)
NCURSES_LIBS   = $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
CFLAGS_ALL = $(CSTD) $(OPT) $(WARN) -pthread -Isrc -I. $(CFLAGS)
# OTF2 input when pkg-config finds the library (libopen-trace-format2-dev,
# which make deps installs); without it tnav is built without OTF2 and says
# so (tnav --version). Evaluated when used, i.e. after make deps ran.
OTF2_LIBS = $(shell pkg-config --libs otf2 2>/dev/null)
OTF2_DEF  = $(if $(OTF2_LIBS),-DHAVE_OTF2 $(shell pkg-config --cflags otf2 2>/dev/null))
LIBS    = -lcsv -lpcre2-8 -lz -lzstd -lm -pthread $(OTF2_LIBS)

# the library: everything but main and the terminal (tui/screen.c is the
# only file that includes curses; the rest of tui/ is tested without it)
SRC_CORE = $(wildcard src/*.c src/*/*.c) $(wildcard filters/*.c) $(wildcard tui/*.c)
SRC_MAIN = src/main.c tui/screen.c
SRC_LIB  = $(filter-out $(SRC_MAIN),$(SRC_CORE))
HDRS     = $(wildcard src/*/*.h) $(wildcard filters/*.h) $(wildcard tui/*.h) filters/ops.def

OBJ_LIB  = $(SRC_LIB:%.c=build/rel/%.o)
OBJ_MAIN = $(SRC_MAIN:%.c=build/rel/%.o)
AOBJ_LIB = $(SRC_LIB:%.c=build/asan/%.o)
AOBJ_MAIN= $(SRC_MAIN:%.c=build/asan/%.o)

ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all deps test-deps run test bench install asan fuzz fuzz-build clean check-syntax

all: tnav sample-logs/gen

build/rel/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(OPT_EXTRA) -c $< -o $@

# the filter VM's block loops are written to be vectorised: -O3 does it
build/rel/filters/vm.o build/rel/filters/vm_load.o build/rel/filters/filter.o: OPT_EXTRA = -O3

build/asan/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -O1 $(ASAN_FLAGS) -c $< -o $@

build/libtnav.a: $(OBJ_LIB)
	@rm -f $@
	ar rcs $@ $^

build/libtnav-asan.a: $(AOBJ_LIB)
	@rm -f $@
	ar rcs $@ $^

build/rel/tui/screen.o build/asan/tui/screen.o: CFLAGS += $(NCURSES_CFLAGS)
build/rel/src/load/load_otf2.o build/asan/src/load/load_otf2.o build/rel/src/load/load_otf2_defs.o build/asan/src/load/load_otf2_defs.o: CFLAGS += $(OTF2_DEF)

tnav: $(OBJ_MAIN) build/libtnav.a
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(NCURSES_LIBS) $(LIBS)
	@if [ -n "$(OTF2_LIBS)" ]; then echo "tnav: OTF2 input built in ($(OTF2_LIBS))"; else echo "tnav: OTF2 input not built in: install libopen-trace-format2-dev (make deps) and make again"; fi

build/asan/tnav: $(AOBJ_MAIN) build/libtnav-asan.a
	$(CC) $(CFLAGS_ALL) -O1 $(ASAN_FLAGS) -o $@ $^ $(NCURSES_LIBS) $(LIBS)

asan: build/asan/tnav build/asan/unit build/asan/tui_unit

sample-logs/gen: sample-logs/gen.c
	$(CC) $(CSTD) -O2 $(WARN) -o $@ $< -lm

# ---- tests -------------------------------------------------------------

build/rel/unit: tests/unit.c build/libtnav.a $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests -o $@ tests/unit.c build/libtnav.a $(LIBS)

build/asan/unit: tests/unit.c build/libtnav-asan.a $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -O1 $(ASAN_FLAGS) -Itests -o $@ tests/unit.c build/libtnav-asan.a $(LIBS)

# the aggregation against a direct computation (tests/agg_check.c)
build/rel/agg_check: tests/agg_check.c tests/check.h build/libtnav.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests -o $@ tests/agg_check.c build/libtnav.a $(LIBS)

build/asan/agg_check: tests/agg_check.c tests/check.h build/libtnav-asan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -O1 $(ASAN_FLAGS) -Itests -o $@ tests/agg_check.c build/libtnav-asan.a $(LIBS)

# the interactive interface without a terminal
build/rel/tui_unit: tests/tui_unit.c tests/tui_unit_cmd.c tests/check.h tests/jsondom.c tests/jsondom.h build/libtnav.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests -o $@ tests/tui_unit.c tests/jsondom.c build/libtnav.a $(LIBS)

build/asan/tui_unit: tests/tui_unit.c tests/tui_unit_cmd.c tests/check.h tests/jsondom.c tests/jsondom.h build/libtnav-asan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -O1 $(ASAN_FLAGS) -Itests -o $@ tests/tui_unit.c tests/jsondom.c build/libtnav-asan.a $(LIBS)

# the filter VM against a reference evaluator on random filters and traces
build/rel/filter_diff: tests/filter_diff.c tests/strbuf.h build/libtnav.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ tests/filter_diff.c build/libtnav.a $(LIBS)

build/asan/filter_diff: tests/filter_diff.c tests/strbuf.h build/libtnav-asan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -O1 $(ASAN_FLAGS) -o $@ tests/filter_diff.c build/libtnav-asan.a $(LIBS)

build/rel/casetool: tests/casetool.c tests/jsondom.c tests/jsondom.h tests/strbuf.h src/base/util.c src/base/util.h src/base/pages.c src/base/pages.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(OPT) $(WARN) -Itests -Isrc -pthread -o $@ tests/casetool.c tests/jsondom.c src/base/util.c src/base/pages.c

# libFuzzer targets (clang); each links the core built with the fuzzer's
# instrumentation, from an archive: a target holds only the objects it
# calls (a loader's: base, load, store), so libFuzzer scans ~1/3 of the
# coverage counters after every run that linking the whole core gave it
FUZZ_CC    ?= clang
FUZZ_SAN   = address,undefined -fno-sanitize-recover=all
FUZZ_FLAGS = $(CSTD) -O2 -g -Isrc -I. -pthread
FUZZ_OBJ   = $(SRC_LIB:%.c=build/fuzz/obj/%.o)
FUZZ_TARGETS = build/fuzz/fuzz_csv build/fuzz/fuzz_ndjson build/fuzz/fuzz_chrome build/fuzz/fuzz_paraver build/fuzz/fuzz_filter

build/fuzz/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c $< -o $@

build/libtnav-fuzz.a: $(FUZZ_OBJ)
	@rm -f $@
	ar rcs $@ $^

build/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h build/libtnav-fuzz.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -Itests/fuzz -o $@ $< build/libtnav-fuzz.a $(LIBS)

fuzz-build: $(FUZZ_TARGETS)

# the long campaign: every fuzz target for FUZZ_SECONDS each, then fault
# injection at every allocation and write (make test runs a bounded smoke
# of both)
FUZZ_SECONDS ?= 300
fuzz: deps test-deps all asan fuzz-build
	sh tests/fuzz/smoke.sh $(FUZZ_SECONDS)
	python3 tests/fault_inject.py ./tnav --full --asan build/asan/tnav

test: deps test-deps all asan build/rel/unit build/rel/tui_unit build/rel/agg_check build/asan/agg_check build/rel/casetool build/rel/filter_diff build/asan/filter_diff fuzz-build
	@TNAV=./tnav TNAV_ASAN=build/asan/tnav sh tests/run.sh

build/rel/bench_libcsv: tests/bench_libcsv.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(OPT) $(WARN) -o $@ $< -lcsv

bench: deps all build/rel/bench_libcsv
	@sh tests/bench.sh

run: deps all
	./tnav sample-logs/ring.csv

install: tnav
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 tnav $(DESTDIR)$(PREFIX)/bin/tnav
	install -m 0644 doc/tnav.1 $(DESTDIR)$(PREFIX)/share/man/man1/tnav.1

clean:
	rm -rf build tnav sample-logs/gen

# ---- dependencies ------------------------------------------------------
# Installs what is missing with apt-get when run as root; otherwise prints
# the exact command to run.
define install_debs
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing packages:$$missing"; \
	    echo "run: sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call install_debs,$(BUILD_DEBS))

test-deps:
	$(call install_debs,$(TEST_DEBS))
