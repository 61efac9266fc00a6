/*
 * Semantics stage: what zeroing the log (xfs_repair -L) would lose -- the
 * net difference between the filesystem as recovery leaves it and as it
 * is on the device, in names.
 *
 * Recovery is run once (recover/), its replays taken into an overlay of
 * directory blocks, bmap btree blocks and inode clusters (replay/overlay.h,
 * bounded).  Then every directory and inode that a replayed item touches
 * is read twice, from the device and through the overlay
 * (semantics/fsview.h), and compared: directory entries (name -> inode),
 * inode cores, xattrs and parent pointers.  On the device side an entry whose inode is free is left
 * out, as xfs_repair removes it.  An entry created and removed within the
 * log, or already on disk, is no difference; nor is an inode free on the
 * disk and free again where recovery leaves it.  Apart: the inodes that
 * xfs_repair -L would move to lost+found.
 */
#ifndef XLS_LOST_H
#define XLS_LOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "log/log.h"
#include "recover/recover.h"
#include "replay/overlay.h"
#include "source/source.h"

struct xls_lost_dirent {
	uint64_t	dir;
	uint64_t	ino;		/* the entry's inode */
	bool		add;		/* replay adds it (else removes it) */
	const char	*name;		/* as stored */
	const char	*dir_path;	/* "/a/b", or NULL: see xls_lost_path() */
};

/* The fields of an inode core lost compares, in the order its changes list them. */
enum xls_lost_field {
	XLS_LF_MODE, XLS_LF_GEN, XLS_LF_NLINK, XLS_LF_UID, XLS_LF_GID, XLS_LF_SIZE,
	XLS_LF_NBLOCKS, XLS_LF_NEXTENTS, XLS_LF_ANEXTENTS, XLS_LF_FORMAT, XLS_LF_AFORMAT,
	XLS_LF_FLAGS, XLS_LF_MTIME, XLS_LF_CTIME, XLS_LF_ATIME, XLS_LF_CRTIME,
	XLS_LF_NFIELDS
};

/* "mode", "size", "mtime", ...: the field's name in lost's changes. */
const char *xls_lost_field_name(enum xls_lost_field f);

struct xls_lost_change {
	enum xls_lost_field field;
	uint64_t	disk;
	uint64_t	recovered;
};

/*
 * Kept by the hundred thousand on an item-dense log, so each field that
 * differs costs a value or two, not a struct: @nchanges of them, named
 * by xls_lost_inode_change().
 */
struct xls_lost_inode {
	uint64_t	ino;
	const char	*what;		/* "created", "freed", "changed" */
	const char	*path;		/* or NULL: see xls_lost_path() */
	uint16_t	mode;		/* as recovered (as on disk when freed) */
	uint16_t	fields;		/* the fields that differ, one bit each */
	uint32_t	nchanges;	/* bits in @fields */
	/* of each, in field order: on the disk (NULL: all 0), as recovered */
	const uint64_t	*disk;
	const uint64_t	*recovered;
};

/* The @i-th field of @in that differs (i < in->nchanges). */
void xls_lost_inode_change(const struct xls_lost_inode *in, uint32_t i,
			   struct xls_lost_change *ch);

/* An xattr, or a parent pointer, that replay sets, removes or replaces. */
struct xls_lost_xattr {
	uint64_t	ino;
	const char	*name;		/* "user.name"; a parent pointer's entry name */
	const char	*op;		/* "add", "remove", "replace" */
	uint64_t	parent;		/* a parent pointer's directory, else 0 */
	const char	*path;		/* or NULL: see xls_lost_path() */
};

/*
 * An inode xfs_repair -L would move to lost+found: in use on the disk
 * (its inode btree and its core say so), but named only by entries that
 * recovery adds -- so no directory on the disk names it.
 */
struct xls_lost_found {
	uint64_t	ino;
	uint16_t	mode;		/* on disk */
	const char	*path;		/* where recovery leaves it: xls_lost_path() */
};

