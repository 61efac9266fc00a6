# Batches of deterministic mutations, for t0610 (bare logs) and t0932
# (metadumps).  Sourced after test-lib.sh; the test sets
#   MUTATE   the mutator: perl MUTATE SEED INDEX IN OUT prints what it did
#   EXT      the inputs' extension (log, md)
#   SEED N BATCH FAILDIR, and BASES_FROM (how the bases were made, for the
#   reproduction line)
# and defines run_all INPUT INDEX.  The bases are bases/NAME, listed in
# bases.list; mutation INDEX takes the base chosen by INDEX alone, so that
# any one mutation can be rerun by itself.  A failing one is kept in
# FAILDIR with a .txt saying how to reproduce it.

mutation_batch() {	# $1 first index, $2 last
	nb=$(wc -l <bases.list)
	fails=0
	i=$1
	while [ "$i" -le "$2" ]; do
		k=$(( (i * 2654435761 + SEED) % nb + 1 ))
		base=$(sed -n "${k}p" bases.list)
		what=$(perl "$MUTATE" "$SEED" "$i" "bases/$base" "m.$EXT") || return 1
		if ! run_all "m.$EXT" "$i" >fail.out 2>&1; then
			fails=$((fails + 1))
			mkdir -p "$FAILDIR"
			cp "m.$EXT" "$FAILDIR/seed$SEED-$i.$EXT"
			{
				echo "mutation $i of seed $SEED: $base: $what"
				cat fail.out
				echo "reproduce: perl ${MUTATE#"$XLS_TOP"/} $SEED $i BASE out.$EXT, BASE = $base from $BASES_FROM"
			} >"$FAILDIR/seed$SEED-$i.txt"
			echo "FAILED: mutation $i ($base: $what)"
			cat fail.out
		fi
		i=$((i + 1))
	done
	[ "$fails" -eq 0 ]
}

# mutation_tests WHAT: one TAP test per BATCH of the N mutations
mutation_tests() {
	first=1
	while [ "$first" -le "$N" ]; do
		last=$((first + BATCH - 1))
		[ "$last" -le "$N" ] || last=$N
		test_expect_success "$1 $first-$last (seed $SEED): no signal, no hang, no sanitizer report" "
			mutation_batch $first $last
		"
		first=$((last + 1))
	done
}
