/*
 * Private to the files stage: the state of one run, shared by the files
 * that split it --
 *
 *   files.c   the run: recovery's items, inodes, intents
 *   dir.c     directory entries of blocks as the log leaves them
 *   attr.c    xattrs and parent pointers of forks and leaf blocks
 *   event.c   the events of the transaction at hand, paired, flushed
 *   out.c     the events in order with their paths, the inodes at the end
 *
 * Calls go down that list, so the split makes no loop.
 */
#ifndef XLS_FILES_RUN_H
#define XLS_FILES_RUN_H

#include "base/hashmap.h"
#include "base/inoidx.h"
#include "base/pagestore.h"
#include "base/spillq.h"
#include "recover/recover.h"
#include "replay/overlay.h"
#include "semantics/dirent.h"
#include "files/files.h"
#include "semantics/fsview.h"
#include "semantics/names.h"
#include "semantics/owner.h"
#include "semantics/xattr.h"

/*
 * What few inodes need besides their core: shortform forks, a directory's
 * inode.  Apart, so that the many without any cost a pointer.
 */
struct ino_forks {
	uint8_t		*sf;		/* a shortform directory's fork, or NULL */
	uint32_t	sf_len;
	uint8_t		*asf;		/* a shortform attr fork, or NULL */
	uint32_t	asf_len;
	/*
	 * A directory as the log has left it so far, an on-disk inode of
	 * inode_size bytes, or NULL: names look up ".." and entries through it.
	 */
	uint8_t		*dino;
	uint64_t	ino;
};

/*
 * An inode as the log said last, and what its events counted as they went
 * out: kept by the million on an item-dense log, so only the fields its
 * events and summary tell (xls_files_core_get and _set convert), not a
 * whole struct xls_inode_core; 96 bytes, in a struct xls_pagestore.
 */
struct ino_state {
	uint64_t	ino;
	uint64_t	size, nextents;
	uint64_t	atime, mtime, ctime, crtime;
	uint32_t	uid, gid, nlink, gen;
	uint32_t	events;			/* went out, for its summary */
	uint32_t	first_seq, last_seq;
	uint16_t	mode;
	uint8_t		format, aformat;
	bool		valid;
	bool		known;		/* a core to compare with */
	/* recovery skipped its last item: the disk holds where it leaves it */
	bool		last_skipped;
	bool		seen;		/* an item of it taken, its baseline read */
	bool		has_forks;	/* a struct ino_forks in xls_files.forks */
};

/*
 * The directory block at hand, gathered piece by piece (a compound's
 * segments) before and after its items: places are byte ranges of it.
 */
#define XLS_DIR_ACC_PLACES	(XFS_BLF_DATAMAP_SIZE * XLS_BLF_BITS_PER_WORD)
/* Filesystem blocks of a directory block at most: 64 KiB of 512-byte ones. */
#define XLS_DIR_ACC_PIECES	128u

struct xls_dir_acc {
	bool			active;
	bool			seen;		/* the view had every piece before */
	bool			known;		/* the state before can be compared with */
	bool			fresh;		/* the disk held no block of it */
	bool			quiet;		/* a segment of unknown place: no problems */
	int64_t			blkno;		/* of its first piece */
	uint32_t		bytes;
	uint32_t		compound;	/* recovery's id of it, 0: one item */
	uint8_t			*before, *after;
	uint32_t		cap;
	struct xls_region_place	changed[XLS_DIR_ACC_PLACES];	/* bytes the item changes */
	uint32_t		nchanged;
	struct xls_region_place	logged[XLS_DIR_ACC_PLACES];	/* bytes it logs */
	uint32_t		nlogged;
	/* a block the disk holds a later state of: its chunks the log logged before */
	uint64_t		*logged_before;
	/* a compound mapped by its directory: the daddr of each filesystem block */
	int64_t			pieces[XLS_DIR_ACC_PIECES];
	uint32_t		npieces;
	uint64_t		seen_pieces[XLS_DIR_ACC_PIECES / 64];	/* the view had them */
};

/*
 * A directory block the disk holds a later state of than the log's first
 * item of it: the state before each later item is known only in the
 * chunks the log has logged since; the others hold the disk's later
 * entries.  One bit per XFS_BLF_CHUNK of the block.
 */
struct xls_later_block {
	uint64_t		logged[XFS_MAX_BLOCKSIZE / XFS_BLF_CHUNK / 64];
};

