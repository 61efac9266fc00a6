# The committed metadumps of the bundled images (tests/images/metadump/,
# see mkmetadumps.sh there) in the forms the tests read.  Sourced after
# test-lib.sh.
#
#   metadump NAME VARIANT [FORM]   prints the path of the metadump of
#       image NAME (VARIANT v1, v1ao, v2, v2ao) in FORM: plain (default),
#       xz (the committed file), gz, zst.  Plain, gzip and zstd forms are
#       made once per build, from the committed one.
#   has_metadump NAME VARIANT      true if it is committed
METADUMPS="$XLS_TOP/tests/images/metadump"

has_metadump() {
	[ -f "$METADUMPS/$1.$2.md.xz" ]
}

metadump() {
	src="$METADUMPS/$1.$2.md.xz"
	dir="$XLS_BUILD/metadumps"
	plain="$dir/$1.$2.md"
	mkdir -p "$dir"
	if [ ! -f "$plain" ] || [ "$src" -nt "$plain" ]; then
		# sparse: a metadump's log is mostly zero sectors
		xz -dc "$src" | cp --sparse=always /dev/stdin "$plain.tmp.$$" &&
			mv "$plain.tmp.$$" "$plain" || return 1
	fi
	case "${3:-plain}" in
	plain)	echo "$plain" ;;
	xz)	echo "$src" ;;
	gz)	[ "$plain.gz" -nt "$plain" ] || { gzip -c "$plain" >"$plain.gz.tmp.$$" &&
			mv "$plain.gz.tmp.$$" "$plain.gz"; } || return 1
		echo "$plain.gz" ;;
	zst)	[ "$plain.zst" -nt "$plain" ] || { zstd -q -c "$plain" >"$plain.zst.tmp.$$" &&
			mv "$plain.zst.tmp.$$" "$plain.zst"; } || return 1
		echo "$plain.zst" ;;
	*)	echo "metadump: unknown form $3" >&2; return 1 ;;
	esac
}

# The arguments that read image NAME's metadump: a v1 metadump of extlog
# holds the data device only, and takes the log with -l.
metadump_args() {
	case "$1.$2" in
	extlog.v1*) echo "-l $(image extlog-log) $(metadump "$1" "$2" "${3:-plain}")" ;;
	*)	metadump "$1" "$2" "${3:-plain}" ;;
	esac
}

# The keys of info that say what the input is, not what its log holds.
drop_input_keys() {
	grep -Ev '^(input|compression|log_compression|spool_bytes|metadump_[a-z_]*) '
}

# recover or history of a metadump, text or JSON, without what it says of
# the blocks the metadump lacks: for a comparison with the image
# xfs_mdrestore makes of it, where the same blocks are zeros (and with the
# original image, where they are zeros there too).  Decisions, reasons and
# details must then be the same.
drop_absent_notes() {
	sed -e 's/"block_state":"absent"/"block_state":"disk"/' \
	    -e 's/: the block is absent from the metadump (read as zeros)//' \
	    -e 's/: the inode is absent from the metadump (read as zeros)//' \
	    -e 's/,"absent_reads":[0-9]*//' -e 's/,"disk_absent_bytes":[0-9]*//' \
	    -e 's/,"fail_block_absent":false//' \
	    -e 's/"approximate":true/"approximate":false/' \
	    -e '/^  approximate: [0-9]* items* decided on blocks the metadump does not carry/d' \
	    -e '/^  absent_reads  /d' -e '/^  fail_block_absent  *no$/d' \
	    -e 's/^\(  approximate  *\)yes$/\1no/' \
	    -e '/^note: [0-9]* bytes of the block on disk are absent/d'
}
