/* copy: write the log out to a new file, as xfs_logprint -C does. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"

/* copy's second word */
struct copy_opts {
	const char	*out_path;	/* FILE */
};

#define COPY_CHUNK	(4u << 20)

static int copy_log(const struct xls_source *src, FILE *f, const char *dst,
		    struct xls_error *err)
{
	uint64_t total = (uint64_t)src->geo.log_bbs * 512, off;
	uint8_t *buf = malloc(COPY_CHUNK);
	int rc = 0;

	if (!buf)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for a 4 MiB buffer to "
				     "copy the log to '%s'", dst);
	for (off = 0; off < total && !rc; off += COPY_CHUNK) {
		size_t n = total - off < COPY_CHUNK ? (size_t)(total - off) : COPY_CHUNK;

		rc = xls_source_read(src, off, buf, n);
		if (rc) {
			xls_error_set(err, XLS_EXIT_INPUT, "cannot read '%s' at byte %llu (log byte "
				      "%llu): %s", src->path,
				      (unsigned long long)(src->geo.log_offset + off),
				      (unsigned long long)off,
				      rc == -ENODATA ? "it ends there" : strerror(-rc));
			break;
		}
		if (fwrite(buf, 1, n, f) != n) {
			rc = -1;
			xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s' at byte %llu: %s",
				      dst, (unsigned long long)off, strerror(errno ? errno : EIO));
		}
	}
	free(buf);
	return rc ? -1 : 0;
}

static int copy_main(const struct xls_options *opt, struct xls_error *err)
{
	const char *out_path = ((const struct copy_opts *)opt->own)->out_path;
	struct xls_newfile nf;
	struct xls_source src;
	int rc;

	if (xls_newfile_check(out_path, err) || xls_source_open(&src, &opt->src, err))
		return err->status;
	if (xls_newfile_open(&nf, out_path, err)) {
		xls_source_close(&src);
		return err->status;
	}
	rc = copy_log(&src, nf.f, out_path, err);
	if (rc)
		xls_newfile_abort(&nf);
	else
		rc = xls_newfile_commit(&nf, err);
	if (!rc && opt->fmt == XLS_FMT_TEXT)
		printf("copied %llu bytes of log from '%s' to '%s'\n",
		       (unsigned long long)src.geo.log_bbs * 512, src.path, out_path);
	xls_source_close(&src);
	return rc ? err->status : XLS_EXIT_OK;
}

/* FILE, its second word. */
static error_t copy_parse(int key, char *arg, struct argp_state *state)
{
	struct copy_opts *co = xls_cmdline(state)->own;

	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	co->out_path = arg;
	return 0;
}

const struct xls_command xls_command_copy = {
	.name = "copy", .args_doc = "DEV FILE", .nargs = 2,
	.doc = "Write the log out to FILE (which must not exist).",
	.summary = "write the log out to FILE",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_MOUNTED,
	.parse = copy_parse,
	.own_size = sizeof(struct copy_opts), .run = copy_main,
};