/*
 * The events waiting for a path (files_out.c): at most this many bytes in
 * memory, the later ones in a temporary file, and at most the second
 * bound in all.  An item-dense log fills the first at files' peak of
 * memory; the file is written and read in order, in the page cache, and
 * halving the memory (8 to 4 MiB) cost no time measurable on dense2g.
 */
#define XLS_FILES_HOLD_MEM	(4u << 20)
#define XLS_FILES_HOLD_BYTES	(1ull << 30)

struct xls_held_event;
struct xls_files_out {
	struct xls_held_event	*q;
	uint32_t		head, n, cap;
	struct xls_pool		pool;		/* their names and paths */
	struct xls_spillq	spill;		/* those after them, in order */
	uint64_t		hold_mem;	/* XLS_FILES_HOLD_MEM, or less */
	uint64_t		last_ino;	/* the inode the last event counted for */
	uint32_t		last;		/* its index; UINT32_MAX: none yet */
};

struct xls_files {
	const struct xls_source		*src;
	struct xls_quota_opts		quota;		/* the mount recovery stands for */
	struct xls_overlay		view;		/* the log's view of dir blocks */
	struct xls_fsview		disk;
	/* the log's view so far: its directories and their blocks, over the disk */
	struct xls_fsview		logview;
	struct xls_fsview_clusters	clusters;
	struct xls_names		names;
	/* ino -> inos[]: each inode an item or an event is about */
	struct xls_inoidx		idx;
	/*
	 * The states, by index, XLS_FILES_STATE_MEM of them in memory: the
	 * item at hand pins its own, as an event going out may look up or
	 * add another.
	 */
	struct xls_pagestore		states;
	uint32_t			ninos;
	/* ino -> forks[]: the few inodes with a struct ino_forks */
	struct xls_hashmap		forks_idx;
	struct ino_forks		**forks;
	uint32_t			nforks, capforks;
	const struct xls_files_sink	*sink;
	/* the events of the transaction at hand, paired into moves at its end */
	struct xls_file_event		*pend;
	uint32_t			npend, cappend;
	struct xls_pool			pool;		/* their names */
	const struct xls_rtrans		*rt;
	struct xls_dirent_set		before, after;
	struct xls_xattr_set		abefore, aafter;
	uint8_t				*blk;		/* a block read from the view */
	uint32_t			blk_cap;
	struct xls_dir_acc		dir;
	/* daddr -> later[]: the blocks the disk holds a later state of */
	struct xls_hashmap		later_idx;
	struct xls_later_block		*later;
	uint32_t			nlater, caplater;
	struct xls_files_out		out;
	char				path[XLS_NAMES_PATH_MAX];
	/* adds (or attr sets) of the transaction by inode, to pair with removes */
	struct xls_hashmap		adds;
	struct xls_hashmap		created;	/* inodes it creates */
	/* (id, enum xls_files_struct) -> the XLS_DIRP_* problems reported */
	struct xls_hashmap		malformed;
	/* the first temporary file that failed (other than the events'), and why */
	const char			*tmp_dir;
	int				tmp_error;
	bool				replayed;	/* the item at hand */
	bool				stale;		/* xls_files_run's @stale */
	int				rc;
	bool				nomem;
};

/* files_event.c */
struct xls_file_event *xls_fevent(struct xls_files *f, uint64_t ino, enum xls_fev ev);
void xls_fevent_name(struct xls_files *f, struct xls_file_event *e, const uint8_t *name,
		     uint32_t len, bool second);
/* Pair the transaction's events (moves, form changes), learn names, emit them. */
void xls_files_flush(struct xls_files *f);
/* A block-sized scratch buffer, NULL when out of memory. */
uint8_t *xls_files_scratch(struct xls_files *f, uint32_t bytes);
/*
 * The copy of a shortform fork (@attr: the attr fork, else the directory's)
 * an inode's next item is compared with; @fork NULL: none.
 */
/*
 * Directory @dir's inode item moves its data fork from @before (the
 * disk's inode when @before_disk) to @after (inode images): the blocks it
 * maps anew that the log's view never had add their entries, as the
 * device holds them.
 */
void xls_files_dir_remap(struct xls_files *f, uint64_t dir, const uint8_t *before,
			 bool before_disk, const uint8_t *after);
