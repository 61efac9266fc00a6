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

/*
 * The parts whose records are of an inode, where the filters and the path
 * apply alike: the next record of each into @one, from the list as lost
 * keeps it (@c), false at its end.
 */
union inode_rec {
	struct xls_lost_inode	inode;
	struct xls_lost_found	found;
	struct xls_lost_xattr	xattr;
};

struct inode_part {
	enum xls_lost_part		part;
	const struct xls_record_kind	*kind;
	bool	(*next)(struct xls_lost *l, struct xls_lost_cursor *c, union inode_rec *one,
			uint64_t *ino, uint64_t *parent, const char ***path);
	void	(*describe)(const union inode_rec *one, struct xls_fieldset *fs);
};

static bool next_inode(struct xls_lost *l, struct xls_lost_cursor *c, union inode_rec *one,
		       uint64_t *ino, uint64_t *parent, const char ***path)
{
	if (!xls_lost_next_inode(l, c, &one->inode))
		return false;
	*ino = one->inode.ino;
	*parent = 0;
	*path = &one->inode.path;
	return true;
}

static bool next_found(struct xls_lost *l, struct xls_lost_cursor *c, union inode_rec *one,
		       uint64_t *ino, uint64_t *parent, const char ***path)
{
	uint32_t n;
	const struct xls_lost_found *f = xls_lost_founds(l, &n);

	if (c->i >= n)
		return false;
	one->found = f[c->i++];
	*ino = one->found.ino;
	*parent = 0;
	*path = &one->found.path;
	return true;
}

static bool next_xattr(struct xls_lost *l, struct xls_lost_cursor *c, union inode_rec *one,
		       uint64_t *ino, uint64_t *parent, const char ***path)
{
	uint32_t n;
	const struct xls_lost_xattr *x = xls_lost_xattrs(l, &n);

	if (c->i >= n)
		return false;
	one->xattr = x[c->i++];
	*ino = one->xattr.ino;
	*parent = one->xattr.parent;
	*path = &one->xattr.path;
	return true;
}

static void describe_inode(const union inode_rec *one, struct xls_fieldset *fs)
{
	xls_describe_lost_inode(&one->inode, fs);
}

static void describe_found(const union inode_rec *one, struct xls_fieldset *fs)
{
	xls_describe_lost_found(&one->found, fs);
}

static void describe_xattr(const union inode_rec *one, struct xls_fieldset *fs)
{
	xls_describe_lost_xattr(&one->xattr, fs);
}

/* The records of @part, each with its path, those the filters keep. */
static void print_inode_part(struct xls_cmd *c, struct xls_lost *l, struct lost_path *p,
			     const struct inode_part *part, struct xls_fieldset *fs)
{
	struct xls_lost_cursor cur = { 0, 0 };
	union inode_rec one;
	uint32_t shown = 0;
	uint64_t ino, parent;
	const char **path;

	while (part->next(l, &cur, &one, &ino, &parent, &path)) {
		*path = path_of(l, p, ino);
		if (!wanted(c, ino, parent, *path))
			continue;
		xls_fields_reset(fs);
		part->describe(&one, fs);
		show(c, part->part, part->kind, fs, &shown);
	}
}

static void print_records(struct xls_cmd *c, struct xls_lost *l, struct xls_fieldset *fs)
{
	const struct inode_part inodes = {
		XLS_LOST_INODES, XR(lost_inode), next_inode, describe_inode,
	}, founds = {
		XLS_LOST_FOUND, XR(lost_found), next_found, describe_found,
	}, xattrs = {
		XLS_LOST_XATTRS, XR(lost_xattr), next_xattr, describe_xattr,
	};
	struct xls_lost_cursor cur = { 0, 0 };
	struct xls_lost_dirent one;
	const struct xls_lost_apart *a;
	struct lost_path p = { 0 };
	uint32_t n, shown = 0;

	while (xls_lost_next_dirent(l, &cur, &one)) {
		one.dir_path = path_of(l, &p, one.dir);
		if (!dirent_wanted(c, &one))
			continue;
		xls_fields_reset(fs);
		xls_describe_lost_dirent(&one, fs);
		show(c, XLS_LOST_DIRENTS, XR(lost_dirent), fs, &shown);
	}
	print_inode_part(c, l, &p, &inodes, fs);
	print_inode_part(c, l, &p, &founds, fs);
	print_inode_part(c, l, &p, &xattrs, fs);
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
	if (xls_lost_read_error(lc->l, err))
		return -1;
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
