/*
 * Report stage: the results of the semantics stage -- what zeroing the
 * log loses (lost), what the log does to each file (files) -- as field
 * tables.
 */
#include <stdio.h>
#include <string.h>

#include "base/strfmt.h"
#include "report/describe_semantics.h"
#include "report/verdict.h"
#include "semantics/names.h"

void xls_describe_lost_summary(const struct xls_lost_summary *s, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(dirents_added), s->dirents_added);
	xls_field_uint(fs, XK(dirents_removed), s->dirents_removed);
	xls_field_uint(fs, XK(inodes_created), s->inodes_created);
	xls_field_uint(fs, XK(inodes_freed), s->inodes_freed);
	xls_field_uint(fs, XK(inodes_changed), s->inodes_changed);
	xls_field_uint(fs, XK(xattrs_changed), s->xattrs_changed);
	xls_field_uint(fs, XK(lost_found), s->lost_found);
	xls_field_uint(fs, XK(metadata_bytes), s->metadata_bytes);
	xls_field_uint(fs, XK(dirs_compared), s->dirs_compared);
	xls_field_uint(fs, XK(inodes_compared), s->inodes_compared);
	xls_describe_verdict(&s->recovery, XLS_VERDICT_COMPARED, s->overlay_full, fs);
	xls_field_uint(fs, XK(overlay_bytes), s->overlay_bytes);
	xls_field_uint(fs, XK(overlay_max_bytes), s->overlay_max);
	xls_field_uint(fs, XK(overlay_spilled_bytes), s->overlay_spilled);
	if (s->dir_problems) {
		char buf[160];

		xls_dir_problems_str(s->dir_problems, buf, sizeof(buf));
		xls_field_str(fs, XK(dir_problems), buf);
	}
}

void xls_describe_lost_dirent(const struct xls_lost_dirent *d, struct xls_fieldset *fs)
{
	xls_field_hex(fs, XK(dir), d->dir);
	if (d->dir_path)
		xls_field_str(fs, XK(path), d->dir_path);
	xls_field_str(fs, XK(name), d->name);
	xls_field_hex(fs, XK(ino), d->ino);
	xls_field_str(fs, XK(op), d->add ? "add" : "remove");
}

/* A change as written: its field's name and both values in their kind. */
/*
 * A change: the values as numbers (times signed), whatever the field, and
 * as the field is shown (an octal mode, hex flags, a fork format's name,
 * a time in ISO 8601), so that each key has one type.
 */
struct change_out {
	const char		*field;
	struct xls_value	disk, recovered;
	const char		*disk_text, *recovered_text;
	char			text[2][XLS_TIME_ISO_MAX];
};

static const char *const fork_formats[] = {
	"dev", "local", "extents", "btree", "uuid", "meta_btree",
};

/* How the field is shown: a mode in octal, a time in nanoseconds (signed), a fork format by name. */
static void change_value(enum xls_lost_field field, uint64_t v, struct xls_value *out)
{
	switch (field) {
	case XLS_LF_MODE:
		out->kind = XLS_FIELD_OCT;
		out->v.u = v;
		return;
	case XLS_LF_FLAGS:
		out->kind = XLS_FIELD_HEX;
		out->v.u = v;
		return;
	case XLS_LF_MTIME:
	case XLS_LF_CTIME:
	case XLS_LF_ATIME:
	case XLS_LF_CRTIME:
		out->kind = XLS_FIELD_INT;
		out->v.i = (int64_t)v;
		return;
	case XLS_LF_FORMAT:
	case XLS_LF_AFORMAT:
		if (v < sizeof(fork_formats) / sizeof(fork_formats[0])) {
			out->kind = XLS_FIELD_STR;
			out->v.s = fork_formats[v];
			return;
		}
		break;
	default:
		break;
	}
	out->kind = XLS_FIELD_UINT;
	out->v.u = v;
}

static size_t value_text(const struct xls_value *v, char *buf, size_t bufsz)
{
	if (bufsz < XLS_TIME_ISO_MAX)
		return 0;
	switch (v->kind) {
	case XLS_FIELD_OCT:
		return (size_t)xls_snprintf(buf, bufsz, "%#llo", (unsigned long long)v->v.u);
	case XLS_FIELD_HEX:
		return (size_t)xls_snprintf(buf, bufsz, "%#llx", (unsigned long long)v->v.u);
	case XLS_FIELD_INT:
		return xls_time_iso(v->v.i, buf);
	case XLS_FIELD_STR:
		return (size_t)xls_snprintf(buf, bufsz, "%s", v->v.s);
	default:
		return (size_t)xls_snprintf(buf, bufsz, "%llu", (unsigned long long)v->v.u);
	}
}

