# SPDX-License-Identifier: GPL-2.0
#
# logprint-norm.awk - normalise "xfs_logprint -t -b" output (xfsprogs 6.1)
#
#   xfs_logprint -t -b IMG | awk -f tests/lib/logprint-norm.awk
#
# Prints, in the order xfs_logprint prints them, one line per committed
# transaction and, after it, one line per buffer log item in it:
#
#   T tid=0x<hex> th_items=<#items of the TRANS: line> items=<log items>
#   B blkno=0x<hex> len=<dec> map_size=<dec> flags=0x<hex> regs=<dec>
#
# th_items is th_num_items of the transaction header (a count of regions,
# not of log items); items is the number of log items printed after the
# TRANS: line.  Every item starts at column 0 with its type name and
# ": cnt:N total:N" (xlog_recover_print_item() in logprint/log_print_all.c):
# BUF, INO, ICR, EFI, EFD, RUI, RUD, CUI, CUD, BUI, BUD, ATTRI, ATTRD,
# "DQ " and QOFF; an item of a type logprint does not know is printed as a
# bare ": cnt:..." (after an "illegal type" message on stderr) and is
# counted too.  B values come from the "\tBUF:  #regs:..." line that
# follows each BUF item line.  Hex is lower case without leading zeros.
# Everything else is ignored.
#
# Plain POSIX awk (mawk, gawk, busybox awk).

function flush(    i) {
	if (!intrans)
		return
	printf "T tid=0x%s th_items=%s items=%d\n", tid, thitems, nitems
	for (i = 1; i <= nbufs; i++)
		print bufs[i]
	intrans = 0
	nitems = 0
	nbufs = 0
}

# hexnorm("0x0001AbC") -> "1abc"
function hexnorm(s) {
	s = tolower(s)
	sub(/^0x/, "", s)
	sub(/^0+/, "", s)
	if (s == "")
		s = "0"
	return s
}

# val("blkno:0x12") -> "0x12"
function val(s) {
	sub(/^[^:]*:/, "", s)
	return s
}

BEGIN {
	intrans = 0
	nitems = 0
	nbufs = 0
}

# TRANS: tid:0xd0318dba  #items:16  trans:0xd0318dba  q:0x55b75009ce30
/^TRANS: tid:/ {
	flush()
	intrans = 1
	tid = ""
	thitems = ""
	for (i = 2; i <= NF; i++) {
		if ($i ~ /^tid:/)
			tid = hexnorm(val($i))
		else if ($i ~ /^#items:/)
			thitems = val($i) + 0
	}
	next
}

# an item: "INO: cnt:3 total:3 a:0x... len:56 ...", "DQ : cnt:...",
# ": cnt:..." for an unknown type
/^[A-Z]*[ ]?: cnt:[0-9]+ total:[0-9]+/ {
	if (intrans)
		nitems++
	next
}

#	BUF:  #regs:2   start blkno:0x0   len:1   bmap size:1   flags:0x9000
/^[ \t]+BUF: +#regs:/ {
	if (!intrans)
		next
	regs = ""; blkno = ""; len = ""; msize = ""; flags = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^#regs:/)
			regs = val($i) + 0
		else if ($i ~ /^blkno:/)
			blkno = hexnorm(val($i))
		else if ($i ~ /^len:/)
			len = val($i) + 0
		else if ($i == "bmap" && $(i + 1) ~ /^size:/)
			msize = val($(i + 1)) + 0
		else if ($i ~ /^flags:/)
			flags = hexnorm(val($i))
	}
	bufs[++nbufs] = sprintf("B blkno=0x%s len=%s map_size=%s flags=0x%s regs=%s",
				blkno, len, msize, flags, regs)
	next
}

END {
	flush()
}
