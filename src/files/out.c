/*
 * Files stage: the events in recovery order, each with its
 * path.  A path is taken when the event happens; where it stops at a
 * directory the log has not named yet (created before the tail, its ".."
 * and its entry logged later), the event and every one after it wait
 * until the log names that directory, or the end of the log does, so
 * that the order stays recovery's.  What waits is in memory up to
 * XLS_FILES_HOLD_MEM, then in a temporary file (base/spillq.h), taken back
 * a batch at a time as the first ones go out; past XLS_FILES_HOLD_BYTES
 * in all, the first event goes without its path.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/sortspill.h"
#include "base/vec.h"
#include "files/run.h"

/* An event waiting: its names and path (or path below @stuck) in the pool. */
struct xls_held_event {
	struct xls_file_event	e;		/* names and path as pool offsets */
	uint64_t		stuck;		/* the inode whose path comes first; 0 none */
	uint32_t		name, new_name, path;
	bool			has_path;
};

void xls_files_out_release(struct xls_files_out *o)
{
	xls_vec_free(o->q);
	xls_pool_free(&o->pool);
	xls_spillq_free(&o->spill);
	memset(o, 0, sizeof(*o));
	xls_spillq_init(&o->spill);
	o->hold_mem = XLS_FILES_HOLD_MEM;
	o->last = UINT32_MAX;
}

void xls_files_tmp_failed(struct xls_files *f, const char *dir, int error)
{
	if (!f->tmp_error) {
		f->tmp_error = error;
		f->tmp_dir = dir;
	}
}

void xls_files_state_failed(struct xls_files *f)
{
	if (f->states.error && f->states.error != ENOMEM)
		xls_files_tmp_failed(f, f->states.dir, f->states.error);
	else
		f->nomem = true;
}

uint32_t xls_files_state_index(struct xls_files *f, uint64_t ino)
{
	uint32_t idx = xls_inoidx_find(&f->idx, ino);
	struct ino_state *s;

	if (idx != XLS_INOIDX_NONE)
		return idx;
	if (f->ninos == UINT32_MAX - 1) {
		f->nomem = true;
		return UINT32_MAX;
	}
	if (!(s = xls_files_ino(f, f->ninos))) {
		xls_files_state_failed(f);
		return UINT32_MAX;
	}
	if (xls_inoidx_put(&f->idx, ino, f->ninos)) {
		f->nomem = true;
		return UINT32_MAX;
	}
	/* a new page reads as zeros: a blank state */
	s->ino = ino;
	return f->ninos++;
}

void xls_files_core_get(const struct ino_state *s, struct xls_inode_core *c)
{
	memset(c, 0, sizeof(*c));
	c->valid = s->valid;
	c->mode = s->mode;
	c->format = s->format;
	c->aformat = s->aformat;
	c->uid = s->uid;
	c->gid = s->gid;
	c->nlink = s->nlink;
	c->gen = s->gen;
	c->size = s->size;
	c->nextents = s->nextents;
	c->atime = s->atime;
	c->mtime = s->mtime;
	c->ctime = s->ctime;
	c->crtime = s->crtime;
}

void xls_files_core_set(struct ino_state *s, const struct xls_inode_core *c)
{
	s->valid = c->valid;
	s->mode = c->mode;
	s->format = c->format;
	s->aformat = c->aformat;
	s->uid = c->uid;
	s->gid = c->gid;
	s->nlink = c->nlink;
	s->gen = c->gen;
	s->size = c->size;
	s->nextents = c->nextents;
	s->atime = c->atime;
	s->mtime = c->mtime;
	s->ctime = c->ctime;
	s->crtime = c->crtime;
}

/* One more event of @e->ino, for its summary. */
static void count(struct xls_files *f, const struct xls_file_event *e)
{
	struct xls_files_out *o = &f->out;
	struct ino_state *s;

	/* an inode's events mostly come together */
	if (o->last == UINT32_MAX || o->last_ino != e->ino) {
		uint32_t idx = xls_files_state_index(f, e->ino);

		if (idx == UINT32_MAX)
			return;
		o->last = idx;
		o->last_ino = e->ino;
	}
	s = xls_files_ino(f, o->last);
	if (!s) {
		xls_files_state_failed(f);
		return;
	}
	if (!s->events++)
		s->first_seq = e->seq;
	s->last_seq = e->seq;
}