/* xls_snprintf, not snprintf: a large log has a million of these */
static void change_text(const void *elem, char *buf, size_t bufsz)
{
	const struct change_out *c = elem;

	xls_snprintf(buf, bufsz, "%s %s->%s", c->field, c->disk_text, c->recovered_text);
}

static const struct xls_member change_members[] = {
	XLS_MEMBER(field, str, struct change_out, field),
	XLS_MEMBER(disk, value, struct change_out, disk),
	XLS_MEMBER(recovered, value, struct change_out, recovered),
	XLS_MEMBER(disk_text, str, struct change_out, disk_text),
	XLS_MEMBER(recovered_text, str, struct change_out, recovered_text),
};

static const struct xls_list change_list = {
	change_members, 5, sizeof(struct change_out), change_text, " ", NULL,
};

/* Value @v of @field into @num (a number) and @text (as it is shown). */
static void change_side(enum xls_lost_field field, uint64_t v, struct xls_value *num, char *text,
			const char **textp)
{
	struct xls_value shown;

	change_value(field, v, &shown);
	value_text(&shown, text, XLS_TIME_ISO_MAX);
	*textp = text;
	num->kind = shown.kind == XLS_FIELD_INT ? XLS_FIELD_INT : XLS_FIELD_UINT;
	if (num->kind == XLS_FIELD_INT)
		num->v.i = (int64_t)v;
	else
		num->v.u = v;
}

void xls_describe_lost_inode(const struct xls_lost_inode *in, struct xls_fieldset *fs)
{
	struct change_out *ch = xls_fields_alloc(fs, sizeof(*ch) * (in->nchanges ? in->nchanges : 1));
	uint32_t n = ch ? in->nchanges : 0;

	for (uint32_t i = 0; i < n; i++) {
		struct xls_lost_change c;

		xls_lost_inode_change(in, i, &c);
		ch[i].field = xls_lost_field_name(c.field);
		change_side(c.field, c.disk, &ch[i].disk, ch[i].text[0], &ch[i].disk_text);
		change_side(c.field, c.recovered, &ch[i].recovered, ch[i].text[1],
			    &ch[i].recovered_text);
	}
	xls_field_hex(fs, XK(ino), in->ino);
	if (in->path)
		xls_field_str(fs, XK(path), in->path);
	xls_field_str(fs, XK(what), in->what);
	xls_field_oct(fs, XK(mode), in->mode);
	xls_field_list(fs, XK(changes), &change_list, ch, n);
}

void xls_describe_lost_found(const struct xls_lost_found *f, struct xls_fieldset *fs)
{
	xls_field_hex(fs, XK(ino), f->ino);
	xls_field_oct(fs, XK(mode), f->mode);
	if (f->path)
		xls_field_str(fs, XK(path), f->path);
}

void xls_describe_lost_xattr(const struct xls_lost_xattr *x, struct xls_fieldset *fs)
{
	xls_field_hex(fs, XK(ino), x->ino);
	if (x->path)
		xls_field_str(fs, XK(path), x->path);
	xls_field_str(fs, XK(name), x->name);
	if (x->parent)
		xls_field_hex(fs, XK(parent), x->parent);
	xls_field_str(fs, XK(op), x->op);
}

void xls_describe_lost_apart(const struct xls_lost_apart *a, struct xls_fieldset *fs)
{
	xls_field_str(fs, XK(apart), a->kind);
	if (a->tid)
		xls_field_hex(fs, XK(tid), a->tid);
	if (a->lsn)
		xls_field_lsn(fs, XK(lsn), a->lsn);
	if (a->id)
		xls_field_hex(fs, XK(id), a->id);
	xls_field_str(fs, XK(what), a->what);
}

static bool is_time(enum xls_fev ev)
{
	return ev == XLS_FEV_ATIME || ev == XLS_FEV_MTIME || ev == XLS_FEV_CTIME;
}


/*
 * Detail pieces written by hand, for the million names of a large log;
 * each as snprintf() would write it ("%.*s" stops at a NUL, "%llx"), and
 * cut, not overrun, at the end of @buf.
 */
