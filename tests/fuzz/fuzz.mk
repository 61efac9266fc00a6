# Fuzzing (libFuzzer) and the seed generator; included by the top-level
# Makefile after its own rules.  See tests/fuzz/README.
#
#   make fuzz                     both harnesses in turn, FUZZ_SECONDS each
#   make fuzz-log                 build build-fuzz/fuzz-log (the log, record,
#                                 op and item parsers), seed the corpus from
#                                 tests/images, fuzz for FUZZ_SECONDS
#   make fuzz-metadump            the same for build-fuzz/fuzz-metadump (the
#                                 metadump reader, plain and compressed)
#   make fuzz FUZZ_SECONDS=1800   longer
#   make fuzz-replay              run every saved crash and corpus input once
#
# The library is rebuilt with clang into build-fuzz/ with
# -fsanitize=fuzzer-no-link,address,undefined; the harness links with
# -fsanitize=fuzzer.  UBSan checks are built recoverable and run with
# halt_on_error=1, so every UBSan report is a crash to the fuzzer except
# those tests/fuzz/ubsan.supp lists: open bugs that already have a TODO
# regression input, which would otherwise stop every run at once.

FUZZ_BUILD	:= build-fuzz
FUZZ_CC		?= clang
FUZZ_CFLAGS	?= -g -O1
FUZZ_SAN	= -fsanitize=address,undefined -fno-omit-frame-pointer
FUZZ_SECONDS	?= 60
FUZZ_MAX_LEN	?= 1048576
# Extra libFuzzer flags, e.g. FUZZ_ARGS='-jobs=1 -workers=1' or '-seed=1'.
FUZZ_ARGS	?=
# pass 3's libxfs files left out: the fuzzed parsers never reach it
FUZZ_OBJ	:= $(patsubst src/%.c,$(FUZZ_BUILD)/%.o,$(filter-out src/pass3/libxfs_%.c,$(SRC_LIB)))
FUZZ_BIN	:= $(FUZZ_BUILD)/fuzz-log
FUZZ_MD_BIN	:= $(FUZZ_BUILD)/fuzz-metadump
SEEDGEN		:= $(BUILD)/tests/xls-seedgen

# The seed generator is a test tool: t0610 cuts its small logs with it.
# The harness is type-checked with every build of the tests, so that a
# change of an interface it calls cannot wait for the next fuzzing run.
tests: $(SEEDGEN) $(BUILD)/tests/fuzz-log.checked $(BUILD)/tests/fuzz-metadump.checked

$(BUILD)/tests/fuzz-%.checked: tests/fuzz/fuzz-%.c tests/fuzz/fuzz-memfd.h $(HDR_ALL) config.mk
	@mkdir -p $(BUILD)/tests
	$(CC) $(CPPFLAGS) -Isrc $(XCFLAGS) -Werror -fsyntax-only $<
	@touch $@

$(SEEDGEN): tests/fuzz/xls-seedgen.c $(BUILD)/libxls.a
	@mkdir -p $(BUILD)/tests
	$(CC) $(CPPFLAGS) -Isrc $(CFLAGS) $(XCFLAGS) -o $@ $< $(BUILD)/libxls.a $(LIBS)

$(FUZZ_BUILD)/%.o: src/%.c config.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) -Isrc -DXLS_VERSION='"$(VERSION)"' -std=c11 $(WARN) \
		$(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz-memfd.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(CPPFLAGS) -Isrc -std=c11 $(WARN) -Werror $(FUZZ_CFLAGS) $(FUZZ_SAN) \
		-fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LIBS)

-include $(FUZZ_OBJ:.o=.d)

$(FUZZ_BUILD)/seeds/.stamp: tests/fuzz/mkseeds.sh $(PROG) $(SEEDGEN) \
			    $(wildcard tests/images/*.img.xz)
	tests/fuzz/mkseeds.sh $(PROG) $(SEEDGEN) $(FUZZ_BUILD)
	@touch $@

$(FUZZ_BUILD)/seeds-md/.stamp: tests/fuzz/mkseeds-md.sh tests/lib/mkmd.pl $(PROG) $(SEEDGEN) \
			       tests/images/dir4k.img.xz tests/images/extlog.img.xz
	tests/fuzz/mkseeds-md.sh $(PROG) $(SEEDGEN) $(FUZZ_BUILD)
	@touch $@

FUZZ_ENV = UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$(CURDIR)/tests/fuzz/ubsan.supp

# FUZZ_RUN BINARY DICT: the libFuzzer command line of a harness
FUZZ_RUN = $(FUZZ_ENV) $(1) -max_len=$(FUZZ_MAX_LEN) -timeout=25 -rss_limit_mb=2048 \
	$(2) -artifact_prefix=$(FUZZ_BUILD)/artifacts/ -print_final_stats=1

fuzz-deps:
	@tools/install-deps fuzz

fuzz: fuzz-log fuzz-metadump

fuzz-log: fuzz-deps $(FUZZ_BIN) $(FUZZ_BUILD)/seeds/.stamp
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/artifacts
	$(call FUZZ_RUN,$(FUZZ_BIN),-dict=tests/fuzz/fuzz-log.dict) \
		-max_total_time=$(FUZZ_SECONDS) $(FUZZ_ARGS) \
		$(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/seeds tests/fuzz/crashes

# tests/fuzz/crashes-md holds the metadump reader's regressions (none yet)
fuzz-metadump: fuzz-deps $(FUZZ_MD_BIN) $(FUZZ_BUILD)/seeds-md/.stamp
	@mkdir -p $(FUZZ_BUILD)/corpus-md $(FUZZ_BUILD)/artifacts tests/fuzz/crashes-md
	$(call FUZZ_RUN,$(FUZZ_MD_BIN),-dict=tests/fuzz/fuzz-metadump.dict) \
		-max_total_time=$(FUZZ_SECONDS) $(FUZZ_ARGS) \
		$(FUZZ_BUILD)/corpus-md $(FUZZ_BUILD)/seeds-md tests/fuzz/crashes-md

# Every saved crash, seed and corpus input once, no mutation.
fuzz-replay: fuzz-deps $(FUZZ_BIN) $(FUZZ_MD_BIN) $(FUZZ_BUILD)/seeds/.stamp \
	     $(FUZZ_BUILD)/seeds-md/.stamp
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/corpus-md $(FUZZ_BUILD)/artifacts tests/fuzz/crashes-md
	$(call FUZZ_RUN,$(FUZZ_BIN),-dict=tests/fuzz/fuzz-log.dict) -runs=0 \
		$(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/seeds tests/fuzz/crashes
	$(call FUZZ_RUN,$(FUZZ_MD_BIN),-dict=tests/fuzz/fuzz-metadump.dict) -runs=0 \
		$(FUZZ_BUILD)/corpus-md $(FUZZ_BUILD)/seeds-md tests/fuzz/crashes-md

.PHONY: fuzz fuzz-log fuzz-metadump fuzz-deps fuzz-replay
