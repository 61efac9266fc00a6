# xfs_logscope top-level Makefile.  `make` installs missing build packages
# (as root), runs autoconf and configure when needed, then builds.

BUILD ?= build
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
SAN_CFLAGS ?=
EXTRA_CFLAGS ?=
XCFLAGS = -std=c11 $(WARN) $(SAN_CFLAGS) $(EXTRA_CFLAGS)

# One folder per stage of the pipeline (doc/layout.md); the commands in
# src/cmd link against the stages, archived in libxls.a with the tests.
SRC_ALL := $(wildcard src/*/*.c)
SRC_CMD := $(wildcard src/cmd/*.c)
SRC_LIB = $(filter-out $(SRC_CMD),$(SRC_ALL))
HDR_ALL := $(wildcard src/*/*.h)
OBJ_LIB = $(SRC_LIB:src/%.c=$(BUILD)/%.o)
OBJ_CMD := $(SRC_CMD:src/%.c=$(BUILD)/%.o)
# A unit test or test tool is one file (tests/unit/u-bitmap.c) or a folder
# of files (tests/unit/u-item/*.c); either makes one binary in
# $(BUILD)/tests/, named after the file or the folder.  The objects of the
# folders go to $(BUILD)/tests/obj/, where neither tests/run's
# $(BUILD)/tests/u-* nor check-layers' $(BUILD)/*/*.o sees them.
UNIT_SRC := $(wildcard tests/unit/u-*.c)
UNIT_DIR := $(patsubst %/,%,$(wildcard tests/unit/u-*/))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%) $(UNIT_DIR:tests/unit/%=$(BUILD)/tests/%)
TOOL_SRC := $(wildcard tests/tools/*.c)
TOOL_DIR := $(patsubst %/,%,$(wildcard tests/tools/*/))
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tests/%) $(TOOL_DIR:tests/tools/%=$(BUILD)/tests/%)
TEST_DIR := $(UNIT_DIR) $(TOOL_DIR)
TEST_BIN := $(addprefix $(BUILD)/tests/,$(notdir $(TEST_DIR)))
TEST_OBJ := $(patsubst tests/%.c,$(BUILD)/tests/obj/%.o,$(wildcard $(TEST_DIR:%=%/*.c)))
PROG := $(BUILD)/xfs_logscope

all: xfs_logscope

include config.mk

# xfsprogs' libxfs for pass 3 (src/pass3; doc/layout.md): configure's
# --with-xfsprogs tree, else Debian's source package, fetched and built
# once into build/libxfs -- whatever BUILD is: the sanitizer and analyzer
# builds link the same one.  Without it the tool builds without pass 3.
# Its writes are taken through xls_pass3_pwrite64, which stamps each block
# with the LSN the kernel's pass 3 would and stages it, and its reads
# through xls_pass3_pread64, which sees what was staged: the archive is
# linked renamed.
LIBXFS_DIR := build/libxfs
-include $(LIBXFS_DIR)/libxfs.mk

$(LIBXFS_DIR)/libxfs.mk: config.mk tools/libxfs-config
	@tools/libxfs-config $(XFSPROGS) $(LIBXFS_DIR)

# pass 3 is built for the libxfs there is, or for none
$(BUILD)/pass3/pass3.o: $(LIBXFS_DIR)/libxfs.mk
ifeq ($(LIBXFS_AVAILABLE),yes)
LIBXFS_ARCHIVE := $(LIBXFS_DIR)/libxfs-pass3.a
# every extent pass 3 frees is seen on its way, deferred work is finished
# after the roll the kernel makes (src/pass3/libxfs_pass3.c), and what is
# logged is followed as the kernel's checkpoints hold it (libxfs_ckpt.c)
LIBS += $(LIBXFS_ARCHIVE) $(LIBXFS_LIBS) -Wl,--wrap=__xfs_free_extent \
	-Wl,--wrap=xfs_defer_finish_noroll -Wl,--wrap=libxfs_defer_finish \
	-Wl,--wrap=xfs_buf_item_log -Wl,--wrap=libxfs_trans_binval \
	-Wl,--wrap=libxfs_trans_ordered_buf -Wl,--wrap=libxfs_iflush_int \
	-Wl,--wrap=xfs_defer_add -Wl,--wrap=libxfs_trans_log_inode \
	-Wl,--wrap=libxfs_trans_commit -Wl,--wrap=libxfs_trans_roll \
	-Wl,--wrap=libxfs_buf_get_map -Wl,--wrap=libxfs_buf_read_map
# the allocator with the kernel's busy extents and the defer code with
# its intents seen (tools/libxfs-busy, src/pass3/libxfs_busy.c and
# libxfs_ckpt.c) in place of xfsprogs' own
LIBXFS_BUSY_OBJS := $(addprefix $(LIBXFS_DIR)/busy/,xfs_alloc.o xfs_alloc_btree.o xfs_rmap_btree.o \
	xfs_defer.o)
$(LIBXFS_ARCHIVE): $(XFSPROGS_DIR)/libxfs/.libs/libxfs.a $(LIBXFS_DIR)/libxfs.mk Makefile \
		tools/libxfs-busy src/pass3/libxfs_priv_busy.h src/pass3/libxfs_trace_hooks.h \
		src/pass3/libxfs_hooks.h
	tools/libxfs-busy $(XFSPROGS_DIR) $(LIBXFS_DIR)/busy
	objcopy --redefine-sym pwrite64=xls_pass3_pwrite64 \
		--redefine-sym pread64=xls_pass3_pread64 $< $@.tmp
	ar rs $@.tmp $(LIBXFS_BUSY_OBJS)
	mv $@.tmp $@
$(BUILD)/pass3/libxfs_%.o: XCFLAGS = $(LIBXFS_CFLAGS) $(WARN) $(SAN_CFLAGS) $(EXTRA_CFLAGS)
$(BUILD)/pass3/libxfs_%.o: CPPFLAGS += $(LIBXFS_CPPFLAGS)
$(BUILD)/pass3/pass3.o: CPPFLAGS += -DXLS_HAVE_LIBXFS -DXLS_XFSPROGS_VERSION='"$(XFSPROGS_VERSION)"'
else
SRC_ALL := $(filter-out src/pass3/libxfs_%.c,$(SRC_ALL))
endif

config.mk: configure config.mk.in
	@tools/install-deps build
	./configure

configure: configure.ac
	@tools/install-deps build
	autoconf

xfs_logscope: $(PROG)
	ln -sf $(PROG) $@

$(PROG): $(OBJ_CMD) $(BUILD)/libxls.a
	$(CC) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -o $@ $(OBJ_CMD) $(BUILD)/libxls.a $(LIBS)

$(BUILD)/libxls.a: $(OBJ_LIB) | $(LIBXFS_ARCHIVE)
	rm -f $@
	$(AR) rcs $@ $(OBJ_LIB)

$(BUILD)/%.o: src/%.c config.mk
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc -DXLS_VERSION='"$(VERSION)"' $(CFLAGS) $(XCFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libxls.a
	@mkdir -p $(BUILD)/tests
	$(CC) $(CPPFLAGS) -Isrc -Itests/unit $(CFLAGS) $(XCFLAGS) -o $@ $< $(BUILD)/libxls.a $(LIBS)

$(BUILD)/tests/%: tests/tools/%.c $(BUILD)/libxls.a
	@mkdir -p $(BUILD)/tests
	$(CC) $(CPPFLAGS) -Isrc -Itests/unit $(CFLAGS) $(XCFLAGS) -o $@ $< $(BUILD)/libxls.a $(LIBS)

# A folder's binary: the objects of its files, each with its own .d.
$(BUILD)/tests/obj/%.o: tests/%.c config.mk
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc -Itests/unit $(CFLAGS) $(XCFLAGS) -MMD -MP -c -o $@ $<

$(foreach d,$(TEST_DIR),$(eval $(BUILD)/tests/$(notdir $(d)): \
	$(patsubst tests/%.c,$(BUILD)/tests/obj/%.o,$(wildcard $(d)/*.c))))

$(TEST_BIN): $(BUILD)/libxls.a
	$(CC) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(BUILD)/libxls.a $(LIBS)

-include $(OBJ_LIB:.o=.d) $(OBJ_CMD:.o=.d) $(TEST_OBJ:.o=.d)

# The fault injector the tests preload (tests/shim): no sanitizer, which
# would have to come first in the preload list.
SHIM := $(BUILD)/tests/faultshim.so
$(SHIM): tests/shim/faultshim.c
	@mkdir -p $(BUILD)/tests
	$(CC) -shared -fPIC -O2 -Wall -Wextra -o $@ $< -ldl

tests: $(PROG) $(UNIT_BIN) $(TOOL_BIN) $(SHIM)

check-deps:
	@tools/install-deps check

# The test suite: TAP from every test, run by prove, then one summary line.
check: check-deps tests
	@BUILD=$(BUILD) tests/run

# the kill tests (t0870) at 20 points a journal: the sanitizers look for
# memory errors, the 100 points are make check's
check-asan:
	XLS_KILLS=20 $(MAKE) check BUILD=build-asan \
		SAN_CFLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined'

# Static analysis, all of which must be silent (CI runs it): clang's
# analyzer over src/, cppcheck, a clang build that turns warnings (and
# conditionally uninitialised reads, which gcc misses) into errors, and the
# layering of the pipeline (tools/check-layers).  Never touches config.mk.
ANALYZE = $(BUILD)-analyze
CPPCHECK_FLAGS = --enable=warning,style,performance,portability --std=c11 \
	--error-exitcode=1 --inline-suppr -q -D__GNUC__ -D__x86_64__ -Isrc

analyze: check-deps
	@tools/install-deps analyze
	rm -rf $(ANALYZE)
	scan-build --status-bugs -o $(ANALYZE)/scan-build sh -c \
		'$(MAKE) --no-print-directory -s BUILD=$(ANALYZE)/sb CC="$$CC" $(ANALYZE)/sb/xfs_logscope'
	cppcheck $(CPPCHECK_FLAGS) src
	$(MAKE) --no-print-directory -s BUILD=$(ANALYZE)/clang CC=clang \
		EXTRA_CFLAGS='-Wconditional-uninitialized -Werror' $(ANALYZE)/clang/xfs_logscope tests
	tools/check-layers $(ANALYZE)/clang
	@echo "analyze: no report from scan-build, cppcheck, clang -Werror or check-layers"

demo:
	@tools/install-deps demo
	@$(MAKE) --no-print-directory all
	@tests/demo $(PROG)

bashcompdir = $(datarootdir)/bash-completion/completions

install: all
	install -D -m 755 $(PROG) $(DESTDIR)$(sbindir)/xfs_logscope
	install -D -m 644 man/xfs_logscope.8 $(DESTDIR)$(mandir)/man8/xfs_logscope.8
	install -D -m 644 completion/xfs_logscope $(DESTDIR)$(bashcompdir)/xfs_logscope

uninstall:
	rm -f $(DESTDIR)$(sbindir)/xfs_logscope $(DESTDIR)$(mandir)/man8/xfs_logscope.8 \
		$(DESTDIR)$(bashcompdir)/xfs_logscope

clean:
	rm -rf build build-asan build-fuzz build-analyze xfs_logscope

distclean: clean
	rm -rf config.mk config.log config.status configure autom4te.cache

# make fuzz, make fuzz-replay, and the seed generator the tests use.
include tests/fuzz/fuzz.mk

.PHONY: all tests check check-deps check-asan analyze demo install uninstall clean distclean
