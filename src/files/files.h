/*
 * Files stage: per inode, in recovery order, what the log does to it.
 *
 * Recovery is run once (recover/) over tail..head; every committed
 * transaction is taken in the order recovery replays it, and what it logs
 * -- whether recovery replays it or the disk already holds it -- is
 * compared with what the log said before (or the disk, for the first
 * appearance when the disk is older than the transaction):
 *
 *  - inode items: created (a free core becomes used), freed, reused (a
 *    new generation or file type), and changes of mode, owner, size,
 *    links, extents, timestamps (bigtime-aware; one that moves backwards,
 *    or a time before crtime, is flagged);
 *  - directory data and block-form blocks (the log's view of each block:
 *    every logged region placed), and shortform directories in inode
 *    items' data forks: entries added and removed, and within one
 *    transaction a remove and an add of the same inode as a move; where
 *    the block's state before its first item is unknown (the disk holds
 *    a later one), the entries that item logs count as added only when
 *    the transaction creates their inode, or moves it;
 *  - ATTRI items: xattrs set, removed, replaced, and parent pointers;
 *  - BUI items: extents mapped and unmapped.
 */
#ifndef XLS_FILES_H
#define XLS_FILES_H

#include <stdbool.h>
#include <stdint.h>
#include "base/err.h"
#include "log/log.h"
#include "source/source.h"

enum xls_fev {
	XLS_FEV_CREATED,
	XLS_FEV_FREED,
	XLS_FEV_REUSED,
	XLS_FEV_MODE,
	XLS_FEV_UID,
	XLS_FEV_GID,
	XLS_FEV_SIZE,
	XLS_FEV_NLINK,
	XLS_FEV_EXTENTS,
	XLS_FEV_ATIME,
	XLS_FEV_MTIME,
	XLS_FEV_CTIME,
	XLS_FEV_DIRENT_ADD,	/* ino is the entry's inode, dir the directory */
	XLS_FEV_DIRENT_REMOVE,
	XLS_FEV_DIRENT_MOVE,	/* from dir/name to new_dir/new_name */
	XLS_FEV_XATTR_SET,
	XLS_FEV_XATTR_REMOVE,
	XLS_FEV_XATTR_REPLACE,
	XLS_FEV_PPTR_SET,	/* parent pointer: dir, name */
	XLS_FEV_PPTR_REMOVE,
	XLS_FEV_PPTR_REPLACE,
	XLS_FEV_MAP,		/* a bmap intent maps file blocks */
	XLS_FEV_UNMAP,
	XLS_FEV_COUNT
};

/* An inode's state: as first logged (created), or where recovery leaves it. */
struct xls_fev_inode {
	uint64_t	size, nextents;
	uint64_t	atime, mtime, ctime;	/* ns since 1970, as int64_t */
	uint32_t	nlink, uid, gid;
};

struct xls_file_event {
	uint32_t	seq;		/* the transaction's, in recovery order */
	uint32_t	tid;
	uint64_t	lsn;
	uint64_t	ino;
	enum xls_fev	ev;
	bool		replayed;	/* recovery writes it (else the disk has it) */
	uint64_t	old_value, new_value;	/* mode, size, ... times in ns */
	bool		backwards;	/* a timestamp earlier than before */
	bool		before_crtime;	/* a timestamp earlier than the creation */
	uint64_t	dir, new_dir;
	const uint8_t	*name, *new_name;
	uint32_t	name_len, new_name_len;
	union {
		struct {
			uint64_t	startoff, startblock;	/* MAP, UNMAP */
			uint32_t	len;
		};
		/* CREATED: the inode as first logged (mode and gen: old, new) */
		struct xls_fev_inode	created;
	};
	/*
	 * The path the event is about (xls_files_event_path), as far as the
	 * log and the disk tell: at this point of the log, or where the log
	 * names it later for a directory it has not named yet.  NULL: unknown.
	 */
	const char	*path;
	uint32_t	path_len;
	/*
	 * Inside files.c only: an entry of a block whose state before the
	 * item is unknown (the disk holds a later one), kept only when the
	 * transaction also creates its inode or removes it elsewhere (a move).
	 */
	bool		unsure;
};

/* Per inode with events, at the end: where recovery leaves it. */
struct xls_file_summary {
	uint64_t	ino;
	uint16_t	mode;		/* as recovery leaves it; 0: free or unknown */
	bool		has_state;	/* @state holds it too */
	struct xls_fev_inode state;
	uint32_t	events;
	uint32_t	first_seq, last_seq;
	const char	*final_path;	/* NULL: in no directory (freed), or unknown */
	uint32_t	final_path_len;
};

/* "created", "freed", ..., "dirent_add", ... */
const char *xls_fev_name(enum xls_fev e);

struct xls_stale_gap;

struct xls_files_sink {
	void	*ctx;
	int	(*event)(void *ctx, const struct xls_file_event *e);
	/* after the last event, each inode that had one, in inode order */
	int	(*file)(void *ctx, const struct xls_file_summary *s);
	/* @stale runs only: each stale boundary, where it is met */
	int	(*stale_gap)(void *ctx, const struct xls_stale_gap *g);
	const struct xls_report_sink *report;
};

struct xls_files;
struct xls_quota_opts;

/*
 * The log's view of directory and attr blocks is kept in @mem_bytes of
 * memory and a temporary file past it, @max_bytes in all (a files_bound
 * finding when that is hit): XLS_OVERLAY_MEM_BYTES and _MAX_BYTES by
 * default.
 */
struct xls_files *xls_files_new(const struct xls_source *src, uint64_t mem_bytes,
				uint64_t max_bytes, struct xls_error *err);
void xls_files_free(struct xls_files *f);
/* The quota of the mount whose recovery is followed (default: the superblock's). */
void xls_files_set_quota(struct xls_files *f, const struct xls_quota_opts *q);

/*
 * The memory of the events waiting for a path, past which they wait in a
 * temporary file (XLS_FILES_HOLD_MEM, 4 MiB, by default): the fuzz target
 * makes it small, so that hostile logs go through the file too.
 */
void xls_files_set_hold_mem(struct xls_files *f, uint64_t bytes);

/*
 * Run over the log; 0, -1 with @err set, or what a callback returned.
 * @stale: over the records before the tail instead (files --stale).  The
 * disk holds a later state of everything they did, so it is no baseline:
 * an inode's changes are told from its second item on, a directory
 * block's entries only where the log logged them before, and attr leaf
 * blocks and freed directory blocks give no event; no event is replayed.
 */
int xls_files_run(struct xls_files *f, struct xls_log *log, const struct xls_head_tail *ht,
		  bool stale, const struct xls_files_sink *sink, struct xls_error *err);

/* The path of @ino as far as the log and the disk tell, into @buf (xls_names_path). */
bool xls_files_path(struct xls_files *f, uint64_t ino, char *buf, size_t bufsz, size_t *len);

/*
 * The path event @e is about, at that point of the log, into @buf: an
 * entry added or removed (or a parent pointer set or removed) names its
 * own (dir, name), a move its new one, any other event the inode's path.
 * False, and "", when it is not known.
 */
bool xls_files_event_path(struct xls_files *f, const struct xls_file_event *e, char *buf,
			  size_t bufsz, size_t *len);

#endif /* XLS_FILES_H */
