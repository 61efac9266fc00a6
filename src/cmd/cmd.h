/*
 * What every command shares: its options, the opened input, the chosen
 * writer, and the one way findings are reported.
 */
#ifndef XLS_CMD_H
#define XLS_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include "report/emit.h"
#include "base/err.h"
#include "base/finding.h"
#include "log/log.h"
#include "trans/scan.h"
#include "source/source.h"

struct xls_options {
	struct xls_source_opts	src;
	enum xls_format		fmt;
	bool			all;		/* records: physical order */
	bool			verbose;
	bool			progress;	/* progress on stderr */
	unsigned int		threads;	/* 0: as many as pay (1 or 2) */
	const char		*out_path;	/* copy: destination */
	/* bufs filters */
	const char		*type_filter;
	bool			has_blkno;
	int64_t			blkno;
	bool			has_tid;
	uint32_t		tid;
	unsigned int		top;		/* stats: hottest buffers shown */
	/* history */
	const char		*replay_path;	/* --replay: buffer as recovered */
	bool			diff;		/* --diff: chunks that change */
	const char		*svg_path;	/* history, bufs: heat map */
};

struct xls_cmd {
	const struct xls_options	*opt;
	struct xls_source		src;
	struct xls_log			log;
	struct xls_head_tail		ht;
	struct xls_out			out;
	uint64_t			findings;
	bool				progress_shown;
};

/* Open the input, find head and tail.  Returns 0 or -1 with @err set. */
int xls_cmd_open(struct xls_cmd *c, const struct xls_options *opt,
		 struct xls_error *err);
void xls_cmd_close(struct xls_cmd *c);

/* Print a finding in the chosen format (text: "finding ..." line). */
int xls_cmd_finding(struct xls_cmd *c, const struct xls_finding *f);

/*
 * A scan sink progress callback for @c (a struct xls_cmd *): a percentage
 * on standard error when it is a terminal, erased when the scan ends.
 */
void xls_cmd_progress(void *c, uint64_t done, uint64_t total);

/* Exit status for a finished command: findings make it 1. */
int xls_cmd_status(struct xls_cmd *c, int rc, const struct xls_error *err);

/* Fields shared by info and stats: input, geometry, head and tail. */
void xls_cmd_geometry_fields(const struct xls_cmd *c, struct xls_fieldset *fs);

/* "clean", "dirty", "zeroed". */
const char *xls_log_state_name(enum xls_log_state s);

int xls_cmd_info(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_records(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_trans(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_copy(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_bufs(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_stats(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_recover(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_history(const struct xls_options *opt, struct xls_error *err);
/* bufs --svg: heat map of the --top hottest buffers (cmd_history.c). */
int xls_cmd_bufs_svg(const struct xls_options *opt, struct xls_error *err);

#endif /* XLS_CMD_H */
