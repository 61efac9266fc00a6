/*
 * Names of flag bits, from tables: "A|B|UNKNOWN(0x40)".  The items stage
 * names the bits of the on-disk fields it decodes; the report prints them.
 */
#ifndef XLS_FLAGS_H
#define XLS_FLAGS_H

#include <stddef.h>
#include <stdint.h>

struct xls_flag_name {
	uint64_t	bit;
	const char	*name;
};

struct xls_flag_table {
	const struct xls_flag_name	*names;
	size_t				n;
};

#define XLS_FLAG_TABLE(a)	{ (a), sizeof(a) / sizeof((a)[0]) }

/*
 * Names of the bits of @flags in @t into @buf; bits without a name print
 * as UNKNOWN(0x..), and no bit set gives "".  Cut to @bufsz - 1 characters.
 * Returns the length of what @buf holds.
 */
size_t xls_flags_to_str(uint64_t flags, const struct xls_flag_table *t, char *buf,
			size_t bufsz);

#endif /* XLS_FLAGS_H */
