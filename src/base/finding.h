/*
 * Findings: something wrong or notable in the log, reported with where it
 * was found.  Findings are output, not errors: decoding goes on.
 */
#ifndef XLS_FINDING_H
#define XLS_FINDING_H

#include <stdint.h>
#include <stdbool.h>

struct xls_finding {
	const char	*kind;		/* stable short key: "crc", "op_len", ... */
	uint64_t	lsn;		/* LSN of the record, 0 if none */
	uint32_t	rec_blk;	/* header block of the record */
	int64_t		offset;		/* byte offset in the record payload, -1 */
	bool		has_tid;
	uint32_t	tid;
	char		msg[256];	/* one sentence */
};

#endif /* XLS_FINDING_H */
