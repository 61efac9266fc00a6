/*
 * The relog table: chunk address -> hash of the bytes last logged there.
 *
 * Chunks are held in groups of 8 consecutive addresses (1 KiB of a
 * buffer, or the first KiB of an inode part), a group in one 64-byte slot
 * -- its address, 48 bits of each of its 8 hashes, which of them are held
 * and the clock's reference bit -- so that a region of consecutive chunks
 * costs one cache line per KiB, and the slot about to be needed can be
 * fetched ahead (xls_relog_prefetch).  Open addressing with linear
 * probing; not base/hashmap.c, whose slots hold a 32-bit value, while
 * here memory is the bound.  48 bits of a 64-bit hash: a changed chunk
 * passes for unchanged with a chance of 2^-48.
 *
 * The reference bit is set when a chunk of the group is logged.  When the
 * table is full, a new group takes the slot of one of the groups on its
 * own probe path: the first whose bit is clear, clearing the bits it
 * passes (a clock over those slots), so that no probe chain is cut and no
 * tombstone is left (backward-shift deletion where the path is empty).
 * Not one hand sweeping the whole table: its drops all fell at the hand
 * while the new groups fell everywhere, so that the slots ahead of it
 * filled up; on a log of 600,000 inodes the runs grew until a probe
 * walked thousands of slots and stats took 109 s instead of half a
 * second.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/relog.h"
#include "base/bigmem.h"

#define EMPTY_KEY	UINT64_MAX
#define GROUP		8u		/* chunks a group */
#define GROUP_SHIFT	3u
#define MIN_LG		10u		/* 1024 groups */

struct slot {
	uint64_t	key;		/* group address (key >> 3), or EMPTY_KEY */
	uint32_t	lo[GROUP];	/* bits 0 .. 31 of each hash */
	uint16_t	hi[GROUP];	/* bits 32 .. 47 */
	uint8_t		present;	/* bit c: chunk c is held */
	uint8_t		ref;
	uint8_t		pad[6];
};
static_assert(sizeof(struct slot) == 64, "a group is one cache line");

struct xls_relog {
	struct slot	*slot;
	uint32_t	lg;		/* slots = 1 << lg */
	uint32_t	max_lg;
	uint32_t	used;
	uint64_t	chunks;		/* held */
	uint64_t	evicted;	/* chunks dropped */
	uint64_t	first_unsure;
};

static inline uint32_t home_of(uint64_t gkey, uint32_t lg)
{
	return (uint32_t)((gkey * 0x9e3779b97f4a7c15ull) >> (64 - lg));
}

static struct slot *slots_new(uint32_t lg)
{
	struct slot *s = xls_big_realloc(NULL, sizeof(*s) << lg);

	if (s)
		for (size_t i = 0; i < (size_t)1 << lg; i++)
			s[i].key = EMPTY_KEY;
	return s;
}

struct xls_relog *xls_relog_new(size_t max_bytes)
{
	struct xls_relog *rl = calloc(1, sizeof(*rl));

	if (!rl)
		return NULL;
	rl->lg = rl->max_lg = MIN_LG;
	while (rl->max_lg < 28 && (sizeof(struct slot) << (rl->max_lg + 1)) <= max_bytes)
		rl->max_lg++;
	rl->slot = slots_new(rl->lg);
	if (!rl->slot) {
		free(rl);
		return NULL;
	}
	return rl;
}

void xls_relog_free(struct xls_relog *rl)
{
	if (rl)
		xls_big_free(rl->slot);
	free(rl);
}

/* The empty slot where @gkey goes (it is not in the table). */
static inline uint32_t free_slot(const struct xls_relog *rl, uint64_t gkey)
{
	uint32_t mask = (1u << rl->lg) - 1, i = home_of(gkey, rl->lg);

	while (rl->slot[i].key != EMPTY_KEY)
		i = (i + 1) & mask;
	return i;
}

/* Double the table; false when that would pass the bound or memory fails. */
static bool grow(struct xls_relog *rl)
{
	struct slot *old = rl->slot, *s;
	uint32_t on = 1u << rl->lg;

	if (rl->lg >= rl->max_lg || !(s = slots_new(rl->lg + 1)))
		return false;
	rl->slot = s;
	rl->lg++;
	for (uint32_t i = 0; i < on; i++)
		if (old[i].key != EMPTY_KEY)
			rl->slot[free_slot(rl, old[i].key)] = old[i];
	xls_big_free(old);
	return true;
}

/*
 * Empty slot @i and close the gap: each later entry of the cluster whose
 * home is not cyclically in (i, j] moves back into it (Knuth's algorithm R).
 */
static void delete_at(struct xls_relog *rl, uint32_t i)
{
	uint32_t mask = (1u << rl->lg) - 1, j = i;

	for (;;) {
		uint32_t h;

		j = (j + 1) & mask;
		if (rl->slot[j].key == EMPTY_KEY)
			break;
		h = home_of(rl->slot[j].key, rl->lg);
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		rl->slot[i] = rl->slot[j];
		i = j;
	}
	rl->slot[i].key = EMPTY_KEY;
	rl->used--;
}

/* Set bits of a byte, without a libgcc call on CPUs built for without popcnt. */
static inline unsigned int bits8(uint8_t b)
{
	b = (uint8_t)(b - ((b >> 1) & 0x55));
	b = (uint8_t)((b & 0x33) + ((b >> 2) & 0x33));
	return (b + (b >> 4)) & 0x0f;
}