struct detail_buf {
	char	*p;
	size_t	n, cap;		/* cap >= 1: room for the NUL */
};

static void put_char(struct detail_buf *d, char c)
{
	if (d->n + 1 < d->cap)
		d->p[d->n++] = c;
}

static void put_str(struct detail_buf *d, const char *s)
{
	while (*s)
		put_char(d, *s++);
}

static void put_name(struct detail_buf *d, const uint8_t *name, uint32_t len)
{
	put_char(d, '\'');
	for (uint32_t i = 0; i < len && name[i]; i++)
		put_char(d, (char)name[i]);
	put_char(d, '\'');
}

static void put_hex(struct detail_buf *d, uint64_t v)
{
	char digits[16];
	unsigned int k = 0;

	put_str(d, "0x");
	do {
		digits[k++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (k)
		put_char(d, digits[--k]);
}

/* "'name' in 0xdir" */
static void put_name_in(struct detail_buf *d, const uint8_t *name, uint32_t len, uint64_t dir)
{
	put_name(d, name, len);
	put_str(d, " in ");
	put_hex(d, dir);
}

/* The names' details; false for the other events. */
static bool name_detail(const struct xls_file_event *e, char *buf, size_t bufsz)
{
	struct detail_buf d = { buf, 0, bufsz };

	switch (e->ev) {
	case XLS_FEV_DIRENT_ADD: case XLS_FEV_DIRENT_REMOVE:
	case XLS_FEV_PPTR_SET: case XLS_FEV_PPTR_REMOVE:
		put_name_in(&d, e->name, e->name_len, e->dir);
		break;
	case XLS_FEV_DIRENT_MOVE: case XLS_FEV_PPTR_REPLACE:
		put_name_in(&d, e->name, e->name_len, e->dir);
		put_str(&d, " -> ");
		put_name_in(&d, e->new_name, e->new_name_len, e->new_dir);
		break;
	case XLS_FEV_XATTR_SET: case XLS_FEV_XATTR_REMOVE: case XLS_FEV_XATTR_REPLACE:
		put_name(&d, e->name, e->name_len);
		break;
	default:
		return false;
	}
	buf[d.n] = '\0';
	return true;
}

static void event_detail(const struct xls_file_event *e, char *buf, size_t bufsz)
{
	if (bufsz && name_detail(e, buf, bufsz))
		return;
	switch (e->ev) {
	case XLS_FEV_CREATED: {
		const struct xls_fev_inode *c = &e->created;
		char mt[XLS_TIME_ISO_MAX];

		xls_time_iso((int64_t)c->mtime, mt);
		xls_snprintf(buf, bufsz, "mode %#llo gen %llu size %llu nlink %u uid %u gid %u "
			     "extents %llu mtime %s", (unsigned long long)e->old_value,
			     (unsigned long long)e->new_value, (unsigned long long)c->size, c->nlink,
			     c->uid, c->gid, (unsigned long long)c->nextents, mt);
		return;
	}
	case XLS_FEV_MODE:
		xls_snprintf(buf, bufsz, "%#llo -> %#llo", (unsigned long long)e->old_value,
			 (unsigned long long)e->new_value);
		return;
	case XLS_FEV_MAP: case XLS_FEV_UNMAP:
		xls_snprintf(buf, bufsz, "file block %llu, %u block%s at fsblock 0x%llx",
			 (unsigned long long)e->startoff, e->len, xls_plural(e->len),
			 (unsigned long long)e->startblock);
		return;
	case XLS_FEV_FREED:
		buf[0] = '\0';
		return;
	default:
		break;
	}
	if (is_time(e->ev)) {
		char a[XLS_TIME_ISO_MAX], b[XLS_TIME_ISO_MAX];

		xls_time_iso((int64_t)e->old_value, a);
		xls_time_iso((int64_t)e->new_value, b);
		xls_snprintf(buf, bufsz, "%s -> %s%s%s", a, b, e->backwards ? " (backwards)" : "",
			     e->before_crtime ? " (before crtime)" : "");
		return;
	}
	xls_snprintf(buf, bufsz, "%llu -> %llu", (unsigned long long)e->old_value,
		     (unsigned long long)e->new_value);
}

static void name_field(struct xls_fieldset *fs, const struct xls_key_str *key, const uint8_t *name,
		       uint32_t len)
{
	char buf[300];

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	xls_field_str(fs, key, buf);
}

/* An inode's state: created events, and the summaries of where recovery leaves it. */
static void describe_inode_state(const struct xls_fev_inode *c, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(size), c->size);
	xls_field_uint(fs, XK(nlink), c->nlink);
	xls_field_uint(fs, XK(uid), c->uid);
	xls_field_uint(fs, XK(gid), c->gid);
	xls_field_uint(fs, XK(nextents), c->nextents);
	xls_field_int(fs, XK(atime), (int64_t)c->atime);
	xls_field_int(fs, XK(mtime), (int64_t)c->mtime);
	xls_field_int(fs, XK(ctime), (int64_t)c->ctime);
}

void xls_describe_file_event(const struct xls_file_event *e, const char *path, bool text,
			     struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(seq), e->seq);
	xls_field_hex(fs, XK(tid), e->tid);
	xls_field_lsn(fs, XK(lsn), e->lsn);
	xls_field_hex(fs, XK(ino), e->ino);
	xls_field_str(fs, XK(event), xls_fev_name(e->ev));
	if (path)
		xls_field_str(fs, XK(path), path);
	if (text) {
		char buf[600];

		event_detail(e, buf, sizeof(buf));
		xls_field_str(fs, XK(detail), buf);
		return;
	}
	xls_field_bool(fs, XK(replayed), e->replayed);
	if (e->ev <= XLS_FEV_CTIME && e->ev != XLS_FEV_FREED) {
		if (is_time(e->ev)) {
			/* nanoseconds since 1970, signed, as every time in JSON */
			xls_field_int(fs, XK(old), (int64_t)e->old_value);
			xls_field_int(fs, XK(new), (int64_t)e->new_value);
			xls_field_bool(fs, XK(backwards), e->backwards);
			xls_field_bool(fs, XK(before_crtime), e->before_crtime);
		} else if (e->ev == XLS_FEV_CREATED) {
			xls_field_oct(fs, XK(mode), e->old_value);
			xls_field_uint(fs, XK(gen), e->new_value);
			describe_inode_state(&e->created, fs);
		} else if (e->ev == XLS_FEV_MODE) {
			/* octal, as "mode" is: "old" and "new" are numbers */
			xls_field_oct(fs, XK(old_mode), e->old_value);
			xls_field_oct(fs, XK(new_mode), e->new_value);
		} else {
			xls_field_int(fs, XK(old), (int64_t)e->old_value);
			xls_field_int(fs, XK(new), (int64_t)e->new_value);
		}
	}
	if (e->dir)
		xls_field_hex(fs, XK(dir), e->dir);
	if (e->name_len)
		name_field(fs, XK(name), e->name, e->name_len);
	if (e->new_dir)
		xls_field_hex(fs, XK(new_dir), e->new_dir);
	if (e->new_name_len)
		name_field(fs, XK(new_name), e->new_name, e->new_name_len);
	if (e->ev == XLS_FEV_MAP || e->ev == XLS_FEV_UNMAP) {
		xls_field_uint(fs, XK(startoff), e->startoff);
		xls_field_hex(fs, XK(startblock), e->startblock);
		xls_field_uint(fs, XK(len_fsb), e->len);
	}
}

