/*
 * What every command shares: its options, the opened input, the chosen
 * writer, and the one sink findings and progress of every stage go to.
 * A command is thin: options, then the stages, then the report.
 */
#ifndef XLS_CMD_H
#define XLS_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "base/err.h"
#include "base/finding.h"
#include "source/source.h"
#include "log/log.h"
#include "trans/scan.h"
#include "analysis/audit.h"
#include "report/describe.h"
#include "report/emit.h"
#include "report/svg.h"
#include "report/svgchart.h"

/*
 * The filters, declared once (main.c): what bufs, recover, history,
 * trans, checkpoints, files and lost show; the rest is still read.
 */
struct xls_filter_opts {
	uint32_t		type_mask;	/* --type: 1 << XFS_BLFT_*; 0: every type */
	bool			has_size;
	uint32_t		size;		/* --size: buffer bytes */
	bool			has_blkno;
	int64_t			blkno;		/* --blkno */
	bool			has_tid;
	uint32_t		tid;		/* --tid */
	bool			has_ino;
	uint64_t		ino;		/* --ino: what concerns this inode */
	const char		*path_prefix;	/* --path: files, lost */
};

/* --svg and --top: history, bufs, stats, checkpoints, compare. */
struct xls_chart_opts {
	const char		*svg_path;
	unsigned int		top;		/* stats: hottest buffers shown */
};

/* lost, files: the overlay's memory (--blocks-mem), its bound (--blocks-max). */
struct xls_blocks_opts {
	uint64_t		mem;
	uint64_t		max;
};

/* history: --replay (the buffer as recovered, to a file), --diff. */
struct xls_history_opts {
	const char		*replay_path;
	bool			diff;
};

/* replay: -o is out_path. */
struct xls_replay_opts {
	const char		*log_out_path;	/* --log-out: the external log's copy */
	bool			force;		/* --force: past a failure too */
	bool			finish_repair;	/* --finish=repair: the log cleaned though work is left */
	bool			finish_kernel;	/* --finish=kernel: the work left to the kernel's mount */
	bool			in_place;	/* --in-place: into DEV itself */
};

/*
 * A command's options: those of every command, then each group in a
 * struct of its own, filled only for the commands that take it (the
 * command table in main.c says which).
 */
struct xls_options {
	struct xls_source_opts	src;
	enum xls_format		fmt;
	bool			stale;		/* the records before the tail too */
	bool			verbose;
	bool			progress;	/* progress on stderr */
	unsigned int		threads;	/* 0: as many as pay (1 or 2) */
	const char		*out_path;	/* copy: FILE; replay: -o */
	struct xls_filter_opts	filter;
	struct xls_chart_opts	chart;
	struct xls_blocks_opts	blocks;
	struct xls_history_opts	history;
	struct xls_replay_opts	replay;
	struct { bool all; } records;		/* -a: physical order */
	struct { bool summary; } recover;	/* --summary: the verdict only */
	struct xls_quota_opts	quota;		/* --quota: the mount's quota */
	struct { const char *path_b; } compare;	/* the second journal */
};

/* --blocks-mem, --blocks-max: below one block of the largest size nothing could be kept. */
#define XLS_BLOCKS_MEM_MIN	(64u << 10)

/* --top: buffers a heat map draws; buffers stats lists (its table's size). */
#define XLS_SVG_TOP_MAX		64u
#define XLS_STATS_TOP_MAX	XLS_STATS_HOT_MAX

/* What happens to findings. */
enum xls_findings {
	XLS_FINDINGS_PRINT,	/* each one, in the chosen format (CSV: stderr) */
	XLS_FINDINGS_COUNT,	/* counted for the exit status only */
	XLS_FINDINGS_IGNORE,	/* neither: a second scan of the same log */
};

