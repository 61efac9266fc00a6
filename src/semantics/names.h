/*
 * Semantics stage: inode -> (parent, name), and paths.  Names are learnt
 * from the directory entries the other modules read (logged regions,
 * replayed blocks, shortform forks, parent pointers); a directory whose
 * name the log does not hold is looked up in the filesystem view given
 * (its ".." entry, then its parent's entries), bounded per lookup.
 * Names are kept as stored (an obfuscated metadump's names stay so).
 */
#ifndef XLS_NAMES_H
#define XLS_NAMES_H

#include <stdbool.h>
#include <stdint.h>
#include "base/hashmap.h"
#include "base/vec.h"
#include "semantics/fsview.h"

/* At most this many inodes named (about 100 MiB with their names). */
#define XLS_NAMES_MAX		(1u << 21)
/* A path deeper than this is not followed (a loop in the parent chain). */
#define XLS_NAMES_MAX_DEPTH	256u

struct xls_name {
	uint64_t	parent;
	uint32_t	name;		/* offset in pool */
	uint8_t		len;
};

struct xls_names {
	const struct xls_fsview	*view;	/* for the links the log does not hold */
	struct xls_hashmap	idx;	/* ino -> names[] */
	struct xls_hashmap	tried;	/* inodes looked up in the view in vain */
	struct xls_name		*names;
	uint32_t		n, cap;
	struct xls_pool		pool;
	bool			full;	/* XLS_NAMES_MAX reached */
	uint64_t		loops;	/* parent chains that did not reach the root */
};

void xls_names_init(struct xls_names *m, const struct xls_fsview *view);
void xls_names_release(struct xls_names *m);

/* @ino is called @name (@len bytes) in directory @parent: the latest wins. */
void xls_names_learn(struct xls_names *m, uint64_t ino, uint64_t parent,
		     const uint8_t *name, uint32_t len);
/* @ino is no longer @name in @parent (removed, renamed away). */
void xls_names_forget(struct xls_names *m, uint64_t ino, uint64_t parent);

/*
 * The path of @ino into @buf ("/a/b"; the root is "/"): true when the
 * chain reaches the root, false otherwise (@buf then holds what is known,
 * from the first unnamed inode: "?0x83/b"; a chain that loops or is
 * deeper than XLS_NAMES_MAX_DEPTH: "?0x85 (a loop)"), its length in *@len
 * unless @len is NULL.
 */
bool xls_names_path(struct xls_names *m, uint64_t ino, char *buf, size_t bufsz, size_t *len);

#endif /* XLS_NAMES_H */
