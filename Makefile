# The workqueue driver-conversion sandbox.  `make help` lists the targets.

TOP		:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD		:= $(TOP)/build
STACK		?= workqueue

CC		?= cc
# kbuild's quiet output: "  CC      shim/io.o" a line, the whole command
# with V=1; paths are the checkout's, relative
V		?= 0
ifeq ($(V),1)
Q		:=
quiet		= @:
else
Q		:= @
quiet		= @printf '  %-7s %s\n' $(1) $(patsubst $(TOP)/%,%,$(2))
endif
OPT		?= -O2
# SAN: sanitizer flags, for compiling and linking alike (see `make sanitize`)
SAN		?=
CFLAGS		?= $(OPT) -g -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
		   -Wno-missing-field-initializers
CFLAGS		+= $(SAN)
# What kernel-style code needs: the shim's and the stacks' kernel headers.
KCFLAGS		:= -std=gnu11 -pthread -D_GNU_SOURCE \
		   -I$(TOP)/shim/include -I$(TOP)/workqueue/include
HOSTLIBS	:= -lurcu-common -lpthread
CRITERION	:= -lcriterion

SHIM_SRCS	:= $(wildcard $(TOP)/shim/*.c)
SHIM_OBJS	:= $(patsubst $(TOP)/shim/%.c,$(BUILD)/shim/%.o,$(SHIM_SRCS))
SHIM_HDRS	:= $(shell find $(TOP)/shim -name '*.h') \
		   $(wildcard $(TOP)/workqueue/include/linux/*.h)

LIBSHIM		:= $(BUILD)/libshim.a
LIB_WORKQUEUE	:= $(BUILD)/libworkqueue.a
LIB_TASKQUEUE	:= $(BUILD)/libtaskqueue.a
LIBS		:= $(LIBSHIM) $(LIB_WORKQUEUE) $(LIB_TASKQUEUE)

ifeq ($(STACK),taskqueue)
STACKLIB	:= $(LIB_TASKQUEUE)
else ifeq ($(STACK),workqueue)
STACKLIB	:= $(LIB_WORKQUEUE)
else
$(error STACK must be "workqueue" (the workqueue core) or "taskqueue" (keventd and the task queues), not "$(STACK)")
endif

# the drivers, from their manifest: legacy on the task queue, converted on
# the workqueue; each side's binaries are <driver> and all (every driver)
MANIFEST	:= $(TOP)/drivers/manifest
DRIVERS		:= $(shell awk -F'|' '!/^[ \t]*(\#|$$)/ { gsub(/[ \t]/, "", $$1); print $$1 }' $(MANIFEST))
manifest_field	= $(shell awk -F'|' '{ n = $$1; gsub(/[ \t]/, "", n) } n == "$(1)" { print $$$(2) }' $(MANIFEST))
DRIVER_BINS	:= $(foreach side,legacy converted,$(addprefix $(BUILD)/drivers/$(side)/,$(DRIVERS) all))
# the driver objects modpost checks: each driver compiled alone
MODULES		:= $(patsubst $(TOP)/drivers/%.c,$(BUILD)/modules/%.o,\
		   $(wildcard $(TOP)/drivers/legacy/*.c $(TOP)/drivers/converted/*.c))

.PHONY: all help deps lint cflags ldlibs check run-checks check-valgrind demo convert bench sanitize \
	clean explore drivers side-binaries scenario-binary src-binary soak mutate
.DEFAULT_GOAL := all

help:		## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | expand -t 24

all: $(LIBS)	## build the shim, both stacks (build/lib*.a) and the 2.4 network core

lint:		## shellcheck, flake8 and the kernel-style clang-format check (scripts/lint)
	@$(TOP)/scripts/deps shellcheck flake8 clang-format
	@$(TOP)/scripts/lint

deps:		## install what is missing (gcc, make, liburcu, Criterion, Coccinelle, afl++)
	@$(TOP)/scripts/deps

cflags: $(LIBS)	## print the compiler flags for your own kernel-style .c file
	@echo $(KCFLAGS)

# the whole stack library: its keventd or events queue must start even in a
# program that has not called it yet, as in a booted kernel
ldlibs: $(LIBS)	## print the linker flags (STACK=workqueue or STACK=taskqueue)
	@echo -Wl,--whole-archive $(STACKLIB) -Wl,--no-whole-archive $(LIBSHIM) $(HOSTLIBS)

$(BUILD)/shim/%.o: $(TOP)/shim/%.c $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -c -o $@ $<

$(LIBSHIM): $(SHIM_OBJS)
	@rm -f $@
	$(call quiet,AR,$@)
	$(Q)ar rcs $@ $^

$(BUILD)/workqueue/%.o: $(TOP)/workqueue/%.c $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -c -o $@ $<

$(LIB_WORKQUEUE): $(BUILD)/workqueue/workqueue.o
	@rm -f $@
	$(call quiet,AR,$@)
	$(Q)ar rcs $@ $^

$(LIB_TASKQUEUE): $(BUILD)/workqueue/context.o
	@rm -f $@
	$(call quiet,AR,$@)
	$(Q)ar rcs $@ $^

# drivers/net-core: sk_buff, the net device and the network's softirqs,
# kernel core written here for 2.4's network and ISDN drivers, on the
# 2.4 headers.  It queues no task and no work, so the one source serves
# both sides; each side's copy is compiled against that side's headers
# (2.4's sched.h brings in its tty.h), as 2.4's Makefile compiled it,
# without strict aliasing (an sk_buff_head is taken for an sk_buff)
NET_CORE_SRCS	:= $(wildcard $(TOP)/drivers/net-core/*.c)
NET_CORE_HDRS	:= $(shell find $(TOP)/drivers/net-core -name '*.h')
net_core_lib	= $(BUILD)/net-core/$(1)/libnetcore.a
NET_CORE_LIBS	:= $(call net_core_lib,legacy) $(call net_core_lib,converted)
net_core_flags	= -fno-strict-aliasing -I$(TOP)/drivers/net-core/include

# $(call net_core_rules,SIDE)
define net_core_rules
$(BUILD)/net-core/$(1)/%.o: $(TOP)/drivers/net-core/%.c $(NET_CORE_HDRS) \
		$$(shell find $(TOP)/shim/include-2.4 $(TOP)/drivers/tty-core/$(1)/include -name '*.h') \
		$(SHIM_HDRS)
	@mkdir -p $$(@D)
	$$(call quiet,CC,$$@)
	$$(Q)$$(CC) $$(CFLAGS) $$(call k24_flags,$(1)) $$(net_core_flags) -c -o $$@ $$<

$(call net_core_lib,$(1)): $(patsubst $(TOP)/drivers/net-core/%.c,$(BUILD)/net-core/$(1)/%.o,$(NET_CORE_SRCS))
	@rm -f $$@
	$$(call quiet,AR,$$@)
	$$(Q)ar rcs $$@ $$^
endef
$(foreach side,legacy converted,$(eval $(call net_core_rules,$(side))))
all: $(NET_CORE_LIBS)

# --- tests: one Criterion binary per directory of tests/ -----------------
TEST_DIRS	:= $(patsubst $(TOP)/tests/%/,%,$(dir $(wildcard $(TOP)/tests/*/*.c)))
TEST_DIRS	:= $(filter-out semantic-patches stress explore tsan,$(sort $(TEST_DIRS)))
TEST_BINS	:= $(patsubst %,$(BUILD)/tests/%,$(TEST_DIRS))

