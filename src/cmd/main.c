/*
 * xfs_logscope: decode and analyse the journal of an unmounted XFS
 * filesystem.  git-style subcommands; each has its own argp parser built
 * from one shared option table for the input and output options.
 */
#include <argp.h>
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "pass3/pass3.h"
#include "replay/overlay.h"

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
	OPT_SIZE,
	OPT_INO,
	OPT_PATH,
	OPT_BLOCKS_MEM,
	OPT_BLOCKS_MAX,
	OPT_LOG_OUT,
	OPT_REPLAY_FORCE,
	OPT_FINISH,
	OPT_QUOTA,
	OPT_IN_PLACE,
	OPT_STALE,
};

/* The shared option groups a command takes besides the input's. */
enum {
	TAKES_LOGDEV = 1 << 0,		/* -l: one external log */
	TAKES_OUTPUT = 1 << 1,		/* --json, --csv */
	TAKES_MOUNTED = 1 << 2,		/* --force: read a mounted device */
	TAKES_STALE = 1 << 3,		/* --stale: the records before the tail too */
	REFUSES_STALE = 1 << 4,		/* recovery's commands: --stale is a usage error */
	TAKES_TWO_LOGS = 1 << 5,	/* the second argument is another journal, not a file to write */
};

struct command {
	const char	*name;
	int		(*run)(const struct xls_options *, struct xls_error *);
	const char	*args_doc;
	const char	*doc;
	unsigned int	nargs;		/* positional arguments */
	const struct argp_option *extra;	/* command-specific options */
	unsigned int	takes;		/* TAKES_* */
	unsigned int	top_max;	/* --top N: the largest N */
	const char	*summary;	/* its line in the global help */
};

static const struct argp_option input_options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "file", 'f', NULL, 0, "DEV is a bare log (written by copy or xfs_logprint -C)", 1 },
	{ "threads", OPT_THREADS, "N", 0,
	  "1: read and decode in one thread; 2: read, check and unpack records in a second one (default with 2 CPUs or more and 32 MiB of log to read)", 1 },
	{ "-h", 0, NULL, OPTION_DOC | OPTION_NO_USAGE, "the same as --help", -1 },
	{ 0 }
};

static const struct argp_option mounted_options[] = {
	{ "force", OPT_FORCE, NULL, 0, "read a device even if it is mounted", 1 },
	{ 0 }
};

static const struct argp_option logdev_options[] = {
	{ "logdev", 'l', "LOGDEV", 0, "the external log device or file", 1 },
	{ 0 }
};

static const struct argp_option output_options[] = {
	{ NULL, 0, NULL, 0, "Output:", 2 },
	{ "json", OPT_JSON, NULL, 0, "JSON Lines: one object per line", 2 },
	{ "csv", OPT_CSV, NULL, 0, "comma-separated values with a header line", 2 },
	{ 0 }
};

static const struct argp_option stale_options[] = {
	{ "stale", OPT_STALE, NULL, 0, "also the transactions before the tail that the log still holds, oldest first, marked stale", 3 },
	{ 0 }
};

/* Said so that the refusal is a sentence, not "unrecognized option". */
static const struct argp_option stale_refused_options[] = {
	{ "stale", OPT_STALE, NULL, OPTION_HIDDEN, NULL, 3 },
	{ 0 }
};

/*
 * The filters bufs and recover share, declared once with one help text:
 * what they keep is shown, the rest is still read (recover decides every
 * item whatever is shown).
 */
#define FILTER_TYPE \
	{ "type", OPT_TYPE, "TYPE[,TYPE]", 0, "only buffers of these types (dir_data, agf, XFS_BLFT_SB_BUF, \"super block\", ...; any case)", 3 }
#define FILTER_SIZE \
	{ "size", OPT_SIZE, "BYTES", 0, "only buffers of this size (4096, 64k)", 3 }
#define FILTER_BLKNO \
	{ "blkno", OPT_BLKNO, "DADDR", 0, "only the buffer (or inode cluster) at this daddr (decimal, or 0x hex)", 3 }
#define FILTER_TID \
	{ "tid", OPT_TID, "TID", 0, "only this transaction (hexadecimal, 0x optional)", 3 }

