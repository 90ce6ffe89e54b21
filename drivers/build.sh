#!/bin/bash
# drivers/build.sh - build the driver scenario binaries.
#
#   drivers/build.sh STACK SRCDIR OUTDIR [DRIVER...]
#
#   STACK   taskqueue (build/libtaskqueue.a) or workqueue (build/libworkqueue.a)
#   SRCDIR  the driver sources: drivers/legacy or drivers/converted
#           (its include/ holds the headers that are converted with it)
#   OUTDIR  where the binaries go: OUTDIR/<driver>, and OUTDIR/all (every
#           driver and the cross-driver scenarios in one binary)
#   DRIVER  which to build (default: all of them and "all")
#
# Each binary is the scenario runner (scenarios/main.c) linked with one
# driver's sources, the simulated world and its scenarios; run it with
# --list, or --driver D --scenario S [--seed N].  CC and CFLAGS may be set
# in the environment; STACK_NAME defaults to STACK.
set -euo pipefail

usage() {
	echo "usage: $0 taskqueue|workqueue SRCDIR OUTDIR [DRIVER...]" >&2
	exit 2
}
[ $# -ge 3 ] || usage
STACK=$1 SRCDIR=$2 OUTDIR=$3
shift 3
case $STACK in taskqueue|workqueue) ;; *) usage ;; esac

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
SRCDIR=$(cd "$SRCDIR" && pwd)
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers}
STACK_NAME=${STACK_NAME:-$STACK}
# more sources or objects linked into every binary (the demo's monitor)
EXTRA_OBJS=${EXTRA_OBJS:-}
KCFLAGS=$(make -s -C "$TOP" --no-print-directory cflags)
LDLIBS=$(make -s -C "$TOP" --no-print-directory ldlibs STACK="$STACK")

# the driver sources of each binary (relative to SRCDIR)
declare -A SOURCES=(
	[tty]="tty_io.c vt.c serial_8250.c"
	[random]="random.c"
	[floppy]="floppy.c"
	[aio]="aio.c"
	[reiserfs]="reiserfs_journal.c"
	[kmod]="kmod.c"
)
# the scenarios of each binary (in drivers/scenarios)
declare -A SCENARIOS=(
	[tty]="tty.c"
	[random]="random.c"
	[floppy]="floppy.c"
	[aio]="aio.c"
	[reiserfs]="reiserfs.c"
	[kmod]="kmod.c"
)
ALL_DRIVERS="tty random floppy aio reiserfs kmod"

INCLUDES="-I$SRCDIR/include -I$HERE/include -I$HERE/scenarios"

# the simulated world, as an archive: each binary takes what it uses
OBJDIR="$OUTDIR/.world"
rm -rf "$OBJDIR"
mkdir -p "$OBJDIR"
for f in "$HERE"/world/*.c; do
	# shellcheck disable=SC2086
	$CC $CFLAGS $KCFLAGS $INCLUDES -c -o "$OBJDIR/$(basename "${f%.c}").o" "$f"
done
ar rcs "$OBJDIR/libworld.a" "$OBJDIR"/*.o
WORLD="$OBJDIR/libworld.a"

build() {
	local name=$1 srcs=$2 scns=$3 files=() f
	for f in $srcs; do files+=("$SRCDIR/$f"); done
	for f in $scns; do files+=("$HERE/scenarios/$f"); done
	# shellcheck disable=SC2086
	$CC $CFLAGS $KCFLAGS $INCLUDES -DSTACK_NAME="\"$STACK_NAME\"" \
		-o "$OUTDIR/$name" "$HERE/scenarios/main.c" "${files[@]}" \
		$EXTRA_OBJS "$WORLD" $LDLIBS
	echo "built $OUTDIR/$name"
}

WANT=${*:-$ALL_DRIVERS all}
for d in $WANT; do
	if [ "$d" = all ]; then
		srcs="" scns="mixed.c"
		for a in $ALL_DRIVERS; do
			srcs="$srcs ${SOURCES[$a]}"
			scns="$scns ${SCENARIOS[$a]}"
		done
		build all "$srcs" "$scns"
	elif [ -n "${SOURCES[$d]+x}" ]; then
		build "$d" "${SOURCES[$d]}" "${SCENARIOS[$d]}"
	else
		echo "$0: no driver $d (have: $ALL_DRIVERS all)" >&2
		exit 2
	fi
done