static int emit(struct xls_files *f, struct xls_file_event *e)
{
	if (!f->sink->event || f->rc)
		return f->rc;
	count(f, e);
	f->rc = f->sink->event(f->sink->ctx, e);
	return f->rc;
}

/* The path of @e, whole or below the inode it stops at, into @buf. */
static bool event_path(struct xls_files *f, const struct xls_file_event *e, char *buf,
		       size_t *len, uint64_t *stuck)
{
	uint64_t ino = e->ino, dir = 0;
	const uint8_t *tail = NULL;
	uint32_t tail_len = 0;

	switch (e->ev) {
	case XLS_FEV_DIRENT_ADD: case XLS_FEV_DIRENT_REMOVE:
	case XLS_FEV_PPTR_SET: case XLS_FEV_PPTR_REMOVE:
		dir = e->dir;
		tail = e->name;
		tail_len = e->name_len;
		break;
	case XLS_FEV_DIRENT_MOVE: case XLS_FEV_PPTR_REPLACE:
		dir = e->new_dir;
		tail = e->new_name;
		tail_len = e->new_name_len;
		break;
	default:
		break;
	}
	if (dir && tail_len)
		ino = dir;
	else
		tail = NULL;
	return xls_names_path_part(&f->names, ino, tail, tail_len, buf, XLS_NAMES_PATH_MAX, len,
				   stuck);
}

static uint32_t keep(struct xls_files *f, const void *p, uint32_t len)
{
	uint32_t off = 0;

	if (len && !xls_pool_add(&f->out.pool, p, len, &off))
		f->nomem = true;
	return off;
}

/* An event waiting in memory. */
static void hold_here(struct xls_files *f, const struct xls_file_event *e, const char *path,
		      size_t len, uint64_t stuck)
{
	struct xls_files_out *o = &f->out;
	struct xls_held_event *h;

	if (!xls_vec_grow((void **)&o->q, o->n, &o->cap, sizeof(*h))) {
		f->nomem = true;
		return;
	}
	h = &o->q[o->n++];
	h->e = *e;
	h->name = keep(f, e->name, e->name_len);
	h->new_name = keep(f, e->new_name, e->new_name_len);
	h->path = keep(f, path, (uint32_t)len);
	h->e.path_len = (uint32_t)len;
	h->has_path = !stuck && len;
	h->stuck = stuck;
}

/* What waits in memory: the events and every byte kept for them since it was last empty. */
static uint64_t held_here(const struct xls_files_out *o)
{
	return (uint64_t)(o->n - o->head) * sizeof(struct xls_held_event) + o->pool.used;
}

/* ... and in all. */
static uint64_t held_bytes(const struct xls_files_out *o)
{
	return held_here(o) + o->spill.bytes;
}

/* A record of the file: the event, then its name, new name and path. */
struct spilled_event {
	struct xls_held_event	h;		/* no pointer, no offset in it */
	uint8_t			bytes[2 * 256 + XLS_NAMES_PATH_MAX];
};

/*
 * An event to wait: in memory while it has room and nothing waits in the
 * file, else after those in the file.  A file that cannot be made leaves
 * it in memory (nothing waits there yet); one that fails later fails the
 * run, since the order would be lost.
 */