static const struct argp_option records_options[] = {
	{ "all", 'a', NULL, 0, "every record in physical order, not only tail to head", 3 },
	{ 0 }
};

static const struct argp_option bufs_options[] = {
	{ "verbose", 'v', NULL, 0, "each buffer's dirty map and regions", 3 },
	FILTER_TYPE,
	FILTER_SIZE,
	FILTER_BLKNO,
	FILTER_TID,
	{ "ino", OPT_INO, "INO", 0, "only buffers of this inode: its directory, attr, bmbt or symlink blocks, its inode cluster", 3 },
	{ "svg", OPT_SVG, "FILE", 0, "draw the --top hottest buffers' dirty chunks to FILE (SVG)", 3 },
	{ "top", OPT_TOP, "N", 0, "with --svg: buffers to draw (default 10, at most 64)", 3 },
	{ 0 }
};

/* The quota of the mount that recovers the log: dquots replayed, or not */
#define QUOTA_OPTION \
	{ "quota", OPT_QUOTA, "OPTS", 0, "the quota the filesystem is mounted with, in mount's words (uquota,gquota,pquota and their aliases; noquota): dquot items and buffers replayed or not, the superblock's quota flags kept or reset; default: those its superblock has on", 3 }

static const struct argp_option recover_options[] = {
	{ "verbose", 'v', NULL, 0, "each buffer's dirty map", 3 },
	FILTER_TYPE,
	FILTER_SIZE,
	FILTER_BLKNO,
	FILTER_TID,
	{ "ino", OPT_INO, "INO", 0, "only show the items of this inode: its inode items and the buffers it owns", 3 },
	{ "summary", OPT_SUMMARY, NULL, 0, "only the verdict and the summary", 3 },
	QUOTA_OPTION,
	{ 0 }
};

static const struct argp_option history_options[] = {
	{ "verbose", 'v', NULL, 0, "each appearance's dirty map and regions", 3 },
	{ "blkno", OPT_BLKNO, "DADDR", 0, "the buffer (this or --ino is required)", 3 },
	{ "ino", OPT_INO, "INO", 0, "the inode cluster buffer of this inode, and of its inode items only those of this inode", 3 },
	{ "replay", OPT_REPLAY, "FILE", 0, "write the buffer as recovery leaves it to FILE (must not exist)", 3 },
	{ "diff", OPT_DIFF, NULL, 0, "show the 128-byte chunks replay changes", 3 },
	{ "svg", OPT_SVG, "FILE", 0, "draw its dirty chunks over transactions to FILE (SVG)", 3 },
	{ 0 }
};

static const struct argp_option trans_options[] = {
	{ "ino", OPT_INO, "INO", 0, "only the items that concern this inode (decimal, or 0x hex)", 3 },
	{ 0 }
};

#define BLOCKS_MEM_DOC \
	"memory for the blocks recovery writes, kept to compare with the disk (default 32m; k, m or g after the number; at least 64k): past it they go to a temporary file in TMPDIR, and the answer is the same"
#define BLOCKS_MAX_DOC \
	"the most bytes of the blocks recovery writes kept to compare with the disk, in memory (--blocks-mem) and in a temporary file past it (default 4g, at least 64k): past it the answer is approximate, and says so"

static const struct argp_option files_options[] = {
	{ "ino", OPT_INO, "INO", 0, "only the events of this inode (and of the entries of this directory)", 3 },
	{ "path", OPT_PATH, "PATH", 0, "only the events of the inodes at or under PATH (/dir/name)", 3 },
	{ "blocks-mem", OPT_BLOCKS_MEM, "SIZE", 0, BLOCKS_MEM_DOC, 3 },
	{ "blocks-max", OPT_BLOCKS_MAX, "SIZE", 0, BLOCKS_MAX_DOC, 3 },
	QUOTA_OPTION,
	{ 0 }
};

