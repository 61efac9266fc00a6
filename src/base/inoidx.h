/*
 * A map from an inode number to a 32-bit value (an index into the
 * caller's table), for what is kept per inode by the million: 8 bytes a
 * slot where struct xls_inomap takes 16.  Inode numbers share their high
 * 32 bits by the million (all of them, below 2^32, on most filesystems),
 * so a slot holds only the low 32 bits and the value, in a table per
 * high part.  A log naming more high parts than XLS_INOIDX_TABLES (only
 * a hostile one: an inode number's high bits are its AG's) has the rest
 * kept in an xls_inomap beside them.  Linear probing, each table at most
 * 3/4 full, grown by half again (so between half and 3/4 full once
 * grown: by doubling, a table could be 3/8 full); no deletion.  Slots come from malloc, not
 * base/bigmem.h, whose 2 MiB huge pages would round each table up.
 */
#ifndef XLS_INOIDX_H
#define XLS_INOIDX_H

#include <stdbool.h>
#include <stdint.h>
#include "base/inomap.h"

/* The one value a map cannot hold: it marks an empty slot. */
#define XLS_INOIDX_NONE		UINT32_MAX
#define XLS_INOIDX_TABLES	64u

struct xls_inoidx_slot {
	uint32_t	lo;		/* the inode number's low 32 bits */
	uint32_t	v;		/* XLS_INOIDX_NONE: empty */
};

/*
 * A table is XLS_INOIDX_SHARDS tables, picked by a hash's top bits, each
 * grown on its own: growing, a table holds its old slots and the new
 * ones at once, and a sixteenth of the map is what that costs.
 */
#define XLS_INOIDX_SHARD_BITS	4u
#define XLS_INOIDX_SHARDS	(1u << XLS_INOIDX_SHARD_BITS)

struct xls_inoidx_shard {
	uint32_t		cap;
	uint32_t		used;
	struct xls_inoidx_slot	*slot;
};

struct xls_inoidx_table {
	uint32_t		hi;	/* the inode numbers' high 32 bits */
	struct xls_inoidx_shard	shard[XLS_INOIDX_SHARDS];
};

struct xls_inoidx {
	struct xls_inoidx_table	tab[XLS_INOIDX_TABLES];
	uint32_t		ntab;
	uint32_t		last;	/* the table made last */
	struct xls_inomap	more;	/* of the high parts past the tables */
};

#define XLS_INOIDX_INIT	{ .ntab = 0 }

/* The value of @ino, or XLS_INOIDX_NONE when it has none. */
uint32_t xls_inoidx_find(const struct xls_inoidx *m, uint64_t ino);

/*
 * @ino's value becomes @v (not XLS_INOIDX_NONE); 0, or -1 when out of
 * memory or @v is XLS_INOIDX_NONE (the map unchanged).
 */
int xls_inoidx_put(struct xls_inoidx *m, uint64_t ino, uint32_t v);

/*
 * The next entry from *@pos (start from XLS_INOIDX_POS0), in no order:
 * false at the end.  The map must not change during the walk.
 */
struct xls_inoidx_pos {
	uint32_t	tab, shard, slot;
	uint32_t	more;		/* position in the spill-over map */
};
#define XLS_INOIDX_POS0	{ 0, 0, 0, 0 }
bool xls_inoidx_next(const struct xls_inoidx *m, struct xls_inoidx_pos *pos, uint64_t *ino,
		     uint32_t *v);

/* Inode numbers in the map. */
uint64_t xls_inoidx_count(const struct xls_inoidx *m);

/* Bytes of the tables, for the man page's figures and the tests. */
uint64_t xls_inoidx_bytes(const struct xls_inoidx *m);

void xls_inoidx_free(struct xls_inoidx *m);

#endif /* XLS_INOIDX_H */
