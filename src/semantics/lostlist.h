/*
 * Semantics stage: the two lists lost reports that grow with the log --
 * an entry per name recovery adds or removes, an inode per core it
 * changes, millions on a log of new files -- kept in the order they are
 * printed, each in a spill pool (base/spillpool.h): XLS_LOST_LIST_MEM of
 * memory, the rest in a temporary file read back as they are printed.
 */
#ifndef XLS_LOSTLIST_H
#define XLS_LOSTLIST_H

#include <stdbool.h>
#include <stdint.h>
#include "base/err.h"
#include "base/spillpool.h"
#include "semantics/lost.h"

struct xls_lost_lists {
	struct xls_spillpool	dirents, inodes;
	uint32_t		ndirents, ninodes;
	bool			read_failed;	/* a list could not be read back */
};

/* What an inode became, as lost's records say it. */
enum xls_lost_what { XLS_LOST_CHANGED, XLS_LOST_CREATED, XLS_LOST_FREED };

void xls_lost_lists_init(struct xls_lost_lists *ll);
void xls_lost_lists_free(struct xls_lost_lists *ll);

/* An entry @name (@len bytes) of @dir naming @ino, added or removed: 0 or -ENOMEM. */
int xls_lost_lists_add_dirent(struct xls_lost_lists *ll, uint64_t dir, uint64_t ino,
			      const uint8_t *name, uint32_t len, bool add);

/*
 * Inode @ino's @n fields that differ (@fields, one bit each), their
 * values on the disk (@disk, NULL: all 0) and as recovered: 0 or -ENOMEM.
 */
int xls_lost_lists_add_inode(struct xls_lost_lists *ll, uint64_t ino, uint16_t mode,
			     uint16_t fields, uint32_t n, enum xls_lost_what what,
			     const uint64_t *disk, const uint64_t *recovered);

/* The next of each list from @c, as xls_lost_next_dirent() says. */
bool xls_lost_lists_next_dirent(struct xls_lost_lists *ll, struct xls_lost_cursor *c,
				struct xls_lost_dirent *d);
bool xls_lost_lists_next_inode(struct xls_lost_lists *ll, struct xls_lost_cursor *c,
			       struct xls_lost_inode *in);

/* 0, or -1 with @err set when a list could not be read back. */
int xls_lost_lists_error(const struct xls_lost_lists *ll, struct xls_error *err);

#endif /* XLS_LOSTLIST_H */
