# Sourced by the tests of journals another kernel wrote and recovered
# (t0860 big-endian, t0861 i386), whose reference is a delta of sectors.

logoff_of() {
	"$XLS" info --json "$1" |
		sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p'
}
sum_of() { sha256sum "$1" | cut -d' ' -f1; }

# delta_reference NAME DELTA OUT: OUT, NAME.img patched with the sectors
# of $IMAGES/DELTA.xz: the other kernel's recovered copy outside the log
delta_reference() {
	cp --sparse=always "$(image "$1")" "$3" &&
	xz -dc "$IMAGES/$2.xz" >"$3.delta" &&
	perl "$XLS_TOP/tests/lib/applydelta.pl" "$3" "$3.delta" >"$3.patched" &&
	read -r runs secs <"$3.patched" && test "$runs" -gt 0 && test "$secs" -gt 0
}
