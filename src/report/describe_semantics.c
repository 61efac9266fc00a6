/*
 * Report stage: the results of the semantics stage -- what zeroing the
 * log loses (lost), what the log does to each file (files) -- as field
 * tables.
 */
#include <stdio.h>

#include "report/describe.h"

void xls_describe_lost_summary(const struct xls_lost_summary *s, struct xls_fieldset *fs)
{
	xls_field_uint(fs, "dirents_added", s->dirents_added);
	xls_field_uint(fs, "dirents_removed", s->dirents_removed);
	xls_field_uint(fs, "inodes_created", s->inodes_created);
	xls_field_uint(fs, "inodes_freed", s->inodes_freed);
	xls_field_uint(fs, "inodes_changed", s->inodes_changed);
	xls_field_uint(fs, "metadata_bytes", s->metadata_bytes);
	xls_field_uint(fs, "dirs_compared", s->dirs_compared);
	xls_field_uint(fs, "inodes_compared", s->inodes_compared);
	xls_field_uint(fs, "trans_replayed", s->trans_replayed);
	xls_field_uint(fs, "trans_discarded", s->trans_discarded);
	xls_field_uint(fs, "intents_pending", s->intents_pending);
	xls_field_bool(fs, "recovery_fails", s->recovery_fails);
	if (s->recovery_fails)
		xls_field_str(fs, "fail_why", s->fail_why);
	xls_field_bool(fs, "approximate", s->overlay_full);
	xls_field_uint(fs, "overlay_bytes", s->overlay_bytes);
	xls_field_uint(fs, "overlay_max_bytes", s->overlay_max);
	if (s->dir_problems) {
		char buf[160];

		xls_dir_problems_str(s->dir_problems, buf, sizeof(buf));
		xls_field_str(fs, "dir_problems", buf);
	}
}

void xls_describe_lost_dirent(const struct xls_lost_dirent *d, struct xls_fieldset *fs)
{
	xls_field_hex(fs, "dir", d->dir);
	if (d->dir_path)
		xls_field_str(fs, "path", d->dir_path);
	xls_field_str(fs, "name", d->name);
	xls_field_hex(fs, "ino", d->ino);
	xls_field_str(fs, "op", d->add ? "add" : "remove");
}

static void change_text(const void *elem, char *buf, size_t bufsz)
{
	const struct xls_lost_change *c = elem;

	snprintf(buf, bufsz, "%s %llu->%llu", c->field, (unsigned long long)c->disk,
		 (unsigned long long)c->recovered);
}

static const struct xls_member change_members[] = {
	XLS_MEMBER("field", XLS_FIELD_STR, struct xls_lost_change, field),
	XLS_MEMBER("disk", XLS_FIELD_UINT, struct xls_lost_change, disk),
	XLS_MEMBER("recovered", XLS_FIELD_UINT, struct xls_lost_change, recovered),
};

static const struct xls_list change_list = {
	change_members, 3, sizeof(struct xls_lost_change), change_text, " ", NULL,
};

void xls_describe_lost_inode(const struct xls_lost_inode *in, struct xls_fieldset *fs)
{
	xls_field_hex(fs, "ino", in->ino);
	if (in->path)
		xls_field_str(fs, "path", in->path);
	xls_field_str(fs, "what", in->what);
	xls_field_oct(fs, "mode", in->mode);
	xls_field_list(fs, "changes", &change_list, in->changes, in->nchanges);
}

void xls_describe_lost_apart(const struct xls_lost_apart *a, struct xls_fieldset *fs)
{
	xls_field_str(fs, "apart", a->kind);
	if (a->tid)
		xls_field_hex(fs, "tid", a->tid);
	if (a->lsn)
		xls_field_lsn(fs, "lsn", a->lsn);
	if (a->id)
		xls_field_hex(fs, "id", a->id);
	xls_field_str(fs, "what", a->what);
}
