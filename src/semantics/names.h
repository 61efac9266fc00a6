/*
 * Semantics stage: inode -> (parent, name), and paths.  Names are learnt
 * from the directory entries the other modules read (logged regions,
 * replayed blocks, shortform forks, parent pointers); a directory whose
 * name is not known yet is looked up in the filesystem view given (its
 * ".." entry, then its parent's entries, every one of which is learnt on
 * the way), and so is an inode with parent pointers (its XFS_ATTR_PARENT
 * attrs).  The view may change as the log goes on (files reads the log's
 * view of the directories): a look-up that failed is tried again once
 * the view has changed enough (xls_names_view_changed), each inode at
 * most about log2 of the changes times.
 *
 * An inode with several links (hard links) keeps each the log adds (up
 * to XLS_NAMES_LINKS of them, and those seen in place): its
 * path is the newest one still linked, so removing one link leaves the
 * inode named by another.
 *
 * How sure a name is (enum xls_name_level): an entry seen changed (added,
 * moved) becomes the name an inode goes by; one only seen in place,
 * unchanged, names an inode that has no name yet, or whose name was
 * removed (a block read from the disk may hold an older state than the log
 * has already told); a name removed stays the inode's last known one until
 * another is seen, but is no current link (xls_names_final_path).
 *
 * Names are kept as stored (an obfuscated metadump's names stay so).
 */
#ifndef XLS_NAMES_H
#define XLS_NAMES_H

#include <stdbool.h>
#include <stdint.h>
#include "base/hashmap.h"
#include "base/inoidx.h"
#include "base/pagestore.h"
#include "base/vec.h"
#include "semantics/fsview.h"

/* At most this many inodes named (26 MiB of index, the names on a file). */
#define XLS_NAMES_MAX		(1u << 21)
/*
 * The names in memory, the rest in a temporary file (base/pagestore.h):
 * -DXLS_NAMES_MEM=... in CFLAGS, a build that spills all the time.
 */
#ifndef XLS_NAMES_MEM
#define XLS_NAMES_MEM		(4u << 20)
#endif
/* A name this long or shorter is kept in its struct xls_name, a longer one in the pool. */
#define XLS_NAME_INLINE		18u
/* Links of one inode kept besides the one it goes by. */
#define XLS_NAMES_LINKS		32u
/* A path deeper than this is not followed (a loop in the parent chain). */
#define XLS_NAMES_MAX_DEPTH	256u
/* A path's bytes at most (PATH_MAX); a longer one is cut short. */
#define XLS_NAMES_PATH_MAX	4096u

enum xls_name_level {
	XLS_NAME_NONE,
	XLS_NAME_REMOVED,	/* the entry is gone: the last name known */
	XLS_NAME_SEEN,		/* an entry seen in place */
	XLS_NAME_CHANGED,	/* an entry the log adds or moves */
};

/* 32 bytes, by the million in a page store: a file's name is mostly short. */
struct xls_name {
	uint64_t	parent;
	uint32_t	name;		/* offset in pool, past XLS_NAME_INLINE bytes */
	uint8_t		len;
	uint8_t		level;		/* enum xls_name_level */
	uint8_t		bytes[XLS_NAME_INLINE];	/* the name, when that long at most */
};

/* A link of an inode besides the one its path goes by. */
struct xls_name_link {
	struct xls_name	link;
	uint32_t	next;		/* the inode's next other link, UINT32_MAX none */
};

struct xls_names {
	const struct xls_fsview	*view;	/* for the links the log does not hold */
	struct xls_inoidx	idx;	/* ino -> names[]: the link the path goes by */
	struct xls_hashmap	alt;	/* ino -> links[]: its first other link */
	struct xls_name_link	*links;
	uint32_t		nlinks, caplinks;
	struct xls_hashmap	tried;	/* ino -> the epoch it was looked up in vain at */
	/* names[] by index: NULL until the first, and when it cannot be had */
	struct xls_pagestore	names;
	bool			names_ok;
	uint32_t		n;
	struct xls_pool		pool;	/* the names too long to be kept in place */
	uint32_t		epoch;	/* changes of the view */
	bool			full;	/* XLS_NAMES_MAX reached */
	uint64_t		loops;	/* parent chains that did not reach the root */
	uint64_t		lookups;	/* look-ups in the view */
	/*
	 * Names and links not kept for want of memory (or of room in the
	 * pool, past 4 GiB): the inode keeps no name, or an older one, and its
	 * path may be unknown.  Counted here, as loops is, so that it is not
	 * silent; nothing prints it, the paths being what is kept.
	 */
	uint64_t		dropped;
};

void xls_names_init(struct xls_names *m, const struct xls_fsview *view);
void xls_names_release(struct xls_names *m);

/* @ino is called @name (@len bytes) in directory @parent: the latest wins. */
void xls_names_learn(struct xls_names *m, uint64_t ino, uint64_t parent,
		     const uint8_t *name, uint32_t len);
/* The same, seen in place: only when @ino has no name yet, or a removed one. */
void xls_names_learn_weak(struct xls_names *m, uint64_t ino, uint64_t parent,
			  const uint8_t *name, uint32_t len);
/*
 * The entry @name of @parent is removed: that link of @ino is gone; its
 * path goes by another link still there, else it keeps the removed name
 * (no current link).
 */
void xls_names_removed(struct xls_names *m, uint64_t ino, uint64_t parent,
		       const uint8_t *name, uint32_t len);
/* An xls_dirent_fn learning each entry of directory *(uint64_t *)@ctx weakly. */
struct xls_names_dir {
	struct xls_names	*m;
	uint64_t		dir;
};
int xls_names_learn_entry(void *ctx, const struct xls_dirent *e);

/* The view changed: look-ups that failed may be worth trying again. */
static inline void xls_names_view_changed(struct xls_names *m)
{
	m->epoch++;
}

/*
 * The path of @ino into @buf ("/a/b"; the root is "/"), its length in
 * *@len unless @len is NULL: true when the chain reaches the root.  When
 * it does not, @buf holds "" (the path is unknown).
 */
bool xls_names_path(struct xls_names *m, uint64_t ino, char *buf, size_t bufsz, size_t *len);

/* The path of entry @name (@namelen bytes) of directory @dir, as xls_names_path. */
bool xls_names_entry_path(struct xls_names *m, uint64_t dir, const uint8_t *name,
			  uint32_t namelen, char *buf, size_t bufsz, size_t *len);

/*
 * The path of @ino, then "/" @tail when @tail is not NULL, as far as it
 * is known now: true when whole.  When the chain stops at an inode with no
 * name yet, *@stuck is that inode and @buf holds the names below it
 * ("/b/c"): the path is the stuck inode's, once named, then @buf.
 * *@stuck is 0 (and @buf "") when it never will be: a loop.
 */
bool xls_names_path_part(struct xls_names *m, uint64_t ino, const uint8_t *tail,
			 uint32_t tail_len, char *buf, size_t bufsz, size_t *len, uint64_t *stuck);

/*
 * The path of @ino through current links only, as recovery leaves the
 * tree (a name removed is none): as xls_names_path.
 */
bool xls_names_final_path(struct xls_names *m, uint64_t ino, char *buf, size_t bufsz,
			  size_t *len);

/* @ino had a name, and every link of it known is removed. */
bool xls_names_unlinked(struct xls_names *m, uint64_t ino);

/* 0, or the errno of the names' temporary file (not of memory: see dropped). */
int xls_names_file_error(const struct xls_names *m);

#endif /* XLS_NAMES_H */
