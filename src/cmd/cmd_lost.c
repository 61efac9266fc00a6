/*
 * lost: what zeroing the log (xfs_repair -L) would throw away, in names --
 * the directory entries and inodes recovery would change, summary first,
 * then what recovery drops anyway or leaves to finish, listed apart.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/describe_semantics.h"
#include "cmd/options.h"
#include "semantics/lost.h"

/* lost's own options */
struct lost_opts {
	bool	summary;	/* --summary: what is lost, in numbers, and the verdict */
};

static void print_summary(struct xls_cmd *c, const struct xls_lost_summary *s,
			  struct xls_fieldset *fs)
{
	xls_fields_reset(fs);
	xls_describe_lost_summary(s, fs);
	if (c->out.fmt == XLS_FMT_JSON)
		xls_cmd_record(c, XR(lost_summary), fs);
	else if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_lost_summary(&c->out, s, c->ht.state);
}

/* Is @path @prefix or below it? */
static bool under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (!path || strncmp(path, prefix, n) != 0)
		return false;
	return path[n] == '\0' || path[n] == '/' || (n == 1 && prefix[0] == '/');
}

/* --ino and --path: does a record of inode @ino (in @dir, 0 none) at @path pass? */
static bool wanted(const struct xls_cmd *c, uint64_t ino, uint64_t dir, const char *path)
{
	const struct xls_options *o = c->opt;

	if (o->filter.has_ino && ino != o->filter.ino && dir != o->filter.ino)
		return false;
	return !o->filter.path_prefix || under(path, o->filter.path_prefix);
}

/* An entry's own path: its directory's, then its name. */
static bool dirent_wanted(const struct xls_cmd *c, const struct xls_lost_dirent *d)
{
	char path[4096];

	if (!c->opt->filter.path_prefix)
		return wanted(c, d->ino, d->dir, NULL);
	if (!d->dir_path)
		return false;
	snprintf(path, sizeof(path), "%s%s%s", d->dir_path,
		 d->dir_path[0] && d->dir_path[strlen(d->dir_path) - 1] == '/' ? "" : "/", d->name);
	return wanted(c, d->ino, d->dir, path);
}

/* One record; in CSV, where every kind shares one header, its kind is a column. */
static void record(struct xls_cmd *c, const struct xls_record_kind *kind,
		   struct xls_fieldset *fs)
{
	if (c->out.fmt == XLS_FMT_CSV)
		xls_field_str(fs, XK(record), kind->name);
	xls_cmd_record(c, kind, fs);
}

/*
 * One record of @part, described in @fs: in text, a row under the part's
 * heading, written before its first row (@shown counts them).
 */
static void show(struct xls_cmd *c, enum xls_lost_part part, const struct xls_record_kind *kind,
		 struct xls_fieldset *fs, uint32_t *shown)
{
	c->shown++;
	if (c->out.fmt != XLS_FMT_TEXT) {
		record(c, kind, fs);
		return;
	}
	if (!(*shown)++)
		xls_print_lost_heading(&c->out, part);
	xls_print_lost_row(&c->out, part, fs);
}

/*
 * A path per record, asked of @l as it is printed (xls_lost_path); the
 * same directory's or inode's as the record before is asked once.
 */
struct lost_path {
	uint64_t	ino;		/* of @path; 0 none yet */
	const char	*path;		/* @buf, or NULL: not known */
	char		buf[4096];
};

static const char *path_of(struct xls_lost *l, struct lost_path *p, uint64_t ino)
{
	if (p->ino != ino) {
		p->ino = ino;
		p->path = xls_lost_path(l, ino, p->buf, sizeof(p->buf));
	}
	return p->path;
}

static void describe_inode(const void *one, struct xls_fieldset *fs)
{
	xls_describe_lost_inode(one, fs);
}

static void describe_found(const void *one, struct xls_fieldset *fs)
{
	xls_describe_lost_found(one, fs);
}

static void describe_xattr(const void *one, struct xls_fieldset *fs)
{
	xls_describe_lost_xattr(one, fs);
}

/* The parts whose records are of an inode, where the filters and the path apply alike. */
struct inode_part {
	enum xls_lost_part		part;
	const struct xls_record_kind	*kind;
	size_t				size;		/* of a record */
	size_t				path_at;	/* of its path */
	size_t				parent_at;	/* of its parent, or 0: none */
	void				(*describe)(const void *one, struct xls_fieldset *fs);
};

/* The records of @part, @n at @recs, each with its path, those the filters keep. */
static void print_inode_part(struct xls_cmd *c, struct xls_lost *l, struct lost_path *p,
			     const struct inode_part *part, const void *recs, uint32_t n,
			     struct xls_fieldset *fs)
{
	union {
		struct xls_lost_inode	inode;
		struct xls_lost_found	found;
		struct xls_lost_xattr	xattr;
	} one;
	uint32_t shown = 0;
	uint64_t ino, parent = 0;
	const char *path;

	for (uint32_t i = 0; i < n; i++) {
		memcpy(&one, (const uint8_t *)recs + i * part->size, part->size);
		memcpy(&ino, &one, sizeof(ino));	/* first in each (asserted below) */
		if (part->parent_at)
			memcpy(&parent, (const uint8_t *)&one + part->parent_at, sizeof(parent));
		path = path_of(l, p, ino);
		memcpy((uint8_t *)&one + part->path_at, &path, sizeof(path));
		if (!wanted(c, ino, parent, path))
			continue;
		xls_fields_reset(fs);
		part->describe(&one, fs);
		show(c, part->part, part->kind, fs, &shown);
	}
}