static void hold(struct xls_files *f, const struct xls_file_event *e, const char *path,
		 size_t len, uint64_t stuck)
{
	struct xls_files_out *o = &f->out;
	struct spilled_event r;
	uint32_t n = 0;
	bool queued = !xls_spillq_empty(&o->spill);

	if (!queued && held_here(o) <= o->hold_mem) {
		hold_here(f, e, path, len, stuck);
		return;
	}
	/* names of 255 bytes at most, a path shorter than XLS_NAMES_PATH_MAX */
	if (e->name_len > 256 || e->new_name_len > 256 || len >= XLS_NAMES_PATH_MAX) {
		f->rc = -E2BIG;
		return;
	}
	memset(&r.h, 0, sizeof(r.h));
	r.h.e = *e;
	r.h.e.name = r.h.e.new_name = NULL;
	r.h.e.path = NULL;
	r.h.e.path_len = (uint32_t)len;
	r.h.stuck = stuck;
	/* an event without a name has NULL there: memcpy must not see it */
	if (e->name_len)
		memcpy(r.bytes + n, e->name, e->name_len);
	n += e->name_len;
	if (e->new_name_len)
		memcpy(r.bytes + n, e->new_name, e->new_name_len);
	n += e->new_name_len;
	if (len)
		memcpy(r.bytes + n, path, len);
	n += (uint32_t)len;
	if (xls_spillq_push(&o->spill, &r, (uint32_t)offsetof(struct spilled_event, bytes) + n) == 0)
		return;
	if (queued)
		f->rc = -EIO;
	else
		hold_here(f, e, path, len, stuck);
}

/* The memory empty: the next events of the file into it, half of its room. */
static int unspill(struct xls_files *f)
{
	struct xls_files_out *o = &f->out;

	while (!xls_spillq_empty(&o->spill) && held_here(o) <= o->hold_mem / 2) {
		uint32_t len;
		const struct spilled_event *r = xls_spillq_pop(&o->spill, &len);
		struct xls_file_event e;
		uint32_t n;

		if (!r)
			return f->rc = -EIO;
		e = r->h.e;
		n = e.name_len + e.new_name_len + e.path_len;
		if (len != offsetof(struct spilled_event, bytes) + n)
			return f->rc = -EIO;
		e.name = r->bytes;
		e.new_name = r->bytes + e.name_len;
		hold_here(f, &e, (const char *)r->bytes + e.name_len + e.new_name_len, e.path_len,
			  r->h.stuck);
	}
	return 0;
}

void xls_files_out_put(struct xls_files *f, struct xls_file_event *e)
{
	size_t len;
	uint64_t stuck;
	bool whole = event_path(f, e, f->path, &len, &stuck);

	if (f->out.n == f->out.head && xls_spillq_empty(&f->out.spill) && (whole || !stuck)) {
		e->path = whole ? f->path : NULL;
		e->path_len = whole ? (uint32_t)len : 0;
		emit(f, e);
		return;
	}
	hold(f, e, f->path, len, stuck);
}

/*
 * The path of held event @h now: the stuck inode's, then what was below
 * it.  True when whole; else, unless @final, it stays held (stopping at
 * an inode further up, perhaps).
 */
static bool resolve(struct xls_files *f, struct xls_held_event *h, bool final)
{
	struct xls_files_out *o = &f->out;
	size_t len, below = h->e.path_len;
	uint64_t stuck;
	bool whole;

	if (!h->stuck)
		return true;
	whole = xls_names_path_part(&f->names, h->stuck, NULL, 0, f->path, XLS_NAMES_PATH_MAX,
				    &len, &stuck);
	if (!whole && !stuck) {
		h->stuck = 0;		/* a loop: never named */
		h->has_path = false;
		return true;
	}
	if (len + below >= XLS_NAMES_PATH_MAX)
		below = XLS_NAMES_PATH_MAX - 1 - len;
	if (below)
		memcpy(f->path + len, o->pool.p + h->path, below);
	len += below;
	f->path[len] = '\0';
	if (!whole && !final) {
		h->stuck = stuck;
		h->path = keep(f, f->path, (uint32_t)len);
		h->e.path_len = (uint32_t)len;
		return false;
	}
	h->stuck = 0;
	h->has_path = whole;
	h->path = keep(f, f->path, (uint32_t)len);
	h->e.path_len = (uint32_t)len;
	return true;
}

static void emit_held(struct xls_files *f, struct xls_held_event *h)
{
	struct xls_files_out *o = &f->out;
	struct xls_file_event e = h->e;

	e.name = e.name_len ? o->pool.p + h->name : NULL;
	e.new_name = e.new_name_len ? o->pool.p + h->new_name : NULL;
	e.path = h->has_path ? (const char *)o->pool.p + h->path : NULL;
	if (!e.path)
		e.path_len = 0;
	emit(f, &e);
}