/* The chunks of the group in slot @i, about to leave the table. */
static void count_drop(struct xls_relog *rl, uint32_t i)
{
	uint64_t n = bits8(rl->slot[i].present);

	rl->chunks -= n;
	rl->evicted += n;
}

/*
 * The slot for group @gkey in a full table, a group dropped for it.  The
 * groups from its home to the first empty slot lie on its own probe path:
 * the first of them not logged since a look like this one last passed it
 * (at most EVICT_SLOTS looked at), else the first of them, gives @gkey its
 * slot, and no other probe path changes.  No group there (its home is
 * empty): the next group after it is dropped, the run it was in closed up
 * behind it, and @gkey goes where it probes to.
 */
#define EVICT_SLOTS	16u

static uint32_t evict_for(struct xls_relog *rl, uint64_t gkey)
{
	uint32_t mask = (1u << rl->lg) - 1, i = home_of(gkey, rl->lg), first = UINT32_MAX;

	for (uint32_t k = 0; k < EVICT_SLOTS && rl->slot[i].key != EMPTY_KEY;
	     k++, i = (i + 1) & mask) {
		if (!rl->slot[i].ref) {
			first = i;
			break;
		}
		rl->slot[i].ref = 0;
		if (first == UINT32_MAX)
			first = i;
	}
	if (first != UINT32_MAX) {
		count_drop(rl, first);
		rl->used--;
		return first;
	}
	while (rl->slot[i].key == EMPTY_KEY)
		i = (i + 1) & mask;
	count_drop(rl, i);
	delete_at(rl, i);
	return free_slot(rl, gkey);
}

/* The slot of group @gkey, added empty when it is not held. */
static struct slot *group_slot(struct xls_relog *rl, uint64_t gkey)
{
	uint32_t mask = (1u << rl->lg) - 1, i = home_of(gkey, rl->lg);
	struct slot *s;

	for (;; i = (i + 1) & mask) {
		if (rl->slot[i].key == gkey)
			return &rl->slot[i];
		if (rl->slot[i].key == EMPTY_KEY)
			break;
	}
	/* at most 3/4 full, so that probes stay short and always end */
	if ((uint64_t)(rl->used + 1) * 4 > (uint64_t)3 << rl->lg)
		i = grow(rl) ? free_slot(rl, gkey) : evict_for(rl, gkey);
	s = &rl->slot[i];
	s->key = gkey;
	s->present = 0;
	rl->used++;
	return s;
}

void xls_relog_prefetch(const struct xls_relog *rl, uint64_t key)
{
	__builtin_prefetch(&rl->slot[home_of(key >> GROUP_SHIFT, rl->lg)], 1);
}

void xls_relog_run(struct xls_relog *rl, uint64_t key, uint32_t n, const uint64_t *hash,
		   uint32_t last_len, struct xls_relog_split *split,
		   struct xls_relog_split *total)
{
	uint64_t first = 0, same = 0, bytes = n, last_first = 0, last_same = 0;

	while (n) {
		uint32_t c0 = (uint32_t)(key & (GROUP - 1));
		uint32_t m = GROUP - c0 < n ? GROUP - c0 : n;
		struct slot *s = group_slot(rl, key >> GROUP_SHIFT);
		unsigned int present = s->present;

		/* counted in chunks, with no branch on the outcome */
		for (uint32_t k = 0, c = c0; k < m; k++, c++) {
			uint32_t lo = (uint32_t)hash[k];
			uint16_t hi = (uint16_t)(hash[k] >> 32);
			uint64_t known = (present >> c) & 1;

			last_first = 1 - known;
			last_same = known & (s->lo[c] == lo) & (s->hi[c] == hi);
			first += last_first;
			same += last_same;
			s->lo[c] = lo;
			s->hi[c] = hi;
		}
		s->present = (uint8_t)(present | ((1u << m) - 1) << c0);
		s->ref = 1;
		hash += m;
		key += m;
		n -= m;
	}
	rl->chunks += first;
	/* bytes: the last chunk counts for last_len */
	first *= XLS_RELOG_CHUNK;
	same *= XLS_RELOG_CHUNK;
	bytes *= XLS_RELOG_CHUNK;
	if (bytes && last_len < XLS_RELOG_CHUNK) {
		uint64_t short_by = XLS_RELOG_CHUNK - last_len;

		first -= last_first * short_by;
		same -= last_same * short_by;
		bytes -= short_by;
	}
	split->first += first;
	split->unchanged += same;
	split->changed += bytes - first - same;
	if (total) {
		total->first += first;
		total->unchanged += same;
		total->changed += bytes - first - same;
	}
	if (rl->evicted)
		rl->first_unsure += first;
}

uint32_t xls_relog_longest_run(const struct xls_relog *rl)
{
	uint32_t n = 1u << rl->lg, run = 0, longest = 0;

	/* twice round, so that a run across the end is counted whole */
	for (uint32_t k = 0; k < 2 * n && (k < n || run); k++) {
		run = rl->slot[k & (n - 1)].key == EMPTY_KEY ? 0 : run + 1;
		if (run > longest)
			longest = run;
	}
	return longest < n ? longest : n;
}

void xls_relog_status(const struct xls_relog *rl, struct xls_relog_status *st)
{
	st->tracked = rl->chunks;
	st->capacity = ((uint64_t)3 << rl->max_lg) / 4 * GROUP;
	st->evicted = rl->evicted;
	st->first_unsure = rl->first_unsure;
	st->table_bytes = sizeof(struct slot) << rl->lg;
}
