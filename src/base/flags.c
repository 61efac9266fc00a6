#include <stdio.h>
#include <string.h>

#include "base/flags.h"

/*
 * Append @s, cut to what fits; *@pos grows by its whole length either way,
 * as with snprintf, so that a full buffer stays full.  Called once per flag
 * name of every item described: no format parsing.
 */
static void buf_append(char *buf, size_t bufsz, size_t *pos, const char *s)
{
	size_t len = strlen(s), n = len;

	if (*pos >= bufsz)
		return;
	if (n > bufsz - *pos - 1)
		n = bufsz - *pos - 1;
	memcpy(buf + *pos, s, n);
	buf[*pos + n] = '\0';
	*pos += len;
}

size_t xls_flags_to_str(uint64_t flags, const struct xls_flag_table *t, char *buf,
			size_t bufsz)
{
	uint64_t rest = flags;
	size_t pos = 0;

	if (bufsz == 0)
		return 0;
	buf[0] = '\0';
	if (flags == 0)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		if ((flags & t->names[i].bit) != t->names[i].bit || !t->names[i].bit)
			continue;
		if (pos)
			buf_append(buf, bufsz, &pos, "|");
		buf_append(buf, bufsz, &pos, t->names[i].name);
		rest &= ~t->names[i].bit;
	}
	if (rest) {
		char tmp[40];

		snprintf(tmp, sizeof(tmp), "%sUNKNOWN(0x%llx)", pos ? "|" : "",
			 (unsigned long long)rest);
		buf_append(buf, bufsz, &pos, tmp);
	}
	return pos < bufsz ? pos : bufsz - 1;
}
