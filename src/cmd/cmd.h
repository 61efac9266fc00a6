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
#include "recover/recover.h"
#include "report/emit.h"
#include "report/svg.h"
#include "report/svgchart.h"
#include "report/newfile.h"
#include "report/rowspecs.h"
#include "report/writer.h"

/*
 * The filters, declared once (cmd/options.c): what bufs, recover, history,
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

/* lost, files: the overlay's memory (--blocks-mem), its bound (--blocks-max). */
struct xls_blocks_opts {
	uint64_t		mem;
	uint64_t		max;
};

/*
 * A command's options: the shared groups (cmd/options.c), filled for the
 * commands that take them, and the command's own, in a struct its file
 * declares and its parser fills (@own).
 */
struct xls_options {
	struct xls_source_opts	src;
	enum xls_format		fmt;
	bool			stale;		/* the records before the tail too */
	bool			progress;	/* progress on stderr */
	unsigned int		threads;	/* 0: as many as pay (1 or 2) */
	struct xls_filter_opts	filter;
	struct xls_blocks_opts	blocks;
	struct xls_quota_opts	quota;		/* --quota: the mount's quota */
	const void		*own;		/* the command's own options */
};

/* --blocks-mem, --blocks-max: below one block of the largest size nothing could be kept. */
#define XLS_BLOCKS_MEM_MIN	(64u << 10)


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
	struct xls_writer		*writer;
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


/* A file a command is to write, @path (NULL: none), must not exist: 0, or -1 with @err set. */
int xls_cmd_check_new(const char *path, struct xls_error *err);

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
 * gets each checkpoint; @svg_path gets the active part's charts @set.
 */
struct xls_audit_parts {
	void	(*begin)(void *ctx, bool stale);
	void	(*report)(void *ctx, const struct xls_audit *a);
	void	(*on_ckpt)(void *ctx, const struct xls_ckpt *ck);
	enum xls_chart_set set;
	const char *svg_path;	/* --svg: the charts' file, or NULL */
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


/*
 * The command's output formatted on a thread of its own (report/writer.c),
 * once xls_cmd_writer_start() has made it: with two threads, for text and
 * JSON.  xls_cmd_put() hands over field set @fs, to be written by @fn with
 * a copy of its @arg_len bytes of @arg; xls_cmd_out() is where the
 * decoding thread writes anything else, in order with what it handed
 * over.  Without the writer xls_cmd_put() writes in place and
 * xls_cmd_out() is c->out.  Stopped, all written, by xls_cmd_writer_stop()
 * or else xls_cmd_status().  xls_cmd_writer_start() returns 0, made or not
 * (one thread, CSV), or -1 out of memory.
 */
int xls_cmd_writer_start(struct xls_cmd *c);
void xls_cmd_writer_stop(struct xls_cmd *c);
void xls_cmd_put(struct xls_cmd *c, xls_put_fn fn, const void *arg, uint32_t arg_len,
		 const struct xls_fieldset *fs);
struct xls_out *xls_cmd_out(struct xls_cmd *c);

#endif /* XLS_CMD_H */