void xls_files_out_drain(struct xls_files *f, bool final)
{
	struct xls_files_out *o = &f->out;

	for (;;) {
		while (o->head < o->n && !f->rc) {
			struct xls_held_event *h = &o->q[o->head];

			if (!resolve(f, h, final)) {
				if (held_bytes(o) <= XLS_FILES_HOLD_BYTES)
					break;
				h->stuck = 0;	/* waited too long: no path */
				h->has_path = false;
			}
			emit_held(f, h);
			o->head++;
		}
		if (o->head == o->n) {
			o->head = o->n = 0;
			o->pool.used = 0;
		}
		if (o->head < o->n || f->rc || xls_spillq_empty(&o->spill) || unspill(f))
			return;
	}
}

void xls_files_core_state(const struct xls_inode_core *c, struct xls_fev_inode *st)
{
	*st = (struct xls_fev_inode){
		.size = c->size, .nextents = c->nextents, .atime = c->atime,
		.mtime = c->mtime, .ctime = c->ctime, .nlink = c->nlink, .uid = c->uid,
		.gid = c->gid,
	};
}

/*
 * The core recovery leaves of inode @ino (@st its state, or NULL): its last
 * item's, or the disk's when recovery skipped that item (and so every one
 * before it: the disk holds a later inode) or the log holds none (only its
 * entries).  False when neither is known.
 */
static bool final_core(const struct xls_files *f, uint64_t ino, const struct ino_state *st,
		       struct xls_inode_core *c)
{
	bool logged = st && st->known;
	uint8_t dino[2048];

	if (logged)
		xls_files_core_get(st, c);
	if ((logged && !st->last_skipped) || f->stale || f->src->geo.inode_size > sizeof(dino) ||
	    xls_fsview_read_inode(&f->disk, ino, dino, NULL))
		return logged;
	xls_fsview_core(&f->src->geo, dino, c);
	return c->valid;
}

/* The summary of inode @st, whose events went out, to the sink. */
static void out_summary(struct xls_files *f, const struct ino_state *st)
{
	struct xls_inode_core core;
	size_t len;
	bool known = final_core(f, st->ino, st, &core);
	bool live = !known || !xls_inode_core_free(&core);
	struct xls_file_summary s = {
		.ino = st->ino, .events = st->events,
		.first_seq = st->first_seq, .last_seq = st->last_seq,
		.mode = known && live ? core.mode : 0,
		.has_state = known && live,
	};

	if (s.has_state)
		xls_files_core_state(&core, &s.state);
	if (live && xls_names_final_path(&f->names, s.ino, f->path, sizeof(f->path), &len)) {
		s.final_path = f->path;
		s.final_path_len = (uint32_t)len;
	}
	f->rc = f->sink->file(f->sink->ctx, &s);
}

/*
 * The inodes events went out for, in inode order: their states read in
 * the order they were made (page after page of the store), sorted through
 * a spill, so that 2 million of them are not looked up at random.
 */
void xls_files_out_summaries(struct xls_files *f)
{
	struct xls_sortspill sorted;
	uint64_t ino;
	uint32_t len;

	if (!f->sink->file)
		return;
	xls_sortspill_init(&sorted, XLS_FILES_SUMMARY_MEM);
	for (uint32_t i = 0; i < f->ninos && !sorted.error; i++) {
		const struct ino_state *s = xls_files_ino(f, i);

		if (!s) {
			xls_files_state_failed(f);
			break;
		}
		if (s->events)
			(void)xls_sortspill_add(&sorted, s->ino, s, sizeof(*s));
	}
	if (!f->nomem && !f->tmp_error && !xls_sortspill_rewind(&sorted)) {
		struct ino_state st;
		const void *rec;

		while (!f->rc && (rec = xls_sortspill_next(&sorted, &ino, &len)) &&
		       len == sizeof(st)) {
			memcpy(&st, rec, sizeof(st));
			out_summary(f, &st);
		}
	}
	if (sorted.error == ENOMEM)
		f->nomem = true;
	else if (sorted.error)
		xls_files_tmp_failed(f, sorted.dir, sorted.error);
	xls_sortspill_free(&sorted);
}