_Static_assert(offsetof(struct xls_lost_inode, ino) == 0 &&
	       offsetof(struct xls_lost_found, ino) == 0 &&
	       offsetof(struct xls_lost_xattr, ino) == 0, "an inode part's record begins with ino");

static void print_records(struct xls_cmd *c, struct xls_lost *l, struct xls_fieldset *fs)
{
	const struct inode_part inodes = {
		XLS_LOST_INODES, XR(lost_inode), sizeof(struct xls_lost_inode),
		offsetof(struct xls_lost_inode, path), 0, describe_inode,
	}, founds = {
		XLS_LOST_FOUND, XR(lost_found), sizeof(struct xls_lost_found),
		offsetof(struct xls_lost_found, path), 0, describe_found,
	}, xattrs = {
		XLS_LOST_XATTRS, XR(lost_xattr), sizeof(struct xls_lost_xattr),
		offsetof(struct xls_lost_xattr, path), offsetof(struct xls_lost_xattr, parent),
		describe_xattr,
	};
	const struct xls_lost_dirent *d;
	const struct xls_lost_apart *a;
	const void *recs;
	struct lost_path p = { 0 };
	uint32_t n, shown = 0;

	d = xls_lost_dirents(l, &n);
	for (uint32_t i = 0; i < n; i++) {
		struct xls_lost_dirent one = d[i];

		one.dir_path = path_of(l, &p, one.dir);
		if (!dirent_wanted(c, &one))
			continue;
		xls_fields_reset(fs);
		xls_describe_lost_dirent(&one, fs);
		show(c, XLS_LOST_DIRENTS, XR(lost_dirent), fs, &shown);
	}
	recs = xls_lost_inodes(l, &n);
	print_inode_part(c, l, &p, &inodes, recs, n, fs);
	recs = xls_lost_founds(l, &n);
	print_inode_part(c, l, &p, &founds, recs, n, fs);
	recs = xls_lost_xattrs(l, &n);
	print_inode_part(c, l, &p, &xattrs, recs, n, fs);
	a = xls_lost_aparts(l, &n);
	for (uint32_t i = 0; i < n; i++) {
		if (c->out.fmt == XLS_FMT_TEXT) {
			xls_print_lost_apart(&c->out, &a[i], i == 0);
			continue;
		}
		xls_fields_reset(fs);
		xls_describe_lost_apart(&a[i], fs);
		record(c, XR(apart), fs);
	}
}

struct lost_ctx {
	struct xls_fieldset	fs;
	struct xls_lost		*l;
};

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct lost_ctx *lc = ctx;
	const struct xls_lost_summary *s;

	xls_out_csv_layout(&c->out, &xls_csv_lost);
	xls_cmd_filters(c, "entry, inode or xattr");
	lc->l = xls_lost_new(&c->src, c->opt->blocks.mem, c->opt->blocks.max, err);
	if (lc->l)
		xls_lost_set_quota(lc->l, &c->opt->quota);
	if (!lc->l || xls_lost_run(lc->l, &c->log, &c->ht, &c->report, err))
		return -1;
	s = xls_lost_summary(lc->l);
	print_summary(c, s, &lc->fs);
	if (!((const struct lost_opts *)c->opt->own)->summary)
		print_records(c, lc->l, &lc->fs);
	/* an approximate answer is a finding: the exit status says so */
	if (s->overlay_full)
		c->findings++;
	return 0;
}

static void release(void *ctx)
{
	struct lost_ctx *lc = ctx;

	xls_lost_free(lc->l);
}

static int lost_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .ctx_size = sizeof(struct lost_ctx),
			   .run = run, .release = release }, err);
}

static const struct argp_option lost_options[] = {
	{ "ino", XLS_OPT_INO, "INO", 0, "only what concerns this inode: its entries, core, xattrs (and the entries of this directory)", 3 },
	{ "path", XLS_OPT_PATH, "PATH", 0, "only what lies at or under PATH (/dir/name), as recovery leaves it", 3 },
	{ "summary", XLS_OPT_OWN, NULL, 0, "only the summary: what is lost, in numbers, and the verdict", 3 },
	XLS_OPTION_BLOCKS,
	XLS_OPTION_QUOTA,
	{ 0 }
};

static error_t lost_parse(int key, char *arg, struct argp_state *state)
{
	struct lost_opts *lo = xls_cmdline(state)->own;

	if (key != XLS_OPT_OWN)
		return xls_opt_parse_shared(key, arg, state);
	lo->summary = true;
	return 0;
}

const struct xls_command xls_command_lost = {
	.name = "lost", .args_doc = "DEV", .nargs = 1,
	.doc = "What zeroing the log (xfs_repair -L) would lose: directory entries and inodes recovery changes.",
	.summary = "what zeroing the log (xfs_repair -L) would lose, in names",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED | XLS_REFUSES_STALE,
	.options = lost_options, .parse = lost_parse,
	.own_size = sizeof(struct lost_opts), .run = lost_main,
};
