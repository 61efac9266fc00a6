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

# sectors_within FILE RUN...: every sector of the "daddr 0xD+N" runs that
# tests/lib/imgcmp.pl printed into FILE is in one of the runs RUN (0xD+N):
# two images differ nowhere but where they are known to
sectors_within() {
	perl -e '
		my ($f, @known) = @ARGV;
		my %k;
		for (@known) { my ($d, $n) = /^0x([0-9a-f]+)\+(\d+)$/ or die "bad run $_\n"; $k{hex($d) + $_} = 1 for 0 .. $n - 1 }
		open(my $h, "<", $f) or die "$f: $!\n";
		my ($bad, $runs) = (0, 0);
		while (<$h>) {
			if (/^(\d+) runs? of sectors differ/ && $1 > $runs) {
				print "imgcmp.pl names $runs of the $1 runs that differ\n";
				$bad = 1;
			}
			next unless /^daddr 0x([0-9a-f]+)\+(\d+)$/;
			$runs++;
			for my $s (hex($1) .. hex($1) + $2 - 1) {
				next if $k{$s};
				printf "sector 0x%x differs, not among the known differences\n", $s;
				$bad = 1;
			}
		}
		exit $bad;' "$@"
}

# pass3_finished NAME WHAT: replay -o NAME.p3 of image NAME finishes its
# work here (pass 3's summary starting with WHAT), its checkpoints logged
# first, the log clean and OUT's state clean; the input untouched
pass3_finished() {
	img=$(image "$1") && before=$(sum_of "$img") &&
	"$XLS" replay -o "$1.p3" "$img" >"$1.p3.replay" &&
	grep -q "^Verdict: recovery succeeds$" "$1.p3.replay" &&
	grep -q "pass 3, as the kernel.s mount finishes recovery (xfsprogs. libxfs): $2" "$1.p3.replay" &&
	grep -q "logged first, as those checkpoints" "$1.p3.replay" &&
	grep -q "log clean, as an unmount leaves it" "$1.p3.replay" &&
	test "$(sum_of "$img")" = "$before" &&
	"$XLS" info "$1.p3" >"info.$1.p3" &&
	grep -q "^state  *clean$" "info.$1.p3"
}
