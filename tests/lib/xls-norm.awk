# xls-norm.awk - normalise "xfs_logscope trans --json" output to the form
# logprint-norm.awk gives xfs_logprint -t -b output, for the differential
# test: one T line per committed transaction, then its buffer items.
#
#   T tid=0x<hex> th_items=<th_num_items> items=<log items>
#   B blkno=0x<hex> len=<dec> map_size=<dec> flags=0x<hex> regs=<dec>
#
# Items come before their transaction's object in the JSON stream, so B
# lines are held per tid until the transaction ends.  Plain POSIX awk.

# The value of "key" in this line: a JSON string (without quotes) or number.
function jval(key,    s) {
	if (!match($0, "\"" key "\":(\"[^\"]*\"|-?[0-9]+)"))
		return ""
	s = substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
	gsub(/"/, "", s)
	return s
}

function hexnorm(s) {
	s = tolower(s)
	sub(/^0x/, "", s)
	sub(/^0+/, "", s)
	return s == "" ? "0" : s
}

/"kind":"item"/ && /"item":"buf"/ {
	t = jval("tid")
	held[t] = held[t] sprintf("B blkno=0x%s len=%s map_size=%s flags=0x%s regs=%s\n",
		hexnorm(jval("blkno")), jval("len_bb"), jval("map_size"),
		hexnorm(jval("flags")), jval("size"))
	next
}

/"kind":"trans"/ {
	t = jval("tid")
	if (jval("state") == "committed")
		printf "T tid=0x%s th_items=%s items=%s\n%s", hexnorm(t),
			jval("th_num_items"), jval("items"), held[t]
	delete held[t]
}
