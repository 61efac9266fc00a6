/*
 * xfs_logscope: decode and analyse the journal of an unmounted XFS
 * filesystem.  git-style subcommands; each has its own argp parser built
 * from one shared option table for the input and output options.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"

#ifndef XLS_VERSION
#define XLS_VERSION "unknown"
#endif

enum {
	OPT_JSON = 'j',
	OPT_CSV = 0x100,
	OPT_FORCE,
	OPT_TYPE,
	OPT_BLKNO,
	OPT_TID,
	OPT_TOP,
	OPT_REPLAY,
	OPT_DIFF,
	OPT_SVG,
	OPT_THREADS,
	OPT_SUMMARY,
};

struct command {
	const char	*name;
	int		(*run)(const struct xls_options *, struct xls_error *);
	const char	*args_doc;
	const char	*doc;
	unsigned int	nargs;		/* positional arguments */
	const struct argp_option *extra;	/* command-specific options */
};

static const struct argp_option input_options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "logdev", 'l', "LOGDEV", 0, "the external log device or file", 1 },
	{ "file", 'f', NULL, 0, "DEV is a bare log (written by copy or xfs_logprint -C)", 1 },
	{ "force", OPT_FORCE, NULL, 0, "read a device even if it is mounted", 1 },
	{ "threads", OPT_THREADS, "N", 0,
	  "1: read and decode in one thread; 2: read, check and unpack records in a second one (default with 2 CPUs or more and 32 MiB of log to read)", 1 },
	{ NULL, 0, NULL, 0, "Output:", 2 },
	{ "json", OPT_JSON, NULL, 0, "JSON Lines: one object per line", 2 },
	{ "csv", OPT_CSV, NULL, 0, "comma-separated values with a header line", 2 },
	{ "verbose", 'v', NULL, 0, "more detail", 2 },
	{ 0 }
};

static const struct argp_option records_options[] = {
	{ "all", 'a', NULL, 0, "every record in physical order, not only tail to head", 3 },
	{ 0 }
};

static const struct argp_option bufs_options[] = {
	{ "type", OPT_TYPE, "TYPE", 0, "only buffers of this type (dir_data, agf, ...)", 3 },
	{ "blkno", OPT_BLKNO, "DADDR", 0, "only the buffer at this daddr", 3 },
	{ "tid", OPT_TID, "TID", 0, "only this transaction", 3 },
	{ "svg", OPT_SVG, "FILE", 0, "draw the --top hottest buffers' dirty chunks to FILE (SVG)", 3 },
	{ "top", OPT_TOP, "N", 0, "with --svg: buffers to draw (default 10)", 3 },
	{ 0 }
};

static const struct argp_option recover_options[] = {
	{ "type", OPT_TYPE, "TYPE", 0, "only show buffers of this type", 3 },
	{ "blkno", OPT_BLKNO, "DADDR", 0, "only show the buffer (or inode cluster) at this daddr", 3 },
	{ "tid", OPT_TID, "TID", 0, "only show this transaction", 3 },
	{ "summary", OPT_SUMMARY, NULL, 0, "only the verdict and the summary", 3 },
	{ 0 }
};

static const struct argp_option history_options[] = {
	{ "blkno", OPT_BLKNO, "DADDR", 0, "the buffer (required)", 3 },
	{ "replay", OPT_REPLAY, "FILE", 0, "write the buffer as recovery leaves it to FILE (must not exist)", 3 },
	{ "diff", OPT_DIFF, NULL, 0, "show the 128-byte chunks replay changes", 3 },
	{ "svg", OPT_SVG, "FILE", 0, "draw its dirty chunks over transactions to FILE (SVG)", 3 },
	{ 0 }
};

static const struct argp_option stats_options[] = {
	{ "top", OPT_TOP, "N", 0, "hottest buffers to list (default 10)", 3 },
	{ 0 }
};