void xls_describe_file_summary(const struct xls_file_summary *s, struct xls_fieldset *fs)
{
	char buf[XLS_NAMES_PATH_MAX];
	uint32_t n = s->final_path_len < sizeof(buf) ? s->final_path_len : sizeof(buf) - 1;

	xls_field_hex(fs, XK(ino), s->ino);
	if (s->mode)
		xls_field_oct(fs, XK(mode), s->mode);
	if (s->has_state)
		describe_inode_state(&s->state, fs);
	xls_field_uint(fs, XK(events), s->events);
	xls_field_uint(fs, XK(first_seq), s->first_seq);
	xls_field_uint(fs, XK(last_seq), s->last_seq);
	if (s->final_path) {
		memcpy(buf, s->final_path, n);
		buf[n] = '\0';
		xls_field_str(fs, XK(final_path), buf);
	}
}

void xls_print_lost_summary(struct xls_out *o, const struct xls_lost_summary *s,
			    enum xls_log_state state)
{
	xls_out_printf(o, "Zeroing the log loses %llu directory entr%s added and %llu removed, "
		       "%llu inode%s created, %llu freed and %llu changed, %llu xattr change%s "
		       "(recovery writes %llu bytes into the blocks and inodes compared)\n",
		       (unsigned long long)s->dirents_added, s->dirents_added == 1 ? "y" : "ies",
		       (unsigned long long)s->dirents_removed,
		       (unsigned long long)s->inodes_created, s->inodes_created == 1 ? "" : "s",
		       (unsigned long long)s->inodes_freed, (unsigned long long)s->inodes_changed,
		       (unsigned long long)s->xattrs_changed, s->xattrs_changed == 1 ? "" : "s",
		       (unsigned long long)s->metadata_bytes);
	xls_out_printf(o, "  compared: %llu director%s and %llu inode%s that the replayed "
		       "transactions touch\n", (unsigned long long)s->dirs_compared,
		       s->dirs_compared == 1 ? "y" : "ies", (unsigned long long)s->inodes_compared,
		       s->inodes_compared == 1 ? "" : "s");
	if (s->lost_found)
		xls_out_printf(o, "  xfs_repair -L would move %llu inode%s to lost+found "
			       "(listed below)\n", (unsigned long long)s->lost_found,
			       s->lost_found == 1 ? "" : "s");
	if (s->overlay_full)
		xls_out_printf(o, "  approximate: more than %llu bytes of replayed blocks; blocks "
			       "past the bound are read as on disk\n",
			       (unsigned long long)s->overlay_max);
	xls_out_printf(o, "\n");
	xls_print_verdict(o, &s->recovery, state, XLS_VERDICT_COMPARED);
}