/* A committed-or-not transaction recovery drops anyway, an intent left. */
struct xls_lost_apart {
	const char	*kind;		/* "discarded", "corrupt", or the intent's */
	uint32_t	tid;
	uint64_t	lsn;
	uint64_t	id;
	char		what[160];
};

struct xls_lost_summary {
	uint64_t	dirents_added, dirents_removed;
	uint64_t	inodes_changed, inodes_created, inodes_freed;
	uint64_t	xattrs_changed;
	uint64_t	lost_found;		/* inodes xfs_repair -L moves to lost+found */
	uint64_t	dirs_compared, inodes_compared;
	uint64_t	metadata_bytes;		/* dirty bytes recovery writes */
	/* recovery's verdict and counts, as recover gives them */
	struct xls_recover_summary recovery;
	bool		overlay_full;		/* the bound was hit: approximate */
	uint64_t	overlay_bytes, overlay_max;
	uint64_t	overlay_spilled;	/* of overlay_bytes, in the temporary file */
	uint32_t	dir_problems;		/* XLS_DIRP_* and XLS_FSVIEW_* seen */
};

struct xls_lost;

/*
 * The blocks recovery writes are kept in @mem_bytes of memory and a
 * temporary file past it, @max_bytes in all (see replay/overlay.h).
 * NULL with @err set when out of memory.
 */
struct xls_lost *xls_lost_new(const struct xls_source *src, uint64_t mem_bytes,
			      uint64_t max_bytes, struct xls_error *err);
void xls_lost_free(struct xls_lost *l);
/* The quota of the mount whose recovery is compared (default: the superblock's). */
void xls_lost_set_quota(struct xls_lost *l, const struct xls_quota_opts *q);

/*
 * Recover the log of @src (findings to @report) and compare.  0, or -1
 * with @err set.
 */
int xls_lost_run(struct xls_lost *l, struct xls_log *log, const struct xls_head_tail *ht,
		 const struct xls_report_sink *report, struct xls_error *err);

const struct xls_lost_summary *xls_lost_summary(const struct xls_lost *l);

/*
 * The entries and inodes, in inode order (entries by directory, then
 * name), one after another from a cursor of { 0, 0 }: a record per entry
 * and inode recovery makes, millions on a log of new files, so they are
 * kept in XLS_LOST_LIST_MEM of memory each and a temporary file past it
 * (base/spillpool.h), not as an array.  Each is valid, its strings and
 * values too, until the next call; false at the end, or when the file
 * fails (xls_lost_read_error() says so).
 */
/* -DXLS_LOST_LIST_MEM=... in CFLAGS: a build that spills all the time, to test it */
#ifndef XLS_LOST_LIST_MEM
#define XLS_LOST_LIST_MEM	(4u << 20)
#endif
struct xls_lost_cursor {
	uint32_t	off;
	uint32_t	i;
};
bool xls_lost_next_dirent(struct xls_lost *l, struct xls_lost_cursor *c,
			  struct xls_lost_dirent *d);
bool xls_lost_next_inode(struct xls_lost *l, struct xls_lost_cursor *c,
			 struct xls_lost_inode *in);
/* 0, or -1 with @err set when a list could not be read back. */
int xls_lost_read_error(const struct xls_lost *l, struct xls_error *err);

/* The other results, in inode order, fewer: arrays. */
const struct xls_lost_xattr *xls_lost_xattrs(const struct xls_lost *l, uint32_t *n);
const struct xls_lost_apart *xls_lost_aparts(const struct xls_lost *l, uint32_t *n);
const struct xls_lost_found *xls_lost_founds(const struct xls_lost *l, uint32_t *n);

/*
 * The results above come with their paths NULL: a path per inode created
 * was 14 MB on a 2 GiB item-dense log, held to the end for one print.
 * This is the path of @ino as recovery leaves the tree, into @buf; NULL
 * when it is not known.  It may look a directory up in the recovered
 * view, so it needs @l whole, before xls_lost_free().
 */
const char *xls_lost_path(struct xls_lost *l, uint64_t ino, char *buf, size_t bufsz);

#endif /* XLS_LOST_H */
