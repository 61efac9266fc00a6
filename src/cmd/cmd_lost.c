/*
 * lost: what zeroing the log (xfs_repair -L) would throw away, in names --
 * the directory entries and inodes recovery would change, summary first,
 * then what recovery drops anyway or leaves to finish, listed apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "semantics/lost.h"
#include "report/verdict.h"

static const struct xls_column dirent_columns[] = {
	XLS_COL(op, -6),
	XLS_COL(dir, 12),
	XLS_COL(ino, 12),
	XLS_COL_AS(path, "DIR PATH", -24),
	XLS_COL(name, -1),
};
#define NDCOLS (sizeof(dirent_columns) / sizeof(dirent_columns[0]))

static const struct xls_column inode_columns[] = {
	XLS_COL(ino, 12),
	XLS_COL(what, -8),
	XLS_COL(mode, -7),
	XLS_COL(path, -24),
	XLS_COL(changes, -1),
};
#define NICOLS (sizeof(inode_columns) / sizeof(inode_columns[0]))

static const struct xls_column found_columns[] = {
	XLS_COL(ino, 12),
	XLS_COL(mode, -7),
	XLS_COL_AS(path, "PATH (as recovery leaves it)", -1),
};
#define NFCOLS (sizeof(found_columns) / sizeof(found_columns[0]))

static const struct xls_column xattr_columns[] = {
	XLS_COL(op, -8),
	XLS_COL(ino, 12),
	XLS_COL(parent, 12),
	XLS_COL(path, -24),
	XLS_COL(name, -1),
};
#define NXCOLS (sizeof(xattr_columns) / sizeof(xattr_columns[0]))

static void print_summary(struct xls_cmd *c, const struct xls_lost_summary *s,
			  struct xls_fieldset *fs)
{
	struct xls_out *o = &c->out;

	xls_fields_reset(fs);
	xls_describe_lost_summary(s, fs);
	if (c->out.fmt == XLS_FMT_JSON) {
		xls_cmd_record(c, XR(lost_summary), fs);
		return;
	}
	if (c->out.fmt != XLS_FMT_TEXT)
		return;
	xls_print_lost_summary(o, s);
	xls_out_printf(o, "\n");
	xls_print_verdict(o, &s->recovery, c->ht.state, XLS_VERDICT_COMPARED);
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

static void print_records(struct xls_cmd *c, const struct xls_lost *l, struct xls_fieldset *fs)
{
	bool text = c->out.fmt == XLS_FMT_TEXT;
	const struct xls_lost_dirent *d;
	const struct xls_lost_inode *in;
	const struct xls_lost_apart *a;
	uint32_t n;

	bool heading = false;

	d = xls_lost_dirents(l, &n);
	for (uint32_t i = 0; i < n; i++) {
		if (!dirent_wanted(c, &d[i]))
			continue;
		c->shown++;
		if (text && !heading) {
			xls_out_printf(&c->out, "\nDirectory entries recovery adds or removes\n");
			xls_out_table_heading(&c->out, dirent_columns, NDCOLS);
			heading = true;
		}
		xls_fields_reset(fs);
		xls_describe_lost_dirent(&d[i], fs);
		if (text)
			xls_out_table_row(&c->out, dirent_columns, NDCOLS, fs);
		else
			record(c, XR(lost_dirent), fs);
	}
	in = xls_lost_inodes(l, &n);
	heading = false;
	for (uint32_t i = 0; i < n; i++) {
		if (!wanted(c, in[i].ino, 0, in[i].path))
			continue;
		c->shown++;
		if (text && !heading) {
			xls_out_printf(&c->out, "\nInodes whose core recovery writes\n");
			xls_out_table_heading(&c->out, inode_columns, NICOLS);
			heading = true;
		}
		xls_fields_reset(fs);
		xls_describe_lost_inode(&in[i], fs);
		if (text)
			xls_out_table_row(&c->out, inode_columns, NICOLS, fs);
		else
			record(c, XR(lost_inode), fs);
	}
	{
		const struct xls_lost_found *lf = xls_lost_founds(l, &n);

		heading = false;
		for (uint32_t i = 0; i < n; i++) {
			if (!wanted(c, lf[i].ino, 0, lf[i].path))
				continue;
			c->shown++;
			if (text && !heading) {
				xls_out_printf(&c->out, "\nInodes xfs_repair -L moves to lost+found (in "
					       "use on the disk, named only by entries recovery adds)\n");
				xls_out_table_heading(&c->out, found_columns, NFCOLS);
				heading = true;
			}
			xls_fields_reset(fs);
			xls_describe_lost_found(&lf[i], fs);
			if (text)
				xls_out_table_row(&c->out, found_columns, NFCOLS, fs);
			else
				record(c, XR(lost_found), fs);
		}
	}
	{
		const struct xls_lost_xattr *x = xls_lost_xattrs(l, &n);

		heading = false;
		for (uint32_t i = 0; i < n; i++) {
			if (!wanted(c, x[i].ino, x[i].parent, x[i].path))
				continue;
			c->shown++;
			if (text && !heading) {
				xls_out_printf(&c->out, "\nXattrs and parent pointers recovery sets or "
					       "removes\n");
				xls_out_table_heading(&c->out, xattr_columns, NXCOLS);
				heading = true;
			}
			xls_fields_reset(fs);
			xls_describe_lost_xattr(&x[i], fs);
			if (text)
				xls_out_table_row(&c->out, xattr_columns, NXCOLS, fs);
			else
				record(c, XR(lost_xattr), fs);
		}
	}
	a = xls_lost_aparts(l, &n);
	if (text && n)
		xls_out_printf(&c->out, "\nApart: what recovery drops anyway or finishes after replay\n");
	for (uint32_t i = 0; i < n; i++) {
		xls_fields_reset(fs);
		xls_describe_lost_apart(&a[i], fs);
		if (!text) {
			record(c, XR(apart), fs);
			continue;
		}
		if (a[i].tid)
			xls_out_printf(&c->out, "  %-10s trans 0x%08x lsn %u/%u: %s\n", a[i].kind,
				       a[i].tid, xls_lsn_cycle(a[i].lsn), xls_lsn_block(a[i].lsn),
				       a[i].what);
		else
			xls_out_printf(&c->out, "  %-10s %s\n", a[i].kind, a[i].what);
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
	if (!lc->l || xls_lost_run(lc->l, &c->log, &c->ht, &c->report, err))
		return -1;
	s = xls_lost_summary(lc->l);
	print_summary(c, s, &lc->fs);
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

int xls_cmd_lost(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .ctx_size = sizeof(struct lost_ctx),
			   .run = run, .release = release }, err);
}
