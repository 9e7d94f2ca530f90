#!/bin/sh
# fuzz/campaign.sh DIR SECONDS OUT: a long fuzzing run of every target at once.
#
# DIR holds the libFuzzer binaries (fuzz_*, as `ninja fuzz` builds them with
# --sanitize), the shared libraries they need (LD_LIBRARY_PATH=DIR), and
# DIR/seeds/TARGET and DIR/corpus/TARGET (fuzz/run.py writes both under
# build/fuzz). Each target runs as one libFuzzer worker for SECONDS, all at
# once, on a machine with a core per target (the device machine has 16).
# Writes OUT/TARGET.log (libFuzzer's output and final stats) and any crash
# artifact under OUT/artifacts/TARGET/; the grown corpora stay in DIR/corpus.
# Exit 1 when some target failed. The count printed per target is of
# sanitizer reports, crashes and timeouts in its log (libFuzzer's own
# dictionary lines, which may quote words like ERROR, do not count). Used by hand for issue 9's 30-minute runs:
#   sh fuzz/campaign.sh /tmp/fz 540 $OUT/fuzz
set -u
DIR=$1 SECS=$2 OUT=$3
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
pids=
for exe in "$DIR"/fuzz_*; do
	t=$(basename "$exe")
	mkdir -p "$DIR/corpus/$t" "$DIR/seeds/$t" "$OUT/artifacts/$t"
	"$exe" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="$OUT/artifacts/$t/" -print_final_stats=1 \
		"$DIR/corpus/$t" "$DIR/seeds/$t" > "$OUT/$t.log" 2>&1 &
	pids="$pids $!"
done
rc=0
for p in $pids; do wait "$p" || rc=1; done
for exe in "$DIR"/fuzz_*; do
	t=$(basename "$exe")
	printf '%-12s %s executions, exit lines: %s\n' "$t" \
		"$(grep -h '^stat::number_of_executed_units' "$OUT/$t.log" | cut -d: -f4 | tr -d ' ')" \
		"$(grep -c -E '^==[0-9]+==ERROR|^SUMMARY: |deadly signal|ALARM: working on the last Unit' "$OUT/$t.log")"
done
exit $rc
