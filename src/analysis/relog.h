/*
 * Analysis stage: relogged bytes.  Every 128-byte chunk a committed item
 * logs has an address -- for a buffer the absolute byte blkno * 512 +
 * offset in the buffer, for an inode the inode number, the part (core,
 * data fork, attr fork) and the offset in it -- and is, against what the
 * committed items before it logged:
 *
 *   first      no earlier item logged that address;
 *   unchanged  its bytes equal those last logged at that address;
 *   changed    otherwise.
 *
 * The table keeps 48 bits of a hash of each address's last bytes, not the
 * bytes (base/chunkhash.h): a changed chunk passes for unchanged with a
 * chance of 2^-48, so that over the 10 million chunks of a 2 GiB log the
 * expected number of chunks counted wrong is below 10^-7.  Its memory is bounded: when it is full, addresses
 * not relogged for the longest while (a clock over reference bits) make
 * room (a group of 8 addresses at a time); a chunk whose address was
 * dropped counts as first again, so from
 * the first drop on, first is an upper bound and changed + unchanged a
 * lower one, both off by at most the first bytes counted since
 * (xls_relog_status).
 */
#ifndef XLS_RELOG_H
#define XLS_RELOG_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of each class. */
struct xls_relog_split {
	uint64_t	first;
	uint64_t	changed;
	uint64_t	unchanged;
};

static inline uint64_t xls_relog_split_total(const struct xls_relog_split *s)
{
	return s->first + s->changed + s->unchanged;
}

static inline void xls_relog_split_add(struct xls_relog_split *to,
				       const struct xls_relog_split *s)
{
	to->first += s->first;
	to->changed += s->changed;
	to->unchanged += s->unchanged;
}

/* The parts of an inode item, as addresses tell them apart. */
enum xls_inode_part {
	XLS_INODE_CORE,
	XLS_INODE_DATA_FORK,
	XLS_INODE_ATTR_FORK,
};

/*
 * The address of chunk @chunk of the buffer at daddr @blkno: its byte
 * address / 128.  Buffer keys have the top bit clear, inode keys set.
 */
static inline uint64_t xls_relog_buf_key(int64_t blkno, uint32_t chunk)
{
	return ((uint64_t)blkno * 4 + chunk) & ~(1ull << 63);
}

/*
 * Chunk @chunk of part @part of inode @ino.  The first chunks of an inode
 * share one group of 8 addresses -- the core's two, then three of each
 * fork -- so that an inode item takes one slot of the table; chunks past
 * those have addresses of their own.  Inode numbers of 2^59 and more (and,
 * past the first group, of 2^52) are folded in, so only a hostile log could
 * make two such addresses one.
 */
#define XLS_RELOG_INODE_FIRST	3u	/* chunks of a fork in the inode's group */

static inline uint64_t xls_relog_fold(uint64_t v, unsigned int bits)
{
	const uint64_t mask = (1ull << bits) - 1;

	return (v & ~mask) ? (v ^ (v >> bits) * 0x9e3779b97f4a7c15ull) & mask : v;
}

static inline uint64_t xls_relog_inode_key(uint64_t ino, enum xls_inode_part part,
					   uint32_t chunk)
{
	static const uint8_t first[3] = { 0, 2, 2 + XLS_RELOG_INODE_FIRST };
	uint32_t in_group = part == XLS_INODE_CORE ? 2 : XLS_RELOG_INODE_FIRST;

	if (chunk < in_group)
		return 1ull << 63 | xls_relog_fold(ino, 59) << 3 | (first[part] + chunk);
	return 3ull << 62 | xls_relog_fold(ino ^ (uint64_t)(chunk >> 8) << 52, 52) << 10 |
	       (uint64_t)part << 8 | (chunk & 0xff);
}

struct xls_relog_status {
	uint64_t	tracked;	/* addresses held */
	uint64_t	capacity;	/* the most it can hold */
	uint64_t	evicted;	/* addresses dropped to make room */
	uint64_t	first_unsure;	/* first bytes counted since the first drop */
	size_t		table_bytes;	/* memory of the table now */
};

struct xls_relog;

/* A table of at most @max_bytes (at least 64 KiB); NULL when out of memory. */
struct xls_relog *xls_relog_new(size_t max_bytes);
void xls_relog_free(struct xls_relog *rl);

/* The bytes a chunk counts for: XFS_BLF_CHUNK, less for the end of an inode part. */
#define XLS_RELOG_CHUNK	128u

/*
 * Class the @n chunks at consecutive addresses from @key, with hashes
 * @hash[0 .. n), the last counting for @last_len bytes and the others for
 * XLS_RELOG_CHUNK; add their bytes to @split and to @total (may be NULL),
 * and hold their hashes.  Never fails: without memory to grow, it drops
 * old addresses instead.
 */
void xls_relog_run(struct xls_relog *rl, uint64_t key, uint32_t n, const uint64_t *hash,
		   uint32_t last_len, struct xls_relog_split *split,
		   struct xls_relog_split *total);

/* Start fetching the table's memory for the chunk at @key, soon to be run. */
void xls_relog_prefetch(const struct xls_relog *rl, uint64_t key);

void xls_relog_status(const struct xls_relog *rl, struct xls_relog_status *st);
/*
 * The longest run of occupied slots, which a probe may walk: what keeps
 * a look-up short, for the tests (a table evenly filled three quarters
 * keeps it to tens of slots).
 */
uint32_t xls_relog_longest_run(const struct xls_relog *rl);

#endif /* XLS_RELOG_H */
