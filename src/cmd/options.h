/*
 * The command line: what a command is (its name, words, options and body),
 * the option groups several commands share, declared once, and the parser
 * that runs a command with the groups it names and the options it declares.
 * A command's own options are its file's: a table, a parser, and a struct
 * of its own that the parser fills (struct xls_options' @own).
 */
#ifndef XLS_OPTIONS_H
#define XLS_OPTIONS_H

#include <argp.h>
#include <stddef.h>
#include "cmd/cmd.h"

/*
 * The keys of the shared options.  A command's own options take keys from
 * XLS_OPT_OWN up (or a short option letter); a command may also list a
 * shared key with help of its own (history's --blkno), parsed as shared.
 */
enum xls_opt_key {
	XLS_OPT_JSON = 'j',
	XLS_OPT_CSV = 0x100,
	XLS_OPT_FORCE,
	XLS_OPT_THREADS,
	XLS_OPT_STALE,
	XLS_OPT_TYPE,
	XLS_OPT_SIZE,
	XLS_OPT_BLKNO,
	XLS_OPT_TID,
	XLS_OPT_INO,
	XLS_OPT_PATH,
	XLS_OPT_QUOTA,
	XLS_OPT_BLOCKS_MEM,
	XLS_OPT_BLOCKS_MAX,
	XLS_OPT_OWN = 0x200,
};

/* The shared option groups a command takes besides the input's. */
enum {
	XLS_TAKES_LOGDEV = 1 << 0,	/* -l: one external log */
	XLS_TAKES_OUTPUT = 1 << 1,	/* --json, --csv */
	XLS_TAKES_MOUNTED = 1 << 2,	/* --force: read a mounted device */
	XLS_TAKES_STALE = 1 << 3,	/* --stale: the records before the tail too */
	XLS_REFUSES_STALE = 1 << 4,	/* recovery's commands: --stale is a usage error */
};

/* One command: the command list (main.c) names each one's. */
struct xls_command {
	const char	*name;
	const char	*args_doc;	/* its positional words: "DEV", "A B" */
	const char	*doc;		/* its help's first line */
	const char	*summary;	/* its line in the global help */
	unsigned int	nargs;		/* positional words, all required */
	unsigned int	takes;		/* XLS_TAKES_*, XLS_REFUSES_STALE */
	/*
	 * its own options (NULL: none; never an empty table, which argp's help
	 * leaks), parsed by @parse into @own_size bytes, zeroed; @parse alone
	 * takes words and no option
	 */
	const struct argp_option *options;
	argp_parser_t	parse;
	size_t		own_size;
	int		(*run)(const struct xls_options *opt, struct xls_error *err);
};

/*
 * What a command's parser reaches through state->input: the command, the
 * shared options and the command's own (NULL without @own_size).
 */
struct xls_cmdline {
	const struct xls_command *cmd;
	struct xls_options	*opt;
	void			*own;
	unsigned int		nargs;		/* positional words so far */
	bool			json, csv;
};

/*
 * The shared filters and settings, one declaration and one help text each,
 * for the commands' tables: what they keep is shown, the rest is still
 * read.  A command whose --ino or --path means something of its own
 * declares it with its own text and the shared key.
 */
#define XLS_OPTION_TYPE \
	{ "type", XLS_OPT_TYPE, "TYPE[,TYPE]", 0, "only buffers of these types (dir_data, agf, XFS_BLFT_SB_BUF, \"super block\", ...; any case)", 3 }
#define XLS_OPTION_SIZE \
	{ "size", XLS_OPT_SIZE, "BYTES", 0, "only buffers of this size (4096, 64k)", 3 }
#define XLS_OPTION_BLKNO \
	{ "blkno", XLS_OPT_BLKNO, "DADDR", 0, "only the buffer (or inode cluster) at this daddr (decimal, or 0x hex)", 3 }
#define XLS_OPTION_TID \
	{ "tid", XLS_OPT_TID, "TID", 0, "only this transaction (hexadecimal, 0x optional)", 3 }
/* The quota of the mount that recovers the log: dquots replayed, or not */
#define XLS_OPTION_QUOTA \
	{ "quota", XLS_OPT_QUOTA, "OPTS", 0, "the quota the filesystem is mounted with, in mount's words (uquota,gquota,pquota and their aliases; noquota): dquot items and buffers replayed or not, the superblock's quota flags kept or reset; default: those its superblock has on", 3 }
/* lost, files: the blocks recovery writes, kept to compare */
#define XLS_OPTION_BLOCKS \
	{ "blocks-mem", XLS_OPT_BLOCKS_MEM, "SIZE", 0, "memory for the blocks recovery writes, kept to compare with the disk (default 16m; k, m or g after the number; at least 64k): past it they go to a temporary file in TMPDIR, and the answer is the same", 3 }, \
	{ "blocks-max", XLS_OPT_BLOCKS_MAX, "SIZE", 0, "the most bytes of the blocks recovery writes kept to compare with the disk, in memory (--blocks-mem) and in a temporary file past it (default 4g, at least 64k): past it the answer is approximate, and says so", 3 }

/* The parser of the shared keys, for a command's parser to end in (default:). */
error_t xls_opt_parse_shared(int key, char *arg, struct argp_state *state);

/* The command line of @state: its command, its shared and its own options. */
static inline struct xls_cmdline *xls_cmdline(const struct argp_state *state)
{
	return state->input;
}

/* A count from 1 to @max (--top), or a usage error naming @arg. */
unsigned int xls_opt_count(struct argp_state *state, const char *arg, unsigned int max);

/* Run @cmd on its words @argv (argv[0] the command's name); the exit status. */
int xls_command_main(const struct xls_command *cmd, int argc, char **argv);

/* Whether option word @tok (--name, --name=..., -c) of @opts takes its value as the next word: 1, 0, or -1 not in @opts. */
int xls_opt_takes_next_word(const struct argp_option *opts, const char *tok);

/* Of the options every command may take (input, output, mounted, logdev): as above. */
int xls_opt_shared_takes_next_word(const char *tok);

#endif /* XLS_OPTIONS_H */