static const struct argp_option lost_options[] = {
	{ "ino", OPT_INO, "INO", 0, "only what concerns this inode: its entries, core, xattrs (and the entries of this directory)", 3 },
	{ "path", OPT_PATH, "PATH", 0, "only what lies at or under PATH (/dir/name), as recovery leaves it", 3 },
	{ "summary", OPT_SUMMARY, NULL, 0, "only the summary: what is lost, in numbers, and the verdict", 3 },
	{ "blocks-mem", OPT_BLOCKS_MEM, "SIZE", 0, BLOCKS_MEM_DOC, 3 },
	{ "blocks-max", OPT_BLOCKS_MAX, "SIZE", 0, BLOCKS_MAX_DOC, 3 },
	QUOTA_OPTION,
	{ 0 }
};

static const struct argp_option stats_options[] = {
	{ "top", OPT_TOP, "N", 0, "hottest buffers to list (default 10, at most 49152: the buffers the table tracks)", 3 },
	{ "svg", OPT_SVG, "FILE", 0, "draw checkpoints, bytes by category, dirty % and relogged bytes to FILE (SVG)", 3 },
	{ 0 }
};

static const struct argp_option checkpoints_options[] = {
	{ "verbose", 'v', NULL, 0, "each checkpoint's bytes by category, items by type and relog split", 3 },
	{ "tid", OPT_TID, "TID", 0, "only this checkpoint (hexadecimal, 0x optional)", 3 },
	{ "svg", OPT_SVG, "FILE", 0, "draw checkpoint size, bytes by category and relogged bytes over the log to FILE (SVG)", 3 },
	{ 0 }
};

static const struct argp_option replay_options[] = {
	{ "output", 'o', "OUT", 0, "the file to write the recovered filesystem to (must not exist)", 3 },
	{ "in-place", OPT_IN_PLACE, NULL, 0, "write into DEV itself (and LOGDEV), unmounted: the blocks durable before the log is cleaned, so that an interruption leaves a log that recovers to the same", 3 },
	{ "log-out", OPT_LOG_OUT, "OUTLOG", 0, "with -l: the file to write the recovered external log to (must not exist)", 3 },
	{ "force", OPT_REPLAY_FORCE, NULL, 0, "write even when the kernel would fail to recover the log: every block but the failing ones, then xfs_repair must follow", 3 },
	{ "finish", OPT_FINISH, "tool|kernel|repair", 0, "work left after replay (intents, unlinked inodes, CoW staging extents): done here by pass 3, with xfsprogs' libxfs, where this build has it and does that kind (tool, the default; else left to the kernel); left to the kernel's next mount, the log dirty (kernel; mount is the same); or to xfs_repair, the log clean (repair)", 3 },
	QUOTA_OPTION,
	{ 0 }
};

static const struct argp_option compare_options[] = {
	{ "svg", OPT_SVG, "FILE", 0, "draw the two journals side by side to FILE (SVG)", 3 },
	{ 0 }
};

