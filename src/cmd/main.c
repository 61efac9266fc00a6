/*
 * The list of commands (each declares its own options, words and body in
 * its file, cmd/cmd_NAME.c: struct xls_command), and the command line
 * before the command: global options, help, moved options.
 */
#include <argp.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "pass3/pass3.h"

#ifndef XLS_VERSION
#define XLS_VERSION "unknown"
#endif

/* The commands, in the order the global help lists them. */
#define XLS_COMMANDS(X) \
	X(info) X(records) X(trans) X(bufs) X(stats) X(checkpoints) X(compare) \
	X(recover) X(history) X(files) X(lost) X(replay) X(copy)

#define XLS_DECLARE(name) extern const struct xls_command xls_command_##name;
XLS_COMMANDS(XLS_DECLARE)
#define XLS_LIST(name) &xls_command_##name,
static const struct xls_command *const commands[] = { XLS_COMMANDS(XLS_LIST) };
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct xls_command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* An option given before the command: does its value come as the next word? */
static bool takes_next_word(const char *tok)
{
	int r = xls_opt_shared_takes_next_word(tok);

	for (size_t i = 0; r < 0 && i < NCOMMANDS; i++)
		r = xls_opt_takes_next_word(commands[i]->options, tok);
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

		snprintf(head, sizeof(head), "%s %s", commands[i]->name, commands[i]->args_doc);
		fprintf(f, "  %-15s %s\n", head, commands[i]->summary);
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
	const struct xls_command *cmd = NULL;
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
			return xls_command_main(cmd, 2, help);
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
	i = xls_command_main(cmd, n, args);
	free(args);
	return i;
}
