/*
 * The command line of one command: the shared option groups, declared
 * once, as argp children of the input's options, then the command's own
 * table and parser; the shared keys parsed here into struct xls_options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd/options.h"
#include "replay/overlay.h"

static const struct argp_option input_options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "file", 'f', NULL, 0, "DEV is a bare log (written by copy or xfs_logprint -C)", 1 },
	{ "threads", XLS_OPT_THREADS, "N", 0,
	  "1: read and decode in one thread; 2: read, check and unpack records in a second one (default with 2 CPUs or more and 32 MiB of log to read)", 1 },
	{ "-h", 0, NULL, OPTION_DOC | OPTION_NO_USAGE, "the same as --help", -1 },
	{ 0 }
};

static const struct argp_option mounted_options[] = {
	{ "force", XLS_OPT_FORCE, NULL, 0, "read a device even if it is mounted", 1 },
	{ 0 }
};

static const struct argp_option logdev_options[] = {
	{ "logdev", 'l', "LOGDEV", 0, "the external log device or file", 1 },
	{ 0 }
};

static const struct argp_option output_options[] = {
	{ NULL, 0, NULL, 0, "Output:", 2 },
	{ "json", XLS_OPT_JSON, NULL, 0, "JSON Lines: one object per line", 2 },
	{ "csv", XLS_OPT_CSV, NULL, 0, "comma-separated values with a header line", 2 },
	{ 0 }
};

static const struct argp_option stale_options[] = {
	{ "stale", XLS_OPT_STALE, NULL, 0, "also the transactions before the tail that the log still holds, oldest first, marked stale", 3 },
	{ 0 }
};

/* Said so that the refusal is a sentence, not "unrecognized option". */
static const struct argp_option stale_refused_options[] = {
	{ "stale", XLS_OPT_STALE, NULL, OPTION_HIDDEN, NULL, 3 },
	{ 0 }
};

static int parse_number(const char *s, int64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return errno || *end || end == s ? -1 : 0;
}

/* A transaction id as every output prints it: hexadecimal, 0x optional. */
static int parse_tid(const char *s, uint32_t *tid)
{
	char *end;
	unsigned long long v;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 16);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*tid = (uint32_t)v;
	return 0;
}

/* Bytes, with an optional k/KiB, m/MiB or g/GiB (powers of 1024), at most @max. */
static int parse_size(const char *s, uint64_t max, uint64_t *bytes)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	if (strcasecmp(end, "k") == 0 || strcasecmp(end, "kib") == 0)
		shift = 10;
	else if (strcasecmp(end, "m") == 0 || strcasecmp(end, "mib") == 0)
		shift = 20;
	else if (strcasecmp(end, "g") == 0 || strcasecmp(end, "gib") == 0)
		shift = 30;
	else if (*end)
		return -1;
	if (v > (max >> shift))
		return -1;
	*bytes = (uint64_t)v << shift;
	return 0;
}

/* --type: a comma list, each a spelling xls_blft_parse knows. */
static void parse_types(struct argp_state *state, struct xls_options *o, const char *arg)
{
	char buf[256];
	char *save = NULL;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		argp_error(state, "--type list too long");
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		uint32_t mask = xls_blft_parse(w);

		if (!mask) {
			char known[512];
			size_t n = 0;

			for (unsigned int t = 0; t < XFS_BLFT_MAX_BUF; t++) {
				const char *name = xls_blft_name(t);

				if (strncmp(name, "blft_", 5) != 0 && n < sizeof(known))
					n += (size_t)snprintf(known + n, sizeof(known) - n, " %s", name);
			}
			argp_error(state, "unknown buffer type '%s'; known:%s (also the kernel's "
				   "XFS_BLFT_*_BUF names, super block, inode, dquot, dir, attr, "
				   "bmbt and the other btrees; any case, comma-separated)", w, known);
		}
		o->filter.type_mask |= mask;
	}
	if (!o->filter.type_mask)
		argp_error(state, "--type needs a buffer type");
}

unsigned int xls_opt_count(struct argp_state *state, const char *arg, unsigned int max)
{
	int64_t v;

	if (parse_number(arg, &v) || v < 1 || v > max)
		argp_error(state, "bad count '%s' (1 to %lld)", arg, (long long)max);
	return (unsigned int)v;
}