static const struct command commands[] = {
	{ "info", xls_cmd_info, "DEV",
	  "Show the log's geometry, head and tail, state and what it holds.", 1, NULL, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED, 0,
	  "geometry, head, tail, state, counts" },
	{ "records", xls_cmd_records, "DEV",
	  "One line per log record: LSN, length, ops, CRC.", 1, records_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED, 0,
	  "one line per log record" },
	{ "trans", xls_cmd_trans, "DEV",
	  "Each transaction with every item decoded.", 1, trans_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED | TAKES_STALE, 0,
	  "transactions and their items" },
	{ "bufs", xls_cmd_bufs, "DEV",
	  "Per transaction, per buffer item: dirty regions, runs, splits, dirty bytes and log cost.",
	  1, bufs_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED | TAKES_STALE,
	  XLS_SVG_TOP_MAX,
	  "buffer items: dirty regions, runs, splits, cost" },
	{ "stats", xls_cmd_stats, "DEV",
	  "Totals and distributions: log bytes by category, buffers by type and size, hottest buffers.",
	  1, stats_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED | TAKES_STALE,
	  XLS_STATS_TOP_MAX,
	  "totals, bytes by category, buffer types, hottest buffers" },
	{ "checkpoints", xls_cmd_checkpoints, "DEV",
	  "One line per committed checkpoint in commit order: LSNs, log bytes, items, buffers, relogged bytes.",
	  1, checkpoints_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED | TAKES_STALE, 0,
	  "one line per checkpoint: size, items, relogged bytes" },
	{ "compare", xls_cmd_compare, "A B",
	  "Two journals side by side: by buffer type and size and by item type, with deltas and ratios.",
	  2, compare_options, TAKES_OUTPUT | TAKES_MOUNTED | TAKES_TWO_LOGS, 0,
	  "two journals side by side, with deltas and ratios" },
	{ "recover", xls_cmd_recover, "DEV",
	  "What log recovery would do, item by item: cancel table, replay or skip and why, pending intents.",
	  1, recover_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED | REFUSES_STALE, 0,
	  "what log recovery would replay, skip or cancel, and why" },
	{ "history", xls_cmd_history, "DEV",
	  "Every appearance of one buffer (--blkno) and what recovery does with it.",
	  1, history_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED | TAKES_STALE, 0,
	  "one buffer (--blkno) and its fate; --replay, --svg" },
	{ "files", xls_cmd_files, "DEV",
	  "Per inode, in recovery order, what the log does to it: created, freed, changed, names added and removed, xattrs, extents.",
	  1, files_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED | TAKES_STALE, 0,
	  "per inode, what the log does to it, with names" },
	{ "lost", xls_cmd_lost, "DEV",
	  "What zeroing the log (xfs_repair -L) would lose: directory entries and inodes recovery changes.",
	  1, lost_options, TAKES_LOGDEV | TAKES_OUTPUT | TAKES_MOUNTED | REFUSES_STALE, 0,
	  "what zeroing the log (xfs_repair -L) would lose, in names" },
	{ "replay", xls_cmd_replay, "DEV",
	  "Write the filesystem as kernel log recovery leaves it to a new file (-o), without mounting, for a log of either byte order.",
	  1, replay_options, TAKES_LOGDEV | TAKES_OUTPUT | REFUSES_STALE, 0,
	  "-o OUT: the filesystem as recovery leaves it, into OUT" },
	{ "copy", xls_cmd_copy, "DEV FILE",
	  "Write the log out to FILE (which must not exist).", 2, NULL, TAKES_LOGDEV | TAKES_MOUNTED, 0,
	  "write the log out to FILE" },
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

/* How many option groups of its own, besides the input's, @cmd takes. */
static unsigned int command_groups(const struct command *cmd)
{
	return !!(cmd->takes & TAKES_MOUNTED) + !!(cmd->takes & TAKES_LOGDEV) +
	       !!(cmd->takes & TAKES_OUTPUT) + !!cmd->extra +
	       !!(cmd->takes & (TAKES_STALE | REFUSES_STALE));
}

static error_t parse_cmd_opt(int key, char *arg, struct argp_state *state)
{
	struct parse_state *ps = state->input;
	struct xls_options *o = ps->opt;
	int64_t v;

	switch (key) {
	case ARGP_KEY_INIT:
		/* The option groups of the command share this parser and its input. */
		for (unsigned int i = 0; ps && state->child_inputs && i < command_groups(ps->cmd);
		     i++)
			state->child_inputs[i] = ps;
		break;
	case 'l':	o->src.logdev = arg; break;
	case 'f':	o->src.bare_log = true; break;
	case OPT_FORCE:	o->src.force = true; break;
	case OPT_JSON:	ps->json = true; break;
	case OPT_CSV:	ps->csv = true; break;
	case 'v':	o->verbose = true; break;
	case 'a':	o->records.all = true; break;
	case OPT_TYPE:	parse_types(state, o, arg); break;
	case OPT_SIZE:
	{
		uint64_t bytes = 0;

		if (parse_size(arg, UINT32_MAX, &bytes) || !bytes)
			argp_error(state, "bad buffer size '%s' (bytes, or with k or m)", arg);
		o->filter.size = (uint32_t)bytes;
		o->filter.has_size = true;
		break;
	}
	case OPT_BLKNO:
		if (parse_number(arg, &v) || v < 0)
			argp_error(state, "bad daddr '%s' (a block number of 512 bytes, decimal "
				   "or 0x hex)", arg);
		o->filter.has_blkno = true;
		o->filter.blkno = v;
		break;
	case OPT_INO:
		if (parse_number(arg, &v) || v < 0)
			argp_error(state, "bad inode number '%s'", arg);
		o->filter.has_ino = true;
		o->filter.ino = (uint64_t)v;
		break;
	case OPT_PATH:
		if (arg[0] != '/')
			argp_error(state, "--path wants an absolute path (/dir/name), not '%s'", arg);
		o->filter.path_prefix = arg;
		break;
	case OPT_TID:
		if (parse_tid(arg, &o->filter.tid))
			argp_error(state, "bad transaction id '%s' (hexadecimal, as printed)", arg);
		o->filter.has_tid = true;
		break;
	case OPT_TOP: {
		int64_t max = ps->cmd->top_max;

		if (parse_number(arg, &v) || v < 1 || v > max)
			argp_error(state, "bad count '%s' (1 to %lld)", arg, (long long)max);
		o->chart.top = (unsigned int)v;
		break;
	}
	case OPT_BLOCKS_MEM:
	case OPT_BLOCKS_MAX: {
		uint64_t *to = key == OPT_BLOCKS_MEM ? &o->blocks.mem : &o->blocks.max;

		if (parse_size(arg, UINT64_MAX, to) || *to < XLS_BLOCKS_MEM_MIN)
			argp_error(state, "bad size '%s' (bytes, with k, m or g; at least 64k)", arg);
		break;
	}
	case OPT_THREADS:
		if (parse_number(arg, &v) || v < 1 || v > 2)
			argp_error(state, "bad thread count '%s' (1 or 2)", arg);
		o->threads = (unsigned int)v;
		break;
	case OPT_REPLAY: o->history.replay_path = arg; break;
	case 'o':	o->out_path = arg; break;
	case OPT_LOG_OUT: o->replay.log_out_path = arg; break;
	case OPT_REPLAY_FORCE: o->replay.force = true; break;
	case OPT_IN_PLACE: o->replay.in_place = true; break;
	case OPT_FINISH:
		if (strcmp(arg, "tool") && strcmp(arg, "kernel") && strcmp(arg, "mount") &&
		    strcmp(arg, "repair"))
			argp_error(state, "--finish is tool, kernel (or mount) or repair, not '%s'", arg);
		o->replay.finish_repair = !strcmp(arg, "repair");
		o->replay.finish_kernel = !strcmp(arg, "kernel") || !strcmp(arg, "mount");
		break;
	case OPT_QUOTA:
		if (xls_quota_parse(arg, &o->quota.flags))
			argp_error(state, "bad --quota '%s' (mount's words, comma separated: uquota, "
				   "usrquota, quota, uqnoenforce, qnoenforce, gquota, grpquota, "
				   "gqnoenforce, pquota, prjquota, pqnoenforce; or noquota)", arg);
		o->quota.set = true;
		break;
	case OPT_DIFF:	o->history.diff = true; break;
	case OPT_SVG:	o->chart.svg_path = arg; break;
	case OPT_SUMMARY: o->recover.summary = true; break;
	case OPT_STALE:
		if (!(ps->cmd->takes & TAKES_STALE))
			argp_error(state, "--stale: %s follows recovery, which never uses the records before the tail", ps->cmd->name);
		o->stale = true;
		break;
	case ARGP_KEY_ARG:
		if (ps->nargs == 0)
			o->src.path = arg;
		else if (ps->nargs == 1 && (ps->cmd->takes & TAKES_TWO_LOGS))
			o->compare.path_b = arg;
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
		if (o->src.bare_log && o->src.logdev)
			argp_error(state, "-f (DEV is a bare log) and -l (an external log "
				   "device) exclude each other");
		o->fmt = ps->json ? XLS_FMT_JSON : ps->csv ? XLS_FMT_CSV : XLS_FMT_TEXT;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int run_command(const struct command *cmd, int argc, char **argv)
{
	static const struct argp mounted_argp = { mounted_options, parse_cmd_opt, NULL, NULL,
						  NULL, NULL, NULL };
	static const struct argp logdev_argp = { logdev_options, parse_cmd_opt, NULL, NULL,
						 NULL, NULL, NULL };
	static const struct argp output_argp = { output_options, parse_cmd_opt, NULL, NULL,
						 NULL, NULL, NULL };
	static const struct argp stale_argp = { stale_options, parse_cmd_opt, NULL, NULL,
						NULL, NULL, NULL };
	static const struct argp stale_refused_argp = { stale_refused_options, parse_cmd_opt,
							NULL, NULL, NULL, NULL, NULL };
	struct argp extra_argp = { cmd->extra, parse_cmd_opt, NULL, NULL, NULL, NULL, NULL };
	/* the option groups the command takes, as child parsers, in command_groups' order */
	const struct argp_child groups[] = {
		{ cmd->takes & TAKES_MOUNTED ? &mounted_argp : NULL, 0, NULL, 1 },
		{ cmd->takes & TAKES_LOGDEV ? &logdev_argp : NULL, 0, NULL, 1 },
		{ cmd->takes & TAKES_OUTPUT ? &output_argp : NULL, 0, NULL, 2 },
		{ cmd->extra ? &extra_argp : NULL, 0, NULL, 0 },
		{ cmd->takes & TAKES_STALE ? &stale_argp :
		  cmd->takes & REFUSES_STALE ? &stale_refused_argp : NULL, 0, NULL, 0 },
	};
	struct argp_child children[6] = { { 0 } };
	unsigned int nchildren = 0;
	struct argp argp = { input_options, parse_cmd_opt, cmd->args_doc, cmd->doc,
			     children, NULL, NULL };
	struct xls_options opt;
	struct parse_state ps = { .cmd = cmd, .opt = &opt };
	struct xls_error err = { XLS_EXIT_OK, "" };
	char prog[64];
	int rc;

	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (groups[i].argp)
			children[nchildren++] = groups[i];
	memset(&opt, 0, sizeof(opt));
	opt.chart.top = 10;
	opt.blocks.mem = XLS_OVERLAY_MEM_BYTES;
	opt.blocks.max = XLS_OVERLAY_MAX_BYTES;
	opt.src.force_reads_mounted = cmd->takes & TAKES_MOUNTED;
	snprintf(prog, sizeof(prog), "xfs_logscope %s", cmd->name);
	argv[0] = prog;
	argp_parse(&argp, argc, argv, 0, NULL, &ps);
	opt.progress = isatty(STDERR_FILENO);
	rc = cmd->run(&opt, &err);
	if (err.status != XLS_EXIT_OK)
		fprintf(stderr, "xfs_logscope: %s\n", err.msg);
	return rc;
}

/* ------------------------------------------------------------------ */
/* the command line before the command: global options, help, moved options */

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* Whether @opts has an option @tok (--name, --name=..., -c...) taking a value. */
static int table_takes_arg(const struct argp_option *opts, const char *tok)
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

/* An option given before the command: does its value come as the next word? */
static bool takes_next_word(const char *tok)
{
	int r = table_takes_arg(input_options, tok);

	if (r < 0)
		r = table_takes_arg(mounted_options, tok);
	if (r < 0)
		r = table_takes_arg(logdev_options, tok);
	if (r < 0)
		r = table_takes_arg(output_options, tok);
	for (size_t i = 0; r < 0 && i < NCOMMANDS; i++)
		r = table_takes_arg(commands[i].extra, tok);
	return r > 0;
}

static const char global_doc[] =
	"Decode and analyse the journal of an unmounted XFS filesystem.\v"
	"Options may come before or after the command: 'xfs_logscope --json info\n"
	"DEV' is 'xfs_logscope info --json DEV'.  'xfs_logscope COMMAND --help' (or\n"
	"-h) lists a command's options.\n"
	"Exit status: 0 fine, 1 findings (CRC errors, corruption), 2 usage,\n"
	"3 input unreadable or not XFS, or a read (or an in-place write) that\n"
	"failed, 4 internal error or a failed write of output.";

/* The global help's list of commands, made from the one command table. */
static char *global_help_filter(int key, const char *text, void *input)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)input;
	if (key != ARGP_KEY_HELP_POST_DOC || !text)
		return (char *)text;
	f = open_memstream(&buf, &len);
	if (!f)
		return (char *)text;
	fputs("Commands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		char head[64];

		snprintf(head, sizeof(head), "%s %s", commands[i].name, commands[i].args_doc);
		fprintf(f, "  %-15s %s\n", head, commands[i].summary);
	}
	fprintf(f, "  %-15s %s\n\n%s", "help [COMMAND]", "this text, or a command's options", text);
	if (fclose(f))
		return (char *)text;
	return buf;
}

static const struct argp_option global_options[] = {
	{ "version", 'V', NULL, 0, "print the version and exit", 0 },
	{ "-h", 0, NULL, OPTION_DOC | OPTION_NO_USAGE, "the same as --help", -1 },
	{ 0 }
};

static error_t parse_global(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	switch (key) {
	case 'V':
		printf("xfs_logscope version %s\n", XLS_VERSION);
		if (xls_pass3_build())
			printf("pass 3: %s\n", xls_pass3_build());
		else
			printf("pass 3: none: %s\n", xls_pass3_unavailable());
		exit(0);
	case ARGP_KEY_ARG:
		argp_error(state, "unknown command '%s'", arg);
		return 0;
	case ARGP_KEY_NO_ARGS:
		argp_usage(state);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* No command: the global options alone (--help, --version, usage errors). */
static int run_global(int argc, char **argv)
{
	struct argp argp = { global_options, parse_global, "COMMAND [ARGS...]",
			     global_doc, NULL, global_help_filter, NULL };

	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	return XLS_EXIT_USAGE;
}

/*
 * The command and its words: the options given before the command move
 * after it, -h becomes --help, and "help [COMMAND]" is --help.
 */
int main(int argc, char **argv)
{
	const struct command *cmd = NULL;
	int n = 1, cmd_at = -1, i;
	char **args;

	argp_err_exit_status = XLS_EXIT_USAGE;
	/*
	 * A block buffer taken and freed per directory or btree block must not
	 * give its pages back each time: with glibc's default (a threshold that
	 * moves), the top of the heap was trimmed and faulted in again a
	 * thousand times on one log.  Large memory comes from base/bigmem.c.
	 */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0)
			argv[i] = (char *)"--help";
	}
	for (i = 1; i < argc && cmd_at < 0; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			if (strcmp(argv[i], "--") == 0)
				break;
			if (takes_next_word(argv[i]) && i + 1 < argc)
				i++;
			continue;
		}
		cmd_at = i;
	}
	for (i = 1; i < (cmd_at < 0 ? argc : cmd_at); i++)
		if (strcmp(argv[i], "-V") == 0 || strcmp(argv[i], "--version") == 0)
			return run_global(i + 1, argv);
	if (cmd_at < 0)
		return run_global(argc, argv);
	if (strcmp(argv[cmd_at], "help") == 0) {
		char *help[] = { argv[0], (char *)"--help", NULL };

		if (cmd_at + 1 < argc && (cmd = find_command(argv[cmd_at + 1])) != NULL) {
			help[0] = argv[cmd_at + 1];
			return run_command(cmd, 2, help);
		}
		if (cmd_at + 1 < argc) {
			fprintf(stderr, "xfs_logscope: unknown command '%s' (see --help)\n",
				argv[cmd_at + 1]);
			return XLS_EXIT_USAGE;
		}
		return run_global(2, help);
	}
	cmd = find_command(argv[cmd_at]);
	if (!cmd) {
		/* --version or --help before a word that is no command */
		for (i = 1; i < cmd_at; i++)
			if (strcmp(argv[i], "-V") == 0 || strcmp(argv[i], "--version") == 0 ||
			    strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "--usage") == 0)
				return run_global(cmd_at, argv);
		fprintf(stderr, "xfs_logscope: unknown command '%s' (see --help)\n",
			argv[cmd_at]);
		return XLS_EXIT_USAGE;
	}
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return XLS_EXIT_INTERNAL;
	args[0] = argv[cmd_at];
	for (i = 1; i < cmd_at; i++)
		args[n++] = argv[i];
	for (i = cmd_at + 1; i < argc; i++)
		args[n++] = argv[i];
	i = run_command(cmd, n, args);
	free(args);
	return i;
}
