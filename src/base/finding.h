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
	char		msg[384];	/* one sentence */
};

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