/* The filters: what bufs, recover, history, trans, checkpoints, files and lost show. */
static error_t parse_filter(int key, char *arg, struct argp_state *state)
{
	struct xls_filter_opts *f = &xls_cmdline(state)->opt->filter;
	uint64_t bytes = 0;
	int64_t v;

	switch (key) {
	case XLS_OPT_TYPE:
		parse_types(state, xls_cmdline(state)->opt, arg);
		break;
	case XLS_OPT_SIZE:
		if (parse_size(arg, UINT32_MAX, &bytes) || !bytes)
			argp_error(state, "bad buffer size '%s' (bytes, or with k or m)", arg);
		f->size = (uint32_t)bytes;
		f->has_size = true;
		break;
	case XLS_OPT_BLKNO:
		if (parse_number(arg, &v) || v < 0)
			argp_error(state, "bad daddr '%s' (a block number of 512 bytes, decimal "
				   "or 0x hex)", arg);
		f->has_blkno = true;
		f->blkno = v;
		break;
	case XLS_OPT_INO:
		if (parse_number(arg, &v) || v < 0)
			argp_error(state, "bad inode number '%s'", arg);
		f->has_ino = true;
		f->ino = (uint64_t)v;
		break;
	case XLS_OPT_PATH:
		if (arg[0] != '/')
			argp_error(state, "--path wants an absolute path (/dir/name), not '%s'", arg);
		f->path_prefix = arg;
		break;
	case XLS_OPT_TID:
		if (parse_tid(arg, &f->tid))
			argp_error(state, "bad transaction id '%s' (hexadecimal, as printed)", arg);
		f->has_tid = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

error_t xls_opt_parse_shared(int key, char *arg, struct argp_state *state)
{
	struct xls_options *o = xls_cmdline(state)->opt;

	switch (key) {
	case XLS_OPT_BLOCKS_MEM:
	case XLS_OPT_BLOCKS_MAX: {
		uint64_t *to = key == XLS_OPT_BLOCKS_MEM ? &o->blocks.mem : &o->blocks.max;

		if (parse_size(arg, UINT64_MAX, to) || *to < XLS_BLOCKS_MEM_MIN)
			argp_error(state, "bad size '%s' (bytes, with k, m or g; at least 64k)", arg);
		return 0;
	}
	case XLS_OPT_QUOTA:
		if (xls_quota_parse(arg, &o->quota.flags))
			argp_error(state, "bad --quota '%s' (mount's words, comma separated: uquota, "
				   "usrquota, quota, uqnoenforce, qnoenforce, gquota, grpquota, "
				   "gqnoenforce, pquota, prjquota, pqnoenforce; or noquota)", arg);
		o->quota.set = true;
		return 0;
	default:
		return parse_filter(key, arg, state);
	}
}

/* How many option groups of its own, besides the input's, @cmd takes. */
static unsigned int command_groups(const struct xls_command *cmd)
{
	return !!(cmd->takes & XLS_TAKES_MOUNTED) + !!(cmd->takes & XLS_TAKES_LOGDEV) +
	       !!(cmd->takes & XLS_TAKES_OUTPUT) + (cmd->options || cmd->parse) +
	       !!(cmd->takes & (XLS_TAKES_STALE | XLS_REFUSES_STALE));
}

/* The groups several commands take: the external log, a mounted device, the format, --stale. */
static error_t parse_group(int key, char *arg, struct argp_state *state)
{
	struct xls_cmdline *cl = xls_cmdline(state);

	switch (key) {
	case 'l':	cl->opt->src.logdev = arg; break;
	case XLS_OPT_FORCE: cl->opt->src.force = true; break;
	case XLS_OPT_JSON: cl->json = true; break;
	case XLS_OPT_CSV: cl->csv = true; break;
	case XLS_OPT_STALE:
		if (!(cl->cmd->takes & XLS_TAKES_STALE))
			argp_error(state, "--stale: %s follows recovery, which never uses the records before the tail", cl->cmd->name);
		cl->opt->stale = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The input's options and the words, before and after every group's. */
static error_t parse_input(int key, char *arg, struct argp_state *state)
{
	struct xls_cmdline *cl = xls_cmdline(state);
	struct xls_options *o = cl->opt;
	int64_t v;

	switch (key) {
	case ARGP_KEY_INIT:
		/* The option groups of the command share this parser's input. */
		for (unsigned int i = 0; state->child_inputs && i < command_groups(cl->cmd); i++)
			state->child_inputs[i] = cl;
		break;
	case 'f':	o->src.bare_log = true; break;
	case XLS_OPT_THREADS:
		if (parse_number(arg, &v) || v < 1 || v > 2)
			argp_error(state, "bad thread count '%s' (1 or 2)", arg);
		o->threads = (unsigned int)v;
		break;
	case ARGP_KEY_ARG:
		/* DEV is every command's; a second word is the command's own */
		if (cl->nargs >= cl->cmd->nargs)
			argp_error(state, "too many arguments");
		if (cl->nargs++ > 0)
			return ARGP_ERR_UNKNOWN;
		o->src.path = arg;
		break;
	case ARGP_KEY_END:
		if (cl->nargs < cl->cmd->nargs)
			argp_error(state, "missing %s", cl->cmd->args_doc);
		if (cl->json && cl->csv)
			argp_error(state, "--json and --csv exclude each other");
		if (o->src.bare_log && o->src.logdev)
			argp_error(state, "-f (DEV is a bare log) and -l (an external log "
				   "device) exclude each other");
		o->fmt = cl->json ? XLS_FMT_JSON : cl->csv ? XLS_FMT_CSV : XLS_FMT_TEXT;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int xls_command_main(const struct xls_command *cmd, int argc, char **argv)
{
	static const struct argp mounted_argp = { mounted_options, parse_group, NULL, NULL,
						  NULL, NULL, NULL };
	static const struct argp logdev_argp = { logdev_options, parse_group, NULL, NULL,
						 NULL, NULL, NULL };
	static const struct argp output_argp = { output_options, parse_group, NULL, NULL,
						 NULL, NULL, NULL };
	static const struct argp stale_argp = { stale_options, parse_group, NULL, NULL,
						NULL, NULL, NULL };
	static const struct argp stale_refused_argp = { stale_refused_options, parse_group,
							NULL, NULL, NULL, NULL, NULL };
	struct argp own_argp = { cmd->options, cmd->parse ? cmd->parse : xls_opt_parse_shared,
				 NULL, NULL, NULL, NULL, NULL };
	/* the option groups the command takes, as child parsers, in command_groups' order */
	const struct argp_child groups[] = {
		{ cmd->takes & XLS_TAKES_MOUNTED ? &mounted_argp : NULL, 0, NULL, 1 },
		{ cmd->takes & XLS_TAKES_LOGDEV ? &logdev_argp : NULL, 0, NULL, 1 },
		{ cmd->takes & XLS_TAKES_OUTPUT ? &output_argp : NULL, 0, NULL, 2 },
		/* its own table, or only its parser (copy's second word) */
		{ cmd->options || cmd->parse ? &own_argp : NULL, 0, NULL, 0 },
		{ cmd->takes & XLS_TAKES_STALE ? &stale_argp :
		  cmd->takes & XLS_REFUSES_STALE ? &stale_refused_argp : NULL, 0, NULL, 0 },
	};
	struct argp_child children[6] = { { 0 } };
	unsigned int nchildren = 0;
	struct argp argp = { input_options, parse_input, cmd->args_doc, cmd->doc,
			     children, NULL, NULL };
	struct xls_options opt;
	struct xls_cmdline cl = { .cmd = cmd, .opt = &opt };
	struct xls_error err = { XLS_EXIT_OK, "" };
	char prog[64];
	int rc;

	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (groups[i].argp)
			children[nchildren++] = groups[i];
	memset(&opt, 0, sizeof(opt));
	if (cmd->own_size && !(cl.own = calloc(1, cmd->own_size))) {
		fprintf(stderr, "xfs_logscope: out of memory for the options of %s\n", cmd->name);
		return XLS_EXIT_INTERNAL;
	}
	opt.own = cl.own;
	opt.blocks.mem = XLS_OVERLAY_MEM_BYTES;
	opt.blocks.max = XLS_OVERLAY_MAX_BYTES;
	opt.src.force_reads_mounted = cmd->takes & XLS_TAKES_MOUNTED;
	snprintf(prog, sizeof(prog), "xfs_logscope %s", cmd->name);
	argv[0] = prog;
	argp_parse(&argp, argc, argv, 0, NULL, &cl);
	opt.progress = isatty(STDERR_FILENO);
	rc = cmd->run(&opt, &err);
	if (err.status != XLS_EXIT_OK)
		fprintf(stderr, "xfs_logscope: %s\n", err.msg);
	free(cl.own);
	return rc;
}

int xls_opt_takes_next_word(const struct argp_option *opts, const char *tok)
{
	for (; opts && (opts->name || opts->key || opts->doc); opts++) {
		if (tok[1] == '-' && opts->name) {
			size_t n = strlen(opts->name);

			if (strncmp(tok + 2, opts->name, n) == 0 &&
			    (tok[2 + n] == '\0' || tok[2 + n] == '='))
				return opts->arg && tok[2 + n] == '\0';
		} else if (tok[1] != '-' && opts->key == tok[1] && opts->key < 0x100) {
			return opts->arg && tok[2] == '\0';
		}
	}
	return -1;
}

int xls_opt_shared_takes_next_word(const char *tok)
{
	const struct argp_option *const tables[] = {
		input_options, mounted_options, logdev_options, output_options,
	};
	int r = -1;

	for (size_t i = 0; r < 0 && i < sizeof(tables) / sizeof(tables[0]); i++)
		r = xls_opt_takes_next_word(tables[i], tok);
	return r;
}