# tests/taskqueue runs on the task queue; everything else on the workqueue
test_stacklib	= $(if $(filter taskqueue,$(1)),$(LIB_TASKQUEUE),$(LIB_WORKQUEUE))
# tests/device: the generic device and the interrupt lines of the world
DEVICE_SRCS	:= $(addprefix $(TOP)/drivers/world/,device.c irq.c pci.c sancov.c user.c)
test_world	= $(if $(filter device,$(1)),-I$(TOP)/drivers/include $(DEVICE_SRCS))
# tests/search: the device search on a board of its own (below)
SEARCH_SRC	:= $(TOP)/tests/search/board
SEARCH_BOARD	:= $(BUILD)/tests/search/board


.SECONDEXPANSION:
$(BUILD)/tests/%: $$(wildcard $(TOP)/tests/%/*.c) $(TOP)/tests/child.c $(TOP)/drivers/runner/runner.c \
		$(wildcard $(TOP)/tests/*.h $(TOP)/tests/*/*.h) $(LIBS) $$(if $$(filter device,$$*),$(DEVICE_SRCS) \
		$(wildcard $(TOP)/drivers/include/world/*.h))
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -I$(TOP)/tests -I$(TOP)/drivers -DBUILD_DIR='"$(BUILD)"' \
		-DTOP_DIR='"$(TOP)"' -o $@ $(wildcard $(TOP)/tests/$*/*.c) $(TOP)/tests/child.c \
		$(if $(filter drivers,$*),$(TOP)/drivers/runner/runner.c) $(call test_world,$*) \
		$(if $(wildcard $(call test_stacklib,$*)),$(call test_stacklib,$*)) \
		$(LIBSHIM) $(CRITERION) $(HOSTLIBS)

# 2.4 code naming a member jiffies (->jiffies, .jiffies) gets jiffies as
# a plain variable (shim/include-2.4/linux/jiffies.h)
jiffies_plain	= $$(grep -qE '(->[[:space:]]*|\.)jiffies\b' $(1) && echo -DSHIM_JIFFIES_PLAIN)

# tests/kernel24: 2.4 code as a module build compiles it (kernel/*.c, on the
# 2.4 headers and the tty layer of the task queue) beside Criterion tests
# (*.c, on the C library's headers, which 2.4's types would clash with)
K24T_KERNEL	:= $(wildcard $(TOP)/tests/kernel24/kernel/*.c) \
		   $(wildcard $(TOP)/drivers/tty-core/legacy/*.c)
K24T_OBJS	:= $(patsubst %.c,$(BUILD)/tests/.kernel24/%.o,$(notdir $(K24T_KERNEL)))
K24T_HDRS	:= $(shell find $(TOP)/shim/include-2.4 $(TOP)/drivers/tty-core/legacy/include \
		     $(TOP)/tests/kernel24 -name '*.h') $(TOP)/drivers/include/world/pci.h
k24t_compile	= $(CC) $(CFLAGS) -D__KERNEL__ -DMODULE -I$(TOP)/tests/kernel24 \
		  -I$(TOP)/drivers/tty-core/legacy/include -I$(TOP)/shim/include-2.4 \
		  $(call jiffies_plain,$<) $(KCFLAGS) $(if $(SAN),,$(1)) -c -o $@ $<

$(BUILD)/tests/.kernel24/%.o: $(TOP)/tests/kernel24/kernel/%.c $(K24T_HDRS) $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(call k24t_compile,$(mmio_flags))

$(BUILD)/tests/.kernel24/%.o: $(TOP)/drivers/tty-core/legacy/%.c $(K24T_HDRS) $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(k24t_compile)

$(BUILD)/tests/kernel24: $(wildcard $(TOP)/tests/kernel24/*.c) $(TOP)/tests/child.c \
		$(K24T_OBJS) $(LIBS) $(TOP)/drivers/world/pci.c $(TOP)/drivers/world/irq.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(KCFLAGS) -I$(TOP)/tests -I$(TOP)/tests/kernel24 \
		-I$(TOP)/drivers/tty-core/legacy/include -I$(TOP)/drivers/include -o $@ \
		$(wildcard $(TOP)/tests/kernel24/*.c) $(TOP)/tests/child.c $(K24T_OBJS) \
		$(TOP)/drivers/world/pci.c $(TOP)/drivers/world/irq.c \
		-Wl,--whole-archive $(LIB_TASKQUEUE) -Wl,--no-whole-archive \
		$(LIBSHIM) $(CRITERION) $(HOSTLIBS)

# tests/net24: the network core (drivers/net-core) with 2.4 code of the
# tests' own (kernel/*.c, a network driver over no hardware) beside
# Criterion tests (*.c), on the task queue as the legacy side has it
N24T_KERNEL	:= $(wildcard $(TOP)/tests/net24/kernel/*.c)
N24T_OBJS	:= $(patsubst %.c,$(BUILD)/tests/.net24/%.o,$(notdir $(N24T_KERNEL)))

$(BUILD)/tests/.net24/%.o: $(TOP)/tests/net24/kernel/%.c $(K24T_HDRS) $(NET_CORE_HDRS) \
		$(wildcard $(TOP)/tests/net24/*.h) $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(call k24_flags,legacy) $(net_core_flags) -I$(TOP)/tests/net24 -c -o $@ $<

$(BUILD)/tests/net24: $(wildcard $(TOP)/tests/net24/*.c $(TOP)/tests/net24/*.h) $(TOP)/tests/child.c \
		$(N24T_OBJS) $(call net_core_lib,legacy) $(LIBS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -I$(TOP)/tests -I$(TOP)/tests/net24 \
		-I$(TOP)/drivers/net-core/include -o $@ \
		$(wildcard $(TOP)/tests/net24/*.c) $(TOP)/tests/child.c $(N24T_OBJS) \
		$(call net_core_lib,legacy) -Wl,--whole-archive $(LIB_TASKQUEUE) -Wl,--no-whole-archive \
		$(LIBSHIM) $(CRITERION) $(HOSTLIBS)

# stress programs: plain programs (ThreadSanitizer runs them), one per stack
STRESS_BINS	:= $(BUILD)/tests/stress/stress-workqueue $(BUILD)/tests/stress/stress-taskqueue
STRESS_DEPS	:= $(TOP)/tests/stress/stress.h $(LIBS)

$(BUILD)/tests/stress/stress-%: $(TOP)/tests/stress/stress-%.c $(STRESS_DEPS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -o $@ $< $(BUILD)/lib$*.a $(LIBSHIM) $(HOSTLIBS)

# what ThreadSanitizer is told orders: tests/tsan/run builds these with
# BUILD=$(TOP)/build/tsan SAN=-fsanitize=thread and reads their reports
$(BUILD)/tests/tsan/%: $(TOP)/tests/tsan/%.c $(LIBS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -o $@ $< $(LIB_TASKQUEUE) $(LIBSHIM) $(HOSTLIBS)

# the historical-bug suite: programs explored under controlled schedules
EXPLORE_BINS	:= $(addprefix $(BUILD)/tests/explore/,d6_flush-workqueue \
		   free_pending-workqueue init_pending-workqueue queue_order-workqueue \
		   keventd_waits-taskqueue shared_counter-taskqueue \
		   shared_counter-workqueue)

$(BUILD)/tests/explore/%-workqueue: $(TOP)/tests/explore/%.c $(LIBS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -o $@ $< $(LIB_WORKQUEUE) $(LIBSHIM) $(HOSTLIBS)

$(BUILD)/tests/explore/%-taskqueue: $(TOP)/tests/explore/%.c $(LIBS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -DTASKQUEUE -o $@ $< $(LIB_TASKQUEUE) $(LIBSHIM) $(HOSTLIBS)

CHECKS		= $(TEST_BINS) $(STRESS_BINS) $(TOP)/tests/fastpath/run \
		  $(TOP)/tests/faults/run $(TOP)/tests/drift/run \
		  $(TOP)/tests/demo/run "$(TOP)/tests/modpost/run $(MODULES)" \
		  $(TOP)/tests/semantic-patches/run $(TOP)/tests/harness/run \
		  $(TOP)/tests/explore/run $(TOP)/tests/replay/run $(TOP)/tests/sizes/run \
		  $(TOP)/tests/search/run $(TOP)/tests/afl/run $(TOP)/tests/tty24/run \
		  $(TOP)/tests/src/run $(TOP)/tests/gcc295/run $(TOP)/tests/reach/run \
		  $(TOP)/tests/tree/run $(TOP)/tests/family/run \
		  $(TOP)/tests/tsan/run $(TOP)/tests/docs/run

check: deps	## run every test; ends with "N passed, N failed"
	@$(MAKE) --no-print-directory run-checks

# what the checks run needs built (make sanitize runs the suites alone)
RUN_DEPS	= $(LIBS) $(TEST_BINS) $(STRESS_BINS) $(DRIVER_BINS) $(MODULES) \
		  $(EXPLORE_BINS) $(SEARCH_BOARD)

run-checks: $(RUN_DEPS)
	@TOP=$(TOP) STRESS_SECONDS=$${STRESS_SECONDS:-10} $(TOP)/scripts/run-checks $(CHECKS)

# a kthread leaves by pthread_exit() from deep in its frames, whose
# scopes ASan's use-after-scope keeps poisoned: its own sigaltstack() at
# the thread's end then reports them
ASAN		:= -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		   -fno-omit-frame-pointer -fno-sanitize-address-use-after-scope
TSAN		:= -fsanitize=thread

sanitize: deps	## the suites and stress programs under ASan+UBSan, the stress programs under TSan
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan SAN="$(ASAN)" \
		CHECKS='$$(TEST_BINS) $$(STRESS_BINS)' \
		RUN_DEPS='$$(LIBS) $$(TEST_BINS) $$(STRESS_BINS)' run-checks
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan SAN="$(TSAN)" \
		CHECKS='$$(STRESS_BINS)' RUN_DEPS='$$(LIBS) $$(STRESS_BINS)' run-checks

# --- drivers: scenario binaries --------------------------------------------
#
# A scenario binary is the runner (drivers/scenarios/main.c), a driver's
# sources from one side, the simulated world compiled against that side's
# headers, the driver's scenarios and any EXTRA_OBJS (the demo's monitor),
# on the side's stack.  Each binary lists its scenarios with --list.

SCENARIO_DIR	:= $(TOP)/drivers/scenarios
WORLD_SRCS	:= $(wildcard $(TOP)/drivers/world/*.c)
DRIVER_HDRS	:= $(shell find $(TOP)/drivers/include $(SCENARIO_DIR) -name '*.h')
# no sibling calls: a flush is named by where it was called from, which a
# tail call would hide (the demo's flush coverage)
driver_includes	= -I$(1)/include -I$(TOP)/drivers/include -I$(SCENARIO_DIR) \
		  -fno-optimize-sibling-calls

# $(call world_dir,SRCDIR): where the world against a side's headers is
# built: one place for every tree whose include/ reads the same (a
# mutation's copy of the converted tree, the demo's, make check's), so
# that each demo does not compile it again
# (each tree's hash taken once a make: a make reads its rules many times)
world_dir	= $(or $(world_dir_$(1)),$(eval world_dir_$(1) := $(BUILD)/world/$(firstword \
		    $(shell cat /dev/null $(sort $(wildcard $(1)/include/*/*.h)) | sha1sum | \
		    cut -c1-16)))$(world_dir_$(1)))

