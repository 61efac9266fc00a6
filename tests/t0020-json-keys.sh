#!/bin/sh
# The man page's JSON KEYS say what every key is (issue 28): each object
# every command writes with --json, over the bundled kernel-written images
# (both byte orders), metadumps, synthesized logs with the items and
# failures the images lack, has an entry for its kind there, and each of
# its keys is named in that entry (or, for every kind, in the section's
# opening paragraph).  tests/lib/json-keys.pl reads the man page and the
# JSON; it shares nothing with src/.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"
. "$XLS_TOP/tests/lib/metadump.sh"
. "$XLS_TOP/tests/lib/synth-lib.sh"

MAN=$XLS_TOP/man/xfs_logscope.8

# Every command the program lists runs on each input (a new one too),
# but those run otherwise: history (on a buffer), compare and replay
# (below); copy writes no JSON.
OTHERS="history compare replay copy"
listed_commands() {
	"$XLS" help | sed -n "/^Commands:/,/^\$/s/^  \([a-z]*\) .*/\1/p" | grep -vx help
}
# ... and those whose -v run below writes every key the plain one does
VERBOSE="bufs checkpoints recover"
ONE_INPUT=$(listed_commands | grep -vxF "$(echo "$OTHERS $VERBOSE" | tr " " "\n")" | tr "\n" " ")
# ... and again with the options that change their keys
VARIANTS='"records -a" "trans --stale" "bufs -v" "bufs --stale" "stats --stale"'
VARIANTS="$VARIANTS"' "checkpoints -v" "checkpoints --stale" "recover -v" "recover --summary"'
VARIANTS="$VARIANTS"' "files --stale"'

# Every command that writes JSON, on the input of arguments "$@".
all_commands() {
	# shellcheck disable=SC2086
	eval "for c in $ONE_INPUT $VARIANTS; do \"\$XLS\" \$c --json \"\$@\"; done"
	blk=$("$XLS" stats --json --top 1 "$@" | sed -n "s/.*\"kind\":\"hot\".*\"blkno\":\"\(0x[0-9a-f]*\)\".*/\1/p" | head -1)
	[ -n "$blk" ] || return 0
	"$XLS" history --json -v --diff --blkno="$blk" "$@"
	rm -f hist.replay
	"$XLS" history --json --replay=hist.replay --blkno="$blk" "$@"
}

test_expect_success 'every command the program lists is run here, the others named exist' '
	test "$(echo $ONE_INPUT $VERBOSE | wc -w)" -ge 9 &&
	for c in $OTHERS $VERBOSE; do listed_commands | grep -qx "$c" || { echo "$c"; return 1; }; done &&
	for c in $VERBOSE; do echo "$VARIANTS" | grep -qF "\"$c -v\"" || { echo "$c -v"; return 1; }; done
'

test_expect_success 'the bundled kernel-written images, both byte orders' '
	for n in $LOGPRINT_NAMES be4k be64k beunl; do
		# shellcheck disable=SC2046
		all_commands $(image_args "$n")
	done >images.json 2>/dev/null
	test "$(grep -c "\"kind\":\"ritem\"" images.json)" -gt 1000 &&
	grep -q "\"kind\":\"replayed_buffer\"" images.json
'

test_expect_success 'metadumps, compare, replay' '
	{
		for v in v1 v2; do
			all_commands $(metadump_args dir4k $v)
		done
		"$XLS" compare --json "$(image dir4k)" "$(image dir64k)"
		rm -f replayed.img
		"$XLS" replay --json -o replayed.img "$(image unlinked)"
	} >other.json 2>/dev/null
	grep -q "\"kind\":\"compare_total\"" other.json &&
	grep -q "\"kind\":\"replay\"" other.json
'

test_expect_success 'compare: a delta beside every ratio' '
	grep "^{\"kind\":\"compare_" other.json >compare.json &&
	test -s compare.json &&
	perl -ne "for my \$r (/\"(\w+)_ratio\":/g) { print \"\$r\n\" unless /\"\${r}_delta\":/ }" \
		compare.json >nodelta &&
	test ! -s nodelta || { sort -u nodelta; false; }
'

test_expect_success 'synthesized logs: unknown items, bad buffers, stale gaps, corruption' '
	for s in bufs bad-bufs unknown-item stale-partial stale-gap torn-mid hlen-big sb-badgeo; do
		synth "$s" "$s" >/dev/null 2>&1 || return 1
		all_commands "$TRASH/$s.img"
	done >synth.json 2>/dev/null
	grep -q "\"kind\":\"stale_gap\"" synth.json &&
	grep -q "\"kind\":\"finding\"" synth.json
'

test_expect_success 'every kind has an entry in JSON KEYS and every key is named in it' '
	cat images.json other.json synth.json | perl "$XLS_TOP/tests/lib/json-keys.pl" "$MAN"
'

# src/report/keys.def declares every key and kind of record the tool can
# write, those the runs above never reach too (a name too long to give, a
# log item no image holds): each must be named in JSON KEYS.
test_expect_success 'every key and kind keys.def declares is named in JSON KEYS' '
	perl -e "
		open M, q{<}, \$ARGV[0] or die; my (\$in, \$t) = (0, q{});
		while (<M>) { \$in = 1, next if /^\\.SH JSON KEYS/; last if \$in && /^\\.SH /; \$t .= \$_ if \$in }
		\$t =~ s/\\\\f[BIRP]//g;
		my %w = map { \$_ => 1 } \$t =~ /([a-z][a-z0-9_]*)/g;
		open K, q{<}, \$ARGV[1] or die; my @miss;
		while (<K>) { push @miss, \$1 if /^XLS_(?:KEY|RECORD)\\((\\w+)[,)]/ && !\$w{\$1} }
		print qq{declared, not in JSON KEYS: @miss\\n} if @miss; exit(@miss ? 1 : 0);
	" "$MAN" "$XLS_TOP/src/report/keys.def" &&
	test "$(grep -c "^XLS_KEY(" "$XLS_TOP/src/report/keys.def")" -gt 400
'

# Each number's unit is declared once, in keys.def, and the key's name
# says it by the rule JSON KEYS states (tests/lib/key-units.pl).
test_expect_success 'the unit keys.def declares for each key is the one its name says' '
	perl "$XLS_TOP/tests/lib/key-units.pl" "$XLS_TOP/src/report/keys.def"
'

test_expect_success 'the unit checker finds a unit the name does not say' '
	sed "s/^XLS_KEY(log_bbs, uint, bb,/XLS_KEY(log_bbs, uint, bytes,/" \
		"$XLS_TOP/src/report/keys.def" >keys.def &&
	test_must_fail perl "$XLS_TOP/tests/lib/key-units.pl" keys.def >out &&
	grep -q "^log_bbs: bytes, its name says bb" out
'

test_expect_success 'the checker finds a key the man page does not name' '
	echo "{\"kind\":\"info\",\"no_such_key\":1}" >bogus.json &&
	test_must_fail perl "$XLS_TOP/tests/lib/json-keys.pl" "$MAN" <bogus.json >out &&
	grep -q "kind info: undocumented keys: no_such_key" out
'
test_done