static const struct command commands[] = {
	{ "info", xls_cmd_info, "DEV",
	  "Show the log's geometry, head and tail, state and what it holds.", 1, NULL },
	{ "records", xls_cmd_records, "DEV",
	  "One line per log record: LSN, length, ops, CRC.", 1, records_options },
	{ "trans", xls_cmd_trans, "DEV",
	  "Each transaction with every item decoded.", 1, NULL },
	{ "bufs", xls_cmd_bufs, "DEV",
	  "Per transaction, per buffer item: dirty regions, runs, splits, dirty bytes and log cost.",
	  1, bufs_options },
	{ "stats", xls_cmd_stats, "DEV",
	  "Totals and distributions: log bytes by category, buffers by type and size, hottest buffers.",
	  1, stats_options },
	{ "recover", xls_cmd_recover, "DEV",
	  "What log recovery would do, item by item: cancel table, replay or skip and why, pending intents.",
	  1, recover_options },
	{ "history", xls_cmd_history, "DEV",
	  "Every appearance of one buffer (--blkno) and what recovery does with it.",
	  1, history_options },
	{ "copy", xls_cmd_copy, "DEV FILE",
	  "Write the log out to FILE (which must not exist).", 2, NULL },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

struct parse_state {
	const struct command	*cmd;
	struct xls_options	*opt;
	unsigned int		nargs;
	bool			json, csv;
};

static int parse_number(const char *s, int64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return errno || *end || end == s ? -1 : 0;
}

static error_t parse_cmd_opt(int key, char *arg, struct argp_state *state)
{
	struct parse_state *ps = state->input;
	struct xls_options *o = ps->opt;
	int64_t v;

	switch (key) {
	case ARGP_KEY_INIT:
		/* The command's own options share this parser and its input. */
		if (ps && state->child_inputs)
			state->child_inputs[0] = ps;
		break;
	case 'l':	o->src.logdev = arg; break;
	case 'f':	o->src.bare_log = true; break;
	case OPT_FORCE:	o->src.force = true; break;
	case OPT_JSON:	ps->json = true; break;
	case OPT_CSV:	ps->csv = true; break;
	case 'v':	o->verbose = true; break;
	case 'a':	o->all = true; break;
	case OPT_TYPE:	o->type_filter = arg; break;
	case OPT_BLKNO:
		if (parse_number(arg, &v))
			argp_error(state, "bad daddr '%s'", arg);
		o->has_blkno = true;
		o->blkno = v;
		break;
	case OPT_TID:
		if (parse_number(arg, &v) || v < 0 || v > UINT32_MAX)
			argp_error(state, "bad transaction id '%s'", arg);
		o->has_tid = true;
		o->tid = (uint32_t)v;
		break;
	case OPT_TOP:
		if (parse_number(arg, &v) || v < 0 || v > 100000)
			argp_error(state, "bad count '%s'", arg);
		o->top = (unsigned int)v;
		break;
	case OPT_THREADS:
		if (parse_number(arg, &v) || v < 1 || v > 2)
			argp_error(state, "bad thread count '%s' (1 or 2)", arg);
		o->threads = (unsigned int)v;
		break;
	case OPT_REPLAY: o->replay_path = arg; break;
	case OPT_DIFF:	o->diff = true; break;
	case OPT_SVG:	o->svg_path = arg; break;
	case OPT_SUMMARY: o->summary = true; break;
	case ARGP_KEY_ARG:
		if (ps->nargs == 0)
			o->src.path = arg;
		else if (ps->nargs == 1 && ps->cmd->nargs == 2)
			o->out_path = arg;
		else
			argp_error(state, "too many arguments");
		ps->nargs++;
		break;
	case ARGP_KEY_END:
		if (ps->nargs < ps->cmd->nargs)
			argp_error(state, "missing %s", ps->cmd->args_doc);
		if (ps->json && ps->csv)
			argp_error(state, "--json and --csv exclude each other");
		o->fmt = ps->json ? XLS_FMT_JSON : ps->csv ? XLS_FMT_CSV : XLS_FMT_TEXT;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int run_command(const struct command *cmd, int argc, char **argv)
{
	struct argp extra_argp = { cmd->extra, parse_cmd_opt, NULL, NULL, NULL, NULL, NULL };
	/* the command's own options, when it has any, as a child parser */
	struct argp_child children[2] = { { cmd->extra ? &extra_argp : NULL, 0, NULL, 0 },
					  { 0 } };
	struct argp argp = { input_options, parse_cmd_opt, cmd->args_doc, cmd->doc,
			     children, NULL, NULL };
	struct xls_options opt;
	struct parse_state ps = { .cmd = cmd, .opt = &opt };
	struct xls_error err = { XLS_EXIT_OK, "" };
	char prog[64];
	int rc;

	memset(&opt, 0, sizeof(opt));
	opt.top = 10;
	snprintf(prog, sizeof(prog), "xfs_logscope %s", cmd->name);
	argv[0] = prog;
	argp_parse(&argp, argc, argv, 0, NULL, &ps);
	opt.progress = isatty(STDERR_FILENO);
	rc = cmd->run(&opt, &err);
	if (err.status != XLS_EXIT_OK)
		fprintf(stderr, "xfs_logscope: %s\n", err.msg);
	return rc;
}

struct global_state {
	int	cmd_index;	/* argv index of the command */
};

static error_t parse_global(int key, char *arg, struct argp_state *state)
{
	struct global_state *gs = state->input;

	(void)arg;
	switch (key) {
	case 'V':
		printf("xfs_logscope version %s\n", XLS_VERSION);
		exit(0);
	case ARGP_KEY_ARG:
		gs->cmd_index = state->next - 1;
		state->next = state->argc;	/* the rest belongs to the command */
		return 0;
	case ARGP_KEY_NO_ARGS:
		argp_usage(state);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp_option global_options[] = {
	{ "version", 'V', NULL, 0, "print the version and exit", 0 },
	{ 0 }
};

static const char global_doc[] =
	"Decode and analyse the journal of an unmounted XFS filesystem.\v"
	"Commands:\n"
	"  info DEV        geometry, head, tail, state, counts\n"
	"  records DEV     one line per log record\n"
	"  trans DEV       transactions and their items\n"
	"  bufs DEV        buffer items: dirty regions, runs, splits, cost\n"
	"  stats DEV       totals, bytes by category, buffer types, hottest buffers\n"
	"  recover DEV     what log recovery would replay, skip or cancel, and why\n"
	"  history DEV     one buffer (--blkno) and its fate; --replay, --svg\n"
	"  copy DEV FILE   write the log out to FILE\n"
	"\n'xfs_logscope COMMAND --help' lists a command's options.\n"
	"Exit status: 0 fine, 1 findings (CRC errors, corruption), 2 usage,\n"
	"3 input unreadable or not XFS, 4 internal error.";

int main(int argc, char **argv)
{
	struct argp argp = { global_options, parse_global, "COMMAND [ARGS...]",
			     global_doc, NULL, NULL, NULL };
	struct global_state gs = { -1 };
	const char *name;

	argp_err_exit_status = XLS_EXIT_USAGE;
	argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &gs);
	if (gs.cmd_index < 0)
		return XLS_EXIT_USAGE;
	name = argv[gs.cmd_index];
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return run_command(&commands[i], argc - gs.cmd_index,
					   argv + gs.cmd_index);
	fprintf(stderr, "xfs_logscope: unknown command '%s' (see --help)\n", name);
	return XLS_EXIT_USAGE;
}