# $(call world_rules,WORLDDIR,SRCDIR): the world, against that side's
# headers; written whole under another name, then renamed, as two demos at
# once (make mutate) may build it together
define world_rules
ifeq ($$(filter $(1),$$(WORLD_DIRS)),)
WORLD_DIRS += $(1)
$(1)/%.o: $(TOP)/drivers/world/%.c $(DRIVER_HDRS) $(wildcard $(2)/include/*/*.h) $(SHIM_HDRS)
	@mkdir -p $$(@D)
	$$(call quiet,CC,$$@)
	$$(Q)$$(CC) $$(CFLAGS) $$(KCFLAGS) $(call driver_includes,$(2)) -c -o $$@.$$$$$$$$ $$< && \
		mv -f $$@.$$$$$$$$ $$@

$(1)/libworld.a: $(patsubst $(TOP)/drivers/world/%.c,$(1)/%.o,$(WORLD_SRCS))
	$$(call quiet,AR,$$@)
	$$(Q)rm -f $$@.$$$$$$$$ && ar rcs $$@.$$$$$$$$ $$^ && mv -f $$@.$$$$$$$$ $$@
endif
endef

# COVERAGE=1 (the demo): gcov counters in the driver's own sources (and
# the headers of its include/), updated atomically since kernel threads are
# host threads, at -O0 so that each line's count is its own and a call in
# an inlined function is counted where it is written
coverage_flags	= -O0 --coverage -fprofile-update=atomic -fprofile-filter-files='$(1)/'
# and __gcov_dump linked in, for a run the device search ends early to
# write its counters still (drivers/world/device.c)
GCOV_LIBS	:= -u __gcov_dump -lgcov
# SEARCH=1 (the device search, demo/device_search.py): the driver's own
# sources also tell the generic device what they compare its reads with
# (gcc's trace-cmp, drivers/world/sancov.c), for the search to learn the
# values a driver wants from its board
search_flags	= -fsanitize-coverage=trace-cmp -fsanitize-coverage=trace-pc
# AFL=1 with SEARCH=1: the search binary AFL++ runs (demo/afl_search.py).
# The driver's blocks feed AFL's edge map (world/sancov.c, SANCOV_AFL)
# and its comparisons afl-compiler-rt's hooks, which feed CmpLog and
# start the fork server: Debian's afl++ without its compiler wrappers
# (whose gcc plugin and clang this needs neither of); nothing but the
# driver is instrumented
AFL_RT		?= /usr/lib/afl/afl-compiler-rt.o
# a 2.4 driver's loads and stores by pointer, checked for device memory
# (shim/mmio.c): kernel-address instrumentation, its calls only
mmio_flags	= -fsanitize=kernel-address --param asan-globals=0 --param asan-stack=0 \
		  --param asan-instrumentation-with-call-threshold=0

# $(call driver_objects,OBJDIR,SRCDIR): a driver's sources, each compiled
# once per side (the driver's binary and "all" share them), apart from
# the runner and the scenarios, whose file names may be the same
define driver_objects
$(1)/%.o: $(2)/%.c $(DRIVER_HDRS) $(wildcard $(2)/include/*/*.h) $(SHIM_HDRS)
	@mkdir -p $$(@D)
	$$(call quiet,CC,$$@)
	$$(Q)$$(CC) $$(CFLAGS) $$(KCFLAGS) $(call driver_includes,$(2)) \
		$$(if $$(COVERAGE),$(call coverage_flags,$(2))) $$(if $$(SEARCH),$(search_flags)) \
		-c -o $$@ $$<