/* What an event or a summary states of an inode's core. */
void xls_files_core_state(const struct xls_inode_core *c, struct xls_fev_inode *st);
void xls_files_keep_fork(struct xls_files *f, struct ino_state *s, bool attr,
			 const uint8_t *fork, uint32_t len);
/* Room for @s's directory inode: its struct ino_forks, made if need be. */
struct ino_forks *xls_files_forks(struct xls_files *f, struct ino_state *s);
/* Whether a fork logged again is byte for byte the copy kept: no events then. */
bool xls_files_fork_same(const uint8_t *kept, uint32_t kept_len, const uint8_t *fork,
			 uint32_t len);
/* What xls_files_malformed() is told of; its id is an inode or a daddr. */
enum xls_files_struct {
	XLS_FILES_SF_DIR,		/* a shortform directory: inode */
	XLS_FILES_DIR_BLOCK,		/* daddr */
	XLS_FILES_SF_ATTR,		/* inode */
	XLS_FILES_ATTR_LEAF,		/* daddr */
};
/* A finding, the first time @id has each of @problems (XLS_DIRP_*), 0: none. */
void xls_files_malformed(struct xls_files *f, enum xls_files_struct what, uint64_t id,
			 uint32_t problems);

/*
 * The states' memory: -DXLS_FILES_STATE_MEM=... in CFLAGS, a build whose
 * states go to the file all the time, to test it.
 */
#ifndef XLS_FILES_STATE_MEM
#define XLS_FILES_STATE_MEM	(16u << 20)
#endif
/* The summaries sorted by inode at the end: this much, then runs in a file. */
#define XLS_FILES_SUMMARY_MEM	(8u << 20)

/* State @i (below f->ninos), valid as xls_pagestore_at says; NULL on a failure. */
static inline struct ino_state *xls_files_ino(struct xls_files *f, uint32_t i)
{
	return xls_pagestore_at(&f->states, i);
}

/* @s's forks, read-only: none when it has no struct ino_forks. */
static inline const struct ino_forks *xls_ino_forks(const struct xls_files *f,
						    const struct ino_state *s)
{
	static const struct ino_forks none;
	const uint32_t *i = s->has_forks ? xls_hashmap_find(&f->forks_idx, s->ino, 0) : NULL;

	return i ? f->forks[*i] : &none;
}

/* files_out.c */
/* A temporary file in @dir failed with @error: the run ends in an error that says so. */
void xls_files_tmp_failed(struct xls_files *f, const char *dir, int error);
/*
 * The index of @ino's state (xls_files_ino), a blank one made where it has
 * none; UINT32_MAX on a failure (f->nomem, or the states' file).
 */
uint32_t xls_files_state_index(struct xls_files *f, uint64_t ino);
/* A state could not be had: the store's file failed (said at the end), or memory. */
void xls_files_state_failed(struct xls_files *f);
void xls_files_core_get(const struct ino_state *s, struct xls_inode_core *c);
void xls_files_core_set(struct ino_state *s, const struct xls_inode_core *c);
/* Event @e of the transaction at hand, with its path: to the sink, or held. */
void xls_files_out_put(struct xls_files *f, struct xls_file_event *e);
/* Events held whose path is known now go out; @final: all of them (the end). */
void xls_files_out_drain(struct xls_files *f, bool final);
void xls_files_out_release(struct xls_files_out *o);
/* Each inode events went out for, where recovery leaves it, to the sink. */
void xls_files_out_summaries(struct xls_files *f);

/* files_dir.c */
bool xls_files_is_dir_data(unsigned int blft);
/* The entries of f->before and f->after that differ: events of directory @dir. */
void xls_files_diff_entries(struct xls_files *f, uint64_t dir);
void xls_files_take_dir_buf(struct xls_files *f, const struct xls_rtrans *rt,
			    const struct xls_ritem *ri);
/* The block gathered so far compared: before any other item is taken. */
void xls_files_dir_flush(struct xls_files *f);

/* files_attr.c */
void xls_files_attrs_reset(struct xls_files *f);
void xls_files_diff_attrs(struct xls_files *f, uint64_t ino);
void xls_files_take_attr_buf(struct xls_files *f, const struct xls_rtrans *rt,
			     const struct xls_ritem *ri);
void xls_files_asf_events(struct xls_files *f, uint64_t ino, struct ino_state *s,
			  const struct xls_rinode *in, const struct xls_inode_core *now);

#endif /* XLS_FILES_RUN_H */