struct xls_cmd {
	const struct xls_options	*opt;
	struct xls_source		src;
	struct xls_log			log;
	struct xls_head_tail		ht;
	struct xls_out			out;
	uint64_t			findings;
	enum xls_findings		findings_mode;
	bool				progress_shown;
	/*
	 * What a command with a filter (--ino, --path, --blkno, --tid, --type,
	 * --size) counts in @shown, for the line xls_cmd_status() writes when
	 * it kept none ("buffer item", ...); NULL: no filter given.
	 */
	const char			*filtered;
	uint64_t			shown;
	/* for every stage: findings and progress to this command */
	struct xls_report_sink		report;
	/* the writer thread, once started; NULL: output written in place */
	struct xls_cmd_writer		*writer;
};

/*
 * Open the input and find head and tail; findings are printed until
 * c->findings_mode says otherwise.  Returns 0 or -1 with @err set.
 */
int xls_cmd_open(struct xls_cmd *c, const struct xls_options *opt,
		 struct xls_error *err);
void xls_cmd_close(struct xls_cmd *c);

/*
 * Exit status for a finished command: findings make it 1; a read of the
 * input that failed on the way makes it 3, and is said.
 */
int xls_cmd_status(struct xls_cmd *c, int rc, const struct xls_error *err);

/*
 * A command that reads one input, for xls_cmd_run(): what it checks before
 * opening (NULL: nothing; 0, or -1 with @err set), its context (@ctx_size
 * bytes, zeroed; 0: none), what it does with the opened input (0, or -1
 * with @err set), and what frees what the context holds, however far
 * @run got (NULL: nothing).
 */
struct xls_cmd_body {
	int	(*check)(const struct xls_options *opt, struct xls_error *err);
	size_t	ctx_size;
	int	(*run)(struct xls_cmd *c, void *ctx, struct xls_error *err);
	void	(*release)(void *ctx);
};

/*
 * Check, make the context, open the input, run, the exit status, release,
 * close: every command's skeleton, its cleanup in one place.  Returns the
 * exit status.
 */
int xls_cmd_run(const struct xls_options *opt, const struct xls_cmd_body *b,
		struct xls_error *err);

/* A check for xls_cmd_body: --svg names no file that exists. */
int xls_cmd_check_svg(const struct xls_options *opt, struct xls_error *err);

/* A read of the input failed: set @err to say so and return -1; else 0. */
int xls_cmd_io_check(const struct xls_cmd *c, struct xls_error *err);

/* Write @fs as a record of @kind in the chosen format (on the writer, if any). */
void xls_cmd_record(struct xls_cmd *c, const struct xls_record_kind *kind,
		    const struct xls_fieldset *fs);

/*
 * The scan of every command that reads the log as it is: from the tail to
 * the head, and with --stale first the records before the tail, their
 * boundaries shown as the output format shows them.
 */
int xls_cmd_scan(struct xls_cmd *c, const struct xls_scan_sink *sink,
		 struct xls_scan_totals *tot, struct xls_error *err);

/* One of its two walks: the records before the tail (@stale), or tail to head. */
int xls_cmd_walk(struct xls_cmd *c, const struct xls_scan_sink *sink, bool stale,
		 struct xls_scan_totals *tot, struct xls_error *err);

/* With --stale, in text: the line that says which part of the log follows. */
void xls_cmd_part_banner(struct xls_cmd *c, bool stale);
/* A stale boundary (@ctx the struct xls_cmd): a stale_gap record, a text line. */
int xls_cmd_stale_gap(void *ctx, const struct xls_stale_gap *g);
/* The filters given (--ino, --path, --blkno, --tid, --type, --size) kept no @what: said on stderr. */
void xls_cmd_no_match(const struct xls_cmd *c, const char *what);
/* A command that filters: @what it counts in c->shown, when a filter is given. */
void xls_cmd_filters(struct xls_cmd *c, const char *what);



/*
 * Scan c's log into @a, from tail to head or (@stale) the records before
 * the tail, and finish it; 0 or as xls_scan().
 */
int xls_cmd_audit_scan(struct xls_cmd *c, struct xls_audit *a, bool stale,
		       struct xls_error *err);

