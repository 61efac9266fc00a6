#!/bin/sh
# The tree says each thing once (issue 28): every source file is in
# doc/layout.md's table exactly once (each .c, and each .h with no .c of
# its name); test numbers are unique; the README's commands are the
# command table's (which the global help is made from); every key
# report/keys.def declares is used; no source file is over 900 lines; the
# commands leave text to report/.
. "$(dirname "$0")/lib/test-lib.sh"

# the files the first column of doc/layout.md's table names, one a line
listed() {
	awk -F"|" "/^\|/ { print \$2 }" "$XLS_TOP/doc/layout.md" |
		grep -o "\`[A-Za-z0-9_]*\.[ch]\`" | tr -d "\`"
}

test_expect_success 'doc/layout.md lists every source file once' '
	cd "$XLS_TOP/src" && bad= &&
	for f in */*.c */*.h; do
		case $f in *.h) [ -e "${f%.h}.c" ] && continue ;; esac
		b=${f##*/}
		n=$(listed | grep -c "^$b\$")
		[ "$n" -eq 1 ] || { echo "$f: listed $n times"; bad=1; }
	done &&
	for b in $(listed); do
		ls */"$b" >/dev/null 2>&1 || { echo "layout.md lists $b, which is not in src/"; bad=1; }
	done &&
	test -z "$bad"
'

# report/keys.def declares each key and kind of record once; one that
# nothing writes any more would stay documented and declared for nothing.
test_expect_success 'every key and kind keys.def declares is written somewhere' '
	sed -n "s/^XLS_KEY(\([a-z0-9_]*\),.*/\1/p" "$XLS_TOP/src/report/keys.def" >declared &&
	test "$(wc -l <declared)" -gt 400 &&
	cat "$XLS_TOP"/src/*/*.c | grep -o "\(XK\|XKEY\|XLS_COL\|XLS_COL_AS\|XLS_MEMBER\)([a-z0-9_]*" |
		sed "s/.*(//" | sort -u >used &&
	sed -n "s/^XLS_RECORD(\([a-z0-9_]*\)).*/\1/p" "$XLS_TOP/src/report/keys.def" >kinds &&
	test "$(wc -l <kinds)" -gt 30 &&
	cat "$XLS_TOP"/src/*/*.c | grep -o "XR([a-z0-9_]*" | sed "s/.*(//" | sort -u >kinds.used &&
	{ sort declared | comm -23 - used; sort kinds | comm -23 - kinds.used; } >unused &&
	test ! -s unused || { echo "declared, never written:"; cat unused; false; }
'

test_expect_success 'every test has a number of its own' '
	ls "$XLS_TOP"/tests/t[0-9]*.sh | sed "s|.*/\(t[0-9]*\)-.*|\1|" | sort | uniq -d >dup &&
	test ! -s dup || { cat dup; false; }
'

test_expect_success 'the README lists the commands of the command table, in its order' '
	"$XLS" help | sed -n "/^Commands:/,/^\$/p" | awk "NR > 1 && NF { print \$1 }" >help.cmds &&
	test "$(wc -l <help.cmds)" -ge 10 &&
	sed -n "/^Commands\$/,/^[A-Z][a-z ]*\$/p" "$XLS_TOP/README" |
		awk "/^    [a-z]+ / { print \$1 }" >readme.cmds &&
	grep -vx help help.cmds | cmp - readme.cmds
'

# A command picks what to show and hands it over; the report stage words
# and formats it (report/describe*.c, emit.c).  A command may name a
# title (xls_out_title) or a table's columns, never format a line.
test_expect_success 'no command formats text itself' '
	grep -n "xls_out_printf\|xls_out_textf\|xls_out_text_str\|xls_out_text_uint" \
		"$XLS_TOP"/src/cmd/*.c >formats ||:
	test ! -s formats || { cat formats; false; }
'

test_expect_success 'no source file over 900 lines' '
	wc -l "$XLS_TOP"/src/*/*.c "$XLS_TOP"/src/*/*.h | awk "\$2 != \"total\" && \$1 > 900" >big &&
	test ! -s big || { cat big; false; }
'
test_done
