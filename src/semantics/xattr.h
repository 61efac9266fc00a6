/*
 * Semantics stage: extended attributes, from shortform attr forks
 * (xfs_attr_sf_hdr, xfs_attr_sf_entry) in inode items and on disk, and
 * from attr leaf blocks (xfs_attr_leaf_hdr or xfs_attr3_leaf_hdr, the
 * xfs_attr_leaf_entry array, local and remote names).  Node-form attr
 * forks keep their entries in leaf blocks too; a remote value's bytes
 * are in blocks of their own and are not read.  Parent pointers (the
 * XFS_ATTR_PARENT namespace) are attrs whose name is the directory entry's
 * name and whose value is the parent's xfs_parent_rec.  Every length is
 * checked against the fork or the block, as in dirent.h.
 */
#ifndef XLS_XATTR_H
#define XLS_XATTR_H

#include <stdbool.h>
#include <stdint.h>
#include "base/vec.h"
#include "source/source.h"

struct xls_xattr {
	uint32_t	flags;		/* XFS_ATTR_ROOT, _SECURE, _PARENT */
	const uint8_t	*name;
	uint32_t	namelen;
	const uint8_t	*value;		/* NULL for a remote value */
	uint32_t	valuelen;
	bool		remote;
};

typedef int (*xls_xattr_fn)(void *ctx, const struct xls_xattr *a);

/* Is @blk an attr leaf block (either version)? */
bool xls_attr_is_leaf(const uint8_t *blk, uint32_t len);

/* Every attr of the shortform fork @fork of @len bytes; XLS_DIRP_* problems. */
uint32_t xls_attr_sf_walk(const uint8_t *fork, uint32_t len, xls_xattr_fn fn, void *ctx);

/* Every complete attr of leaf block @blk of @len bytes; XLS_DIRP_* problems. */
uint32_t xls_attr_leaf_walk(const uint8_t *blk, uint32_t len, xls_xattr_fn fn, void *ctx);

/* "user", "trusted", "secure", "parent": the namespace of @flags. */
const char *xls_xattr_ns(uint32_t flags);

/* A parent pointer's parent (xfs_parent_rec: __be64 p_ino, __be32 p_gen). */
bool xls_xattr_parent(const struct xls_xattr *a, uint64_t *ino, uint32_t *gen);

/*
 * A set of attrs to compare with another: keyed by namespace, parent (for
 * parent pointers) and name, with a hash of the value; names copied.
 * xls_xattr_set_add() is an xls_xattr_fn.
 */
struct xls_xattr_rec {
	uint32_t	flags;		/* namespace */
	uint64_t	parent;		/* parent pointers: the directory, else 0 */
	uint32_t	name;		/* offset in pool */
	uint8_t		len;
	uint64_t	vhash;		/* of the value (remote: its length) */
};

struct xls_xattr_set {
	struct xls_xattr_rec	*e;
	uint32_t		n, cap;
	struct xls_pool		pool;
	bool			nomem;
};

int xls_xattr_set_add(void *set, const struct xls_xattr *a);
void xls_xattr_set_sort(struct xls_xattr_set *s);
void xls_xattr_set_reset(struct xls_xattr_set *s);
void xls_xattr_set_free(struct xls_xattr_set *s);
/* Order of attr @i of @a and @j of @b by key (not value). */
int xls_xattr_set_cmp(const struct xls_xattr_set *a, uint32_t i,
		      const struct xls_xattr_set *b, uint32_t j);
/* "user.name", or a parent pointer's name, of attr @i into @buf; its length. */
uint32_t xls_xattr_set_name(const struct xls_xattr_set *s, uint32_t i, char *buf,
			    size_t bufsz);

#endif /* XLS_XATTR_H */