/*
 * An audit command (stats, checkpoints) in its parts: with --stale the
 * records before the tail, then the active ones, each audited afresh.
 * @begin before a part's scan, @report after it; @on_ckpt (may be NULL)
 * gets each checkpoint; --svg draws the active part's charts @set.
 */
struct xls_audit_parts {
	void	(*begin)(void *ctx, bool stale);
	void	(*report)(void *ctx, const struct xls_audit *a);
	void	(*on_ckpt)(void *ctx, const struct xls_ckpt *ck);
	enum xls_chart_set set;
};

int xls_cmd_audit_parts(struct xls_cmd *c, const struct xls_audit_parts *p, void *ctx,
			struct xls_error *err);

/* The heat map of @panels to new file @path under @title. */
int xls_cmd_write_svg(const char *path, const char *title,
		      const struct xls_heat_panel *panels, unsigned int npanels,
		      bool decisions, struct xls_error *err);

/*
 * The charts of @set for the statistics @a (and @b, for compare) to new
 * file @path, the logs named @name_a and @name_b.
 */
int xls_cmd_write_audit_svg(const char *path, enum xls_chart_set set, const char *name_a,
			    const struct xls_stats *a, const char *name_b,
			    const struct xls_stats *b, struct xls_error *err);

/* Does buffer type name @type pass the --type filter? */
/* A buffer of type @blft and @bytes passes the --type and --size filters. */
bool xls_cmd_buf_wanted(const struct xls_options *o, unsigned int blft, uint32_t bytes);

int xls_cmd_info(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_records(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_trans(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_copy(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_bufs(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_stats(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_recover(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_history(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_lost(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_files(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_checkpoints(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_compare(const struct xls_options *opt, struct xls_error *err);
int xls_cmd_replay(const struct xls_options *opt, struct xls_error *err);

/*
 * A new file (cmd_output.c): it must not exist, and it gets its name only
 * once complete.  xls_newfile_check() before a scan, so that a path that
 * cannot be written fails at once (exit 3); open, write to @f, then commit
 * (or abort: nothing is left).
 */
struct xls_newfile {
	const char	*path;
	int		fd;
	FILE		*f;
	char		tmp[4200];	/* the hidden name, without O_TMPFILE */
};
int xls_newfile_check(const char *path, struct xls_error *err);
int xls_newfile_open(struct xls_newfile *nf, const char *path, struct xls_error *err);
int xls_newfile_commit(struct xls_newfile *nf, struct xls_error *err);
void xls_newfile_abort(struct xls_newfile *nf);

/*
 * An unnamed temporary file in $TMPDIR (or /tmp) to hold output that must
 * follow something only known at the end; NULL, with errno, if none can be
 * made.
 */
FILE *xls_cmd_spool(void);

/* Copy all of @spool to @to; 0, or -1 on a read or write error. */
int xls_cmd_unspool(FILE *spool, FILE *to);

/*
 * The command's output formatted on a thread of its own (cmd_writer.c),
 * once xls_cmd_writer_start() has made it: with two threads, for text
 * and JSON (a CSV stream's layout is its own).  xls_cmd_put() hands over
 * field set @fs, to be written by @fn with a copy of its @arg_len bytes
 * of @arg; xls_cmd_out() is where the decoding thread writes anything
 * else, in order with what it handed over.  Without the writer
 * xls_cmd_put() writes in place and xls_cmd_out() is c->out.  Stopped,
 * all written, by xls_cmd_writer_stop() or else xls_cmd_status().
 * xls_cmd_writer_start() returns 0, made or not (one thread, CSV), or -1
 * out of memory.
 */
typedef void (*xls_cmd_put_fn)(struct xls_out *o, const void *arg,
			       const struct xls_fieldset *fs);
int xls_cmd_writer_start(struct xls_cmd *c);
void xls_cmd_writer_stop(struct xls_cmd *c);
void xls_cmd_put(struct xls_cmd *c, xls_cmd_put_fn fn, const void *arg, uint32_t arg_len,
		 const struct xls_fieldset *fs);
struct xls_out *xls_cmd_out(struct xls_cmd *c);

#endif /* XLS_CMD_H */
