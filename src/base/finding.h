/*
 * Findings: something wrong or notable in the log, reported with where it
 * was found.  Findings are output, not errors: decoding goes on.
 */
#ifndef XLS_FINDING_H
#define XLS_FINDING_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* What a finding is about; each has one stable key (xls_finding_kind_name). */
enum xls_finding_kind {
	XLS_FIND_NONE,
	XLS_FIND_CRC,			/* a record's CRC does not match */
	XLS_FIND_CYCLE,			/* payload blocks carry another cycle */
	XLS_FIND_UUID,			/* a record of another filesystem */
	XLS_FIND_HEADER,		/* an invalid record header: blocks skipped */
	XLS_FIND_OP,			/* a malformed op header */
	XLS_FIND_TRANS_CORRUPT,		/* recovery would stop at this transaction */
	XLS_FIND_ITEM_TYPE,		/* an item of an unknown type */
	XLS_FIND_TRANS_TABLE,		/* too many transactions open, or no memory */
	XLS_FIND_SB_GEOMETRY,		/* refusals before the log: xls_log_refusal() */
	XLS_FIND_DEVICE_SIZE,
	XLS_FIND_LOG_UUID,
	XLS_FIND_SB_LSN,
	XLS_FIND_FILES_MALFORMED,	/* files: a logged entry that does not parse */
	XLS_FIND_FILES_BOUND,		/* files: the view's bound reached */
};

/* The key of @k as the outputs print it ("crc", "trans_corrupt", ...). */
static inline const char *xls_finding_kind_name(enum xls_finding_kind k)
{
	switch (k) {
	case XLS_FIND_NONE:		break;
	case XLS_FIND_CRC:		return "crc";
	case XLS_FIND_CYCLE:		return "cycle";
	case XLS_FIND_UUID:		return "uuid";
	case XLS_FIND_HEADER:		return "header";
	case XLS_FIND_OP:		return "op";
	case XLS_FIND_TRANS_CORRUPT:	return "trans_corrupt";
	case XLS_FIND_ITEM_TYPE:	return "item_type";
	case XLS_FIND_TRANS_TABLE:	return "trans_table";
	case XLS_FIND_SB_GEOMETRY:	return "sb_geometry";
	case XLS_FIND_DEVICE_SIZE:	return "device_size";
	case XLS_FIND_LOG_UUID:		return "log_uuid";
	case XLS_FIND_SB_LSN:		return "sb_lsn";
	case XLS_FIND_FILES_MALFORMED:	return "files_malformed";
	case XLS_FIND_FILES_BOUND:	return "files_bound";
	}
	return "?";
}

struct xls_finding {
	enum xls_finding_kind	kind;
	uint64_t	lsn;		/* LSN of the record, 0 if none */
	uint32_t	rec_blk;	/* header block of the record */
	int64_t		offset;		/* byte offset in the record payload, -1 */
	bool		has_tid;
	uint32_t	tid;
	char		msg[384];	/* one sentence */
};

/* Where a finding is; every field may be left out (zero: none). */
struct xls_finding_at {
	uint64_t	lsn;
	uint32_t	rec_blk;
	bool		has_offset;
	uint64_t	offset;
	bool		has_tid;
	uint32_t	tid;
};

/*
 * The one way a finding is made: @kind, where (@at; NULL: nowhere in
 * particular) and one sentence.
 */
void xls_finding_make(struct xls_finding *f, enum xls_finding_kind kind,
		      const struct xls_finding_at *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void xls_finding_vmake(struct xls_finding *f, enum xls_finding_kind kind,
		       const struct xls_finding_at *at, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * Where the findings and the progress of a stage go.  Every stage that has
 * them takes one of these; a command gives all of them the same one.
 */
struct xls_report_sink {
	void	*ctx;
	/* A finding; a non-zero return stops the stage with that value. */
	int	(*finding)(void *ctx, const struct xls_finding *f);
	/* Now and then: @done of @total units of work (log blocks). */
	void	(*progress)(void *ctx, uint64_t done, uint64_t total);
};

/* Report @f to @sink (which may be NULL or have no finding callback). */
static inline int xls_report_finding(const struct xls_report_sink *sink,
				     const struct xls_finding *f)
{
	return sink && sink->finding ? sink->finding(sink->ctx, f) : 0;
}

static inline void xls_report_progress(const struct xls_report_sink *sink,
				       uint64_t done, uint64_t total)
{
	if (sink && sink->progress)
		sink->progress(sink->ctx, done, total);
}

#endif /* XLS_FINDING_H */