endef

# $(call scenario_binary,BINARY,STACK,SRCDIR,SOURCES,SCENARIO FILES,EXTRA OBJS,WORLD);
# the driver's objects are in .drv/ beside the binary.  Bound at load
# (-z now): a batch of schedules (SHIM_SCHED_BATCH) goes back to its
# checkpoint after each one, the lazy bindings made since with it, and
# would look every library call up again in each schedule.
drv_objs	= $(patsubst %.c,$(dir $(1)).drv/%.o,$(2))
define scenario_binary
$(1): $(SCENARIO_DIR)/main.c $(call drv_objs,$(1),$(4)) $(5) $(6) $(7) $(DRIVER_HDRS) \
		$(wildcard $(3)/include/*/*.h) $(LIBS)
	@mkdir -p $$(@D)
	$$(call quiet,LD,$$@)
	$$(Q)$$(CC) $$(CFLAGS) $$(KCFLAGS) $(call driver_includes,$(3)) -DSTACK_NAME='"$(2)"' \
		-o $$@ $(SCENARIO_DIR)/main.c $(call drv_objs,$(1),$(4)) $(5) $(6) $(7) \
		-Wl,--whole-archive $(BUILD)/lib$(2).a -Wl,--no-whole-archive $(LIBSHIM) $(HOSTLIBS) \
		-Wl,-z,now $$(if $$(COVERAGE),$(GCOV_LIBS))
endef

# $(call side_rules,OUTDIR,STACK,SRCDIR,EXTRA OBJS): every driver, and all
define side_rules
$(eval $(call world_rules,$(call world_dir,$(3)),$(3)))
$(eval $(call driver_objects,$(1)/.drv,$(3)))
$(foreach d,$(DRIVERS),$(eval $(call scenario_binary,$(1)/$(d),$(2),$(3),$(call manifest_field,$(d),2),$(addprefix $(SCENARIO_DIR)/,$(call manifest_field,$(d),3)),$(4),$(call world_dir,$(3))/libworld.a)))
$(eval $(call scenario_binary,$(1)/all,$(2),$(3),$(foreach d,$(DRIVERS),$(call manifest_field,$(d),2)),$(addprefix $(SCENARIO_DIR)/,$(foreach d,$(DRIVERS),$(call manifest_field,$(d),3)) mixed.c),$(4),$(call world_dir,$(3))/libworld.a))
endef

$(eval $(call side_rules,$(BUILD)/drivers/legacy,taskqueue,$(TOP)/drivers/legacy))
$(eval $(call side_rules,$(BUILD)/drivers/converted,workqueue,$(TOP)/drivers/converted))

# For the demo: make side-binaries SRCDIR=dir OUT=dir STACK=... [EXTRA_OBJS=...]
ifneq ($(OUT),)
$(eval $(call side_rules,$(abspath $(OUT)),$(STACK),$(abspath $(SRCDIR)),$(EXTRA_OBJS)))
side-binaries: $(addprefix $(abspath $(OUT))/,$(or $(BINARIES),$(DRIVERS) all))
endif

# A driver of one's own, which brings its own world if it needs one: make
# scenario-binary BINARY=file SRCDIR=dir SOURCES='a.c ...'
# SCENARIO_FILES='/abs/s.c ...' STACK=... [EXTRA_OBJS=...]
ifneq ($(BINARY),)
ifeq ($(SIDE),)
$(eval $(call driver_objects,$(dir $(abspath $(BINARY))).drv,$(abspath $(SRCDIR))))
$(eval $(call scenario_binary,$(abspath $(BINARY)),$(STACK),$(abspath $(SRCDIR)),$(SOURCES),$(SCENARIO_FILES),$(EXTRA_OBJS),))
scenario-binary: $(abspath $(BINARY))
endif
endif

# --- a 2.4 driver as it is: make src-binary ---------------------------------
#
#   make src-binary BINARY=/abs/out SIDE=legacy|converted SRCDIR=/abs/dir \
#        SOURCES='a.c b.c' NAME=name [KTREE=/abs/linux-2.4] [EXTRA_OBJS=...] \
#        [COVERAGE=1] [SEARCH=1 [AFL=1]] [SAN=...]
#
# The runner; the driver's SOURCES (relative to SRCDIR) on the 2.4 headers
# (shim/include-2.4) and the tty layer of that SIDE (drivers/tty-core/), as
# a module build has them (__KERNEL__, MODULE), their warnings not shown;
# that tty layer; the world's interrupt lines and generic device; the
# generic tty exerciser, its scenarios under --driver NAME (a C
# identifier); on the side's stack: legacy on the task queue, converted on
# the workqueue.  A driver inside a 2.4 tree, or a copy of one given
# KTREE=, also finds that tree's own headers: linux/cyclades.h, the PCI
# ids (scripts/kernel24-headers).  COVERAGE=1 and SEARCH=1 instrument the
# driver's own sources as for the other drivers; AFL=1 with SEARCH=1 is
# the program afl-fuzz runs (AFL_RT above).  `BINARY --params` lists
# the module's parameters.
k24_stack_legacy := taskqueue
k24_stack_converted := workqueue
# 2.4 code was built by gcc 2.95: a variable defined in a header that
# several of a driver's files include was one variable (a common symbol),
# which gcc 10 made an error at link (-fno-common), and a function
# defined "inline" alone was defined for the link too, as in gnu89 (C99
# made it an inline definition only: -fgnu89-inline); the rest of what 2.95
# took and gcc 12 refuses is rewritten in the demo's copy of the driver
# (demo/gcc295.py)
k24_gcc295 := -fcommon -fgnu89-inline
# $(call k24_flags,SIDE[,DRIVER DIR]): kernel code written for 2.4, as a
# module build compiled it, with the 2.4 headers first
k24_flags = -D__KERNEL__ -DMODULE $(if $(2),-I$(2)) \
	    -I$(TOP)/drivers/tty-core/$(1)/include -I$(TOP)/shim/include-2.4 $(KCFLAGS)

ifneq ($(SIDE),)
ifneq ($(BINARY),)
ifeq ($(filter legacy converted,$(SIDE)),)
$(error SIDE must be legacy (the task queue) or converted (the workqueue), not "$(SIDE)")
endif
ifeq ($(shell echo '$(NAME)' | grep -E '^[A-Za-z_][A-Za-z0-9_]*$$'),)
$(error NAME must be a C identifier (the runner's --driver), not "$(NAME)")
endif
K24_OUT		:= $(abspath $(BINARY))
K24_DIR		:= $(dir $(K24_OUT)).k24-$(notdir $(K24_OUT))
K24_SRC		:= $(abspath $(SRCDIR))
K24_CORE	:= $(TOP)/drivers/tty-core/$(SIDE)
K24_HDRS	:= $(shell find $(TOP)/shim/include-2.4 $(K24_CORE)/include -name '*.h') \
		   $(SHIM_HDRS)
K24_DRV		:= $(dir $(K24_OUT)).drv
# a family of modules (SRC_MODULES='core=a.c,b.c card=sub/c.c', in the order
# given): each module's objects linked into one (ld -r, as O_TARGET did),
# then scripts/modlink orders them by what each exports and uses, renames
# their entry points and writes family.c, the init_module() and
# cleanup_module() that load and unload them in order
comma		:= ,
k24_mod_name	= $(firstword $(subst =, ,$(1)))
k24_mod_srcs	= $(subst $(comma), ,$(word 2,$(subst =, ,$(1))))
K24_MODS	:= $(foreach m,$(SRC_MODULES),$(K24_DIR)/mod/$(call k24_mod_name,$(m)).o)
# what does not depend on the driver (the runner, the side's tty core, the
# world) is compiled once for every driver's binary, in $(BUILD)/k24/
K24_COMMON	:= $(BUILD)/k24
K24_OBJS	:= $(K24_COMMON)/$(SIDE)/main.o $(K24_DIR)/exercise.o \
		   $(if $(SRC_MODULES),$(K24_DIR)/family.o $(K24_MODS:.o=.mod.o),\
		     $(patsubst %.c,$(K24_DRV)/%.o,$(SOURCES))) \
		   $(patsubst $(K24_CORE)/%.c,$(K24_COMMON)/$(SIDE)/core/%.o,$(wildcard $(K24_CORE)/*.c)) \
		   $(patsubst $(TOP)/drivers/world/%.c,$(K24_COMMON)/world/%.o,\
		     $(filter-out $(if $(SEARCH),$(if $(AFL),%/sancov.c),%/sancov.c),$(DEVICE_SRCS))) \
		   $(if $(and $(SEARCH),$(AFL)),$(K24_COMMON)/world/sancov-afl.o $(AFL_RT))

# the tree's own headers, if the driver lies in one (or KTREE= names the
# tree a copy came from): -I of links to them, or nothing
$(K24_DIR)/tree.flags: $(K24_HDRS) $(TOP)/scripts/kernel24-headers FORCE
	@mkdir -p $(@D)
	@$(TOP)/scripts/kernel24-headers $(K24_SRC) $(K24_DIR)/tree $(KTREE) > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@

.PHONY: FORCE
FORCE:

# the driver's objects in .drv/ beside the binary, as the demo's coverage
# looks for them; their own headers as gcc found them (-MMD)
$(K24_DRV)/%.o: $(K24_SRC)/%.c $(K24_HDRS) $(K24_DIR)/tree.flags $(KCONFIG)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) -w -MMD -MP $(call k24_flags,$(SIDE),$(K24_SRC)) $(k24_gcc295) \
		$(if $(KCONFIG),-DSHIM_KCONFIG='"$(abspath $(KCONFIG))"') \
		$$(cat $(K24_DIR)/tree.flags) $(call jiffies_plain,$<) $(if $(SAN),,$(mmio_flags)) \
		$(if $(COVERAGE),$(call coverage_flags,$(K24_SRC))) \
		$(if $(SEARCH),$(search_flags)) -c -o $@ $<

-include $(patsubst %.c,$(K24_DRV)/%.d,$(SOURCES))

define k24_module
$(K24_DIR)/mod/$(1).o: $(patsubst %.c,$(K24_DRV)/%.o,$(2))
	@mkdir -p $$(@D)
	$(Q)$(LD) -r -d -o $$@ $$^
endef
$(foreach m,$(SRC_MODULES),$(eval $(call k24_module,$(call k24_mod_name,$(m)),$(call k24_mod_srcs,$(m)))))

$(K24_DIR)/family.c: $(K24_MODS) $(TOP)/scripts/modlink
	$(call quiet,MODLINK,$@)
	$(Q)$(TOP)/scripts/modlink -o $@ $(foreach m,$(SRC_MODULES),$(call k24_mod_name,$(m))=$(K24_DIR)/mod/$(call k24_mod_name,$(m)).o)

$(K24_MODS:.o=.mod.o): $(K24_DIR)/family.c ;

$(K24_DIR)/family.o: $(K24_DIR)/family.c $(K24_HDRS)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(call k24_flags,$(SIDE)) -c -o $@ $<

# the shared objects are written whole under another name, then renamed:
# two demos at once (make mutate, make demo TREE=) may build one together
$(K24_COMMON)/$(SIDE)/core/%.o: $(K24_CORE)/%.c $(K24_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(call k24_flags,$(SIDE)) -c -o $@.$$$$ $< && mv -f $@.$$$$ $@

$(K24_DIR)/exercise.o: $(TOP)/drivers/exercise/tty.c $(K24_HDRS) $(DRIVER_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(call k24_flags,$(SIDE)) -I$(TOP)/drivers/include \
		-I$(SCENARIO_DIR) -DEXERCISE_DRIVER=$(NAME) -c -o $@ $<

$(K24_COMMON)/world/%.o: $(TOP)/drivers/world/%.c $(DRIVER_HDRS) $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -I$(TOP)/drivers/include -c -o $@.$$$$ $< && mv -f $@.$$$$ $@

$(K24_COMMON)/world/sancov-afl.o: $(TOP)/drivers/world/sancov.c $(DRIVER_HDRS) $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -I$(TOP)/drivers/include -DSANCOV_AFL -c -o $@.$$$$ $< && \
		mv -f $@.$$$$ $@

$(K24_COMMON)/$(SIDE)/main.o: $(SCENARIO_DIR)/main.c $(SCENARIO_DIR)/scenario.h $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -I$(SCENARIO_DIR) \
		-DSTACK_NAME='"$(k24_stack_$(SIDE))"' -c -o $@.$$$$ $< && mv -f $@.$$$$ $@

# the network core (sk_buff, the net device) for a driver that uses it: an
# archive, of which the link takes only what the driver calls
$(K24_OUT): $(K24_OBJS) $(EXTRA_OBJS) $(LIBS) $(call net_core_lib,$(SIDE))
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) $(LDFLAGS) -o $@ $(K24_OBJS) $(EXTRA_OBJS) \
		$(call net_core_lib,$(SIDE)) -Wl,--whole-archive $(BUILD)/lib$(k24_stack_$(SIDE)).a -Wl,--no-whole-archive \
		$(LIBSHIM) $(HOSTLIBS) -Wl,-z,now $(if $(COVERAGE),$(GCOV_LIBS))
endif
endif

src-binary: $(K24_OUT)	## a 2.4 driver as it is, with the tty exerciser (BINARY= SIDE= SRCDIR= SOURCES= NAME=)
	@$(if $(and $(BINARY),$(SIDE),$(SRCDIR),$(SOURCES),$(NAME)),,\
		$(error give BINARY=/abs/out SIDE=legacy|converted SRCDIR=dir SOURCES='a.c ...' NAME=name))

drivers: $(DRIVER_BINS)	## build every driver's scenario binaries, both sides (build/drivers/)


# tests/search: a 2.4-style board of the tests' own and a tiny runner,
# built as the device search wants a driver (gcov counters and trace-cmp
# in the driver alone), on the task queue
$(BUILD)/tests/search/.drv/board.o: $(SEARCH_SRC)/board.c $(SEARCH_SRC)/board.h $(DRIVER_HDRS) \
		$(SHIM_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -I$(TOP)/drivers/include $(call coverage_flags,$(SEARCH_SRC)) \
		$(search_flags) -c -o $@ $<

$(SEARCH_BOARD): $(SEARCH_SRC)/runner.c $(BUILD)/tests/search/.drv/board.o $(DEVICE_SRCS) $(LIBS)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(KCFLAGS) -I$(TOP)/drivers/include -o $@ $(SEARCH_SRC)/runner.c \
		$(BUILD)/tests/search/.drv/board.o $(DEVICE_SRCS) \
		-Wl,--whole-archive $(LIB_TASKQUEUE) -Wl,--no-whole-archive $(LIBSHIM) $(HOSTLIBS) \
		$(GCOV_LIBS) -Wl,-z,now

$(BUILD)/modules/%.o: $(TOP)/drivers/%.c $(LIBS)
	@mkdir -p $(@D)
	@$(CC) $(CFLAGS) $(KCFLAGS) -I$(dir $<)include -I$(TOP)/drivers/include -c -o $@ $<

# tests/drivers runs the scenario binaries of both stacks
$(BUILD)/tests/drivers: $(DRIVER_BINS)

convert: deps	## regenerate drivers/converted from drivers/legacy (semantic patches, then drivers/design/), and the converted tty layer
	@$(TOP)/scripts/convert-drivers $(TOP)/drivers/converted
	@$(TOP)/scripts/convert-tty-core $(TOP)/drivers/tty-core/converted

DEMO_ARGS	= $(if $(QUICK),--quick) $(foreach d,$(DRIVER),--driver $(d)) \
		  $(foreach e,$(EXTRA),--extra $(abspath $(e))) \
		  $(if $(EXPLORE),--explore $(EXPLORE)) $(if $(RACE),--race $(RACE)) \
		  $(foreach p,$(PATCH),--patch $(abspath $(p))) \
		  $(foreach s,$(SRC),--src $(abspath $(s))) $(if $(filter 0,$(AFL)),--afl no) \
		  $(if $(CONFIG),--config '$(CONFIG)')

demo: deps $(LIBS)	## convert, run and compare both sides (DRIVER=, QUICK=1, EXTRA=dir, SRC=file.c or dirs, CONFIG=, TREE=linux-2.4, EXPLORE=N, PATCH=file)
	@$(if $(TREE),python3 $(TOP)/demo/tree.py $(abspath $(TREE)) $(if $(FULL),--full) \
		$(foreach s,$(ONLY),--only $(s)),python3 $(TOP)/demo/demo.py $(DEMO_ARGS))

mutate: deps $(LIBS)	## the mutation suite: each tests/mutations/*.patch must be caught by the demo (MUTATIONS=, JOBS=N)
	@MUTATIONS="$(MUTATIONS)" python3 $(TOP)/scripts/mutate -j $(or $(JOBS),$(shell nproc))

soak: deps $(LIBS)	## make demo 20 times under two busy loops (SOAK_RUNS=N); not part of check
	@$(TOP)/tests/soak/run

# memcheck re-executing a test under itself cannot work: those tests skip
VALGRIND_SUITES	:= $(filter %/shim %/workqueue %/taskqueue,$(TEST_BINS))

check-valgrind: deps $(LIBS) $(VALGRIND_SUITES)	## the shim and stack suites under valgrind's memcheck (slow: minutes)
	@TOP=$(TOP) SHIM_TEST_NO_CHILD=1 VALGRIND="valgrind -q --error-exitcode=99 --trace-children=yes" \
		$(TOP)/scripts/run-checks $(VALGRIND_SUITES)

EXPLORE_ARGS	= -n $(or $(N),100) $(if $(STRATEGY),--strategy $(STRATEGY)) \
		  $(if $(SEED),--seed $(SEED)) \
		  $(if $(SCENARIO),--scenario $(SCENARIO) $(if $(SIDE),--side $(SIDE)),-- $(PROG))

explore: $(LIBS) $(DRIVER_BINS)	## run PROG='prog args' or SCENARIO=driver/name under N controlled schedules (STRATEGY=pct|random)
	@$(if $(PROG)$(SCENARIO),,$(error give PROG='program args' or SCENARIO=driver/name))
	@$(TOP)/scripts/explore $(EXPLORE_ARGS)

# bench/schedules runs every scenario of the demo, from the binaries "all"
bench: $(BUILD)/drivers/legacy/all $(BUILD)/drivers/converted/all
bench: deps $(LIBS) $(BUILD)/drivers/legacy/tty $(BUILD)/drivers/converted/tty	## benchmarks: both stacks side by side (build/bench/report.md); QUICK=1 for a short run
	@QUICK=$(QUICK) $(TOP)/bench/run

# a build product named from the top (`make build/tests/shim`): the rules
# name it by its absolute path, $(BUILD)/...; without this make said
# "Nothing to be done" and rebuilt nothing
build/%: $(BUILD)/% ;

clean:		## remove build/
	rm -rf $(BUILD)