static const struct xls_column dirent_columns[] = {
	XLS_COL(op, -6),
	XLS_COL(dir, 12),
	XLS_COL(ino, 12),
	XLS_COL_AS(path, "DIR PATH", -24),
	XLS_COL(name, -1),
};

static const struct xls_column inode_columns[] = {
	XLS_COL(ino, 12),
	XLS_COL(what, -8),
	XLS_COL(mode, -7),
	XLS_COL(path, -24),
	XLS_COL(changes, -1),
};

static const struct xls_column found_columns[] = {
	XLS_COL(ino, 12),
	XLS_COL(mode, -7),
	XLS_COL_AS(path, "PATH (as recovery leaves it)", -1),
};

static const struct xls_column xattr_columns[] = {
	XLS_COL(op, -8),
	XLS_COL(ino, 12),
	XLS_COL(parent, 12),
	XLS_COL(path, -24),
	XLS_COL(name, -1),
};

#define NCOLS(cols)	(sizeof(cols) / sizeof(cols[0]))

static const struct {
	const char			*title;
	const struct xls_column		*cols;
	size_t				ncols;
} lost_parts[XLS_LOST_NPARTS] = {
	[XLS_LOST_DIRENTS] = { "Directory entries recovery adds or removes",
			       dirent_columns, NCOLS(dirent_columns) },
	[XLS_LOST_INODES] = { "Inodes whose core recovery writes",
			      inode_columns, NCOLS(inode_columns) },
	[XLS_LOST_FOUND] = { "Inodes xfs_repair -L moves to lost+found (in use on the disk, "
			     "named only by entries recovery adds)",
			     found_columns, NCOLS(found_columns) },
	[XLS_LOST_XATTRS] = { "Xattrs and parent pointers recovery sets or removes",
			      xattr_columns, NCOLS(xattr_columns) },
};

void xls_print_lost_heading(struct xls_out *o, enum xls_lost_part part)
{
	xls_out_printf(o, "\n%s\n", lost_parts[part].title);
	xls_out_table_heading(o, lost_parts[part].cols, lost_parts[part].ncols);
}

void xls_print_lost_row(struct xls_out *o, enum xls_lost_part part, const struct xls_fieldset *fs)
{
	xls_out_table_row(o, lost_parts[part].cols, lost_parts[part].ncols, fs);
}

void xls_print_lost_apart(struct xls_out *o, const struct xls_lost_apart *a, bool first)
{
	if (first)
		xls_out_printf(o, "\nApart: what recovery drops anyway or finishes after replay\n");
	if (a->tid)
		xls_out_printf(o, "  %-10s trans 0x%08x lsn %u/%u: %s\n", a->kind, a->tid,
			       xls_lsn_cycle(a->lsn), xls_lsn_block(a->lsn), a->what);
	else
		xls_out_printf(o, "  %-10s %s\n", a->kind, a->what);
}
