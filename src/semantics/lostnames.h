/*
 * Semantics stage: the names lost prints its paths with.  The entries of
 * the directories it compares name their inodes: a directory's name is
 * kept in struct xls_names, which builds every path from them; another
 * inode's (one per inode created on a log of new files: 2 million on
 * inodes1g, 80 MB with their index in memory) waits in a sorted spill,
 * wanted only when its inode is printed, in inode order.
 */
#ifndef XLS_LOSTNAMES_H
#define XLS_LOSTNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "base/sortspill.h"
#include "semantics/dirent.h"
#include "semantics/fsview.h"
#include "semantics/names.h"

/* -DXLS_LOST_LEAF_MEM=... in CFLAGS: a build that spills all the time, to test it. */
#ifndef XLS_LOST_LEAF_MEM
#define XLS_LOST_LEAF_MEM	(8u << 20)
#endif

/* A name as the spill keeps it, keyed by its inode. */
struct xls_leaf_name {
	uint64_t	dir;
	uint8_t		name[255];
};

struct xls_lost_names {
	const struct xls_geometry	*g;
	struct xls_names		names;		/* the directories' */
	struct xls_sortspill		leaves;		/* ino -> struct xls_leaf_name */
	/* the last inode asked for, and its name when the spill has one */
	uint64_t			asked;		/* 0: none yet */
	bool				named;
	uint32_t			len;
	struct xls_leaf_name		leaf;
};

void xls_lost_names_init(struct xls_lost_names *n, const struct xls_fsview *view);
void xls_lost_names_release(struct xls_lost_names *n);

/* Entry @k of @set, of directory @dir, names its inode: 0, or -errno (the spill's). */
int xls_lost_names_learn(struct xls_lost_names *n, uint64_t dir,
			 const struct xls_dirent_set *set, uint32_t k);

/*
 * The path of @ino into @buf, NULL when not known.  Fastest asked in
 * inode order: an inode before the last one asked reads the spill again
 * from its start.
 */
const char *xls_lost_names_path(struct xls_lost_names *n, uint64_t ino, char *buf,
				size_t bufsz);

/* 0, or -1 with @err set when the spill failed (its file, not memory). */
int xls_lost_names_error(const struct xls_lost_names *n, struct xls_error *err);

#endif /* XLS_LOSTNAMES_H */
