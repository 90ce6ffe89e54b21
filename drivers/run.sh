#!/bin/bash
# drivers/run.sh - run every scenario of the binaries in BINDIR, each in
# its own process, and print their JSON objects, one per line, on stdout.
#
#   drivers/run.sh BINDIR [SEED] [DRIVER...]
#
# A scenario that crashes, hangs (TIMEOUT seconds, default 120) or prints
# no JSON gets a line {"driver":..,"scenario":..,"ok":false,"error":..}.
# Exits 0 if every scenario was ok.  The per-driver binaries are used;
# "mixed" (cross-driver) scenarios come from BINDIR/all.
set -uo pipefail

[ $# -ge 1 ] || { echo "usage: $0 BINDIR [SEED] [DRIVER...]" >&2; exit 2; }
BINDIR=$1
SEED=${2:-1}
shift $(( $# >= 2 ? 2 : 1 ))
TIMEOUT=${TIMEOUT:-120}
failed=0

bin_for() {
	if [ -x "$BINDIR/$1" ]; then echo "$BINDIR/$1"; else echo "$BINDIR/all"; fi
}

drivers=${*:-$("$BINDIR/all" --list | cut -f1 | sort -u)}
for d in $drivers; do
	bin=$(bin_for "$d")
	for s in $("$bin" --list | awk -F'\t' -v d="$d" '$1 == d { print $2 }' | sort); do
		out=$(timeout "$TIMEOUT" "$bin" --driver "$d" --scenario "$s" --seed "$SEED" 2>/dev/null)
		rc=$?
		line=$(printf '%s\n' "$out" | grep '^{' | tail -n 1)
		if [ -z "$line" ]; then
			[ $rc -eq 124 ] && why="timeout after ${TIMEOUT}s" || why="exit $rc without a report"
			line="{\"driver\":\"$d\",\"scenario\":\"$s\",\"ok\":false,\"error\":\"$why\"}"
			failed=1
		elif [ $rc -ne 0 ]; then
			failed=1
		fi
		printf '%s\n' "$line"
	done
done
exit $failed
