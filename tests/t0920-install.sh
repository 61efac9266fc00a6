#!/bin/sh
# make install and make uninstall into a staging directory; the man page's
# version is the program's; bash completion completes commands, options
# and buffer types.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'the man page names the version the program prints' '
	v=$("$XLS" -V | sed "s/^xfs_logscope version //") &&
	head -1 "$XLS_TOP/man/xfs_logscope.8" | grep -q "\"xfs_logscope $v\"$"
'

stage=$TRASH/stage
test_expect_success 'make install puts the program, the man page and the completion' '
	make -s -C "$XLS_TOP" install DESTDIR="$stage" prefix=/usr >out 2>&1 &&
	test -x "$stage/usr/sbin/xfs_logscope" &&
	test -f "$stage/usr/share/man/man8/xfs_logscope.8" &&
	test -f "$stage/usr/share/bash-completion/completions/xfs_logscope" &&
	"$stage/usr/sbin/xfs_logscope" -V | grep -q "^xfs_logscope version "
'
test_expect_success 'make uninstall takes them away again' '
	make -s -C "$XLS_TOP" uninstall DESTDIR="$stage" prefix=/usr >out 2>&1 &&
	test -z "$(find "$stage" -type f)"
'

if command -v bash >/dev/null; then
	# complete WORDS...: what the completion offers for the last word
	cat >complete.sh <<'EOS'
# stand-ins for bash-completion's helpers when it is not installed
type _init_completion >/dev/null 2>&1 || _init_completion() {
	words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
	cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
}
type _filedir >/dev/null 2>&1 || _filedir() { COMPREPLY=($(compgen -f -- "$cur")); }
compopt() { :; }
. "$XLS_TOP/completion/xfs_logscope"
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
_xfs_logscope "$XLS" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}" | sort
EOS
	test_expect_success 'completion: commands, options, buffer types' '
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope re >out && printf "records\nrecover\nreplay\n" >want &&
		test_cmp want out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope bufs --si >out && grep -qx -- "--size=" out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope recover --su >out && grep -qx -- "--summary" out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope bufs --type dir_d >out && grep -qx dir_data out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope help hi >out && grep -qx history out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope replay --in >out && grep -qx -- "--in-place" out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope replay --finish r >out && grep -qx repair out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope replay --finish "" >out &&
		printf "kernel\nrepair\ntool\n" >want && test_cmp want out
	'
	test_expect_success 'completion: which options take a value, from the help' '
		# a value-taking option of any command, before the command, is skipped with its value
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope --blocks-max 1g lo >out &&
		grep -qx lost out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope -o x re >out && grep -qx replay out &&
		XLS="$XLS" XLS_TOP="$XLS_TOP" bash complete.sh xfs_logscope bufs --top "" >out &&
		test -z "$(tr -d "\n" <out)"
	'
else
	test_skip 'completion' 'needs bash'
fi
test_done
