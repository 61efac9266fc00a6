/*
 * The audit's building blocks against references of their own:
 *  - chunk hashes: a change of one 8-byte word of a chunk always changes
 *    its hash (both implementations), and the length is part of it;
 *  - the relog table against an exact map of the last bytes, with room to
 *    spare (equal), and squeezed (first over by at most first_unsure);
 *  - the cost model against the kernel's loops themselves, simulated step
 *    by step on random maps of unmapped buffers with discontiguous pages
 *    (xfs_buf_item_size_segment / _format_segment of Linux 5.11 and 5.12);
 *  - the shadow log vector model on a buffer growing a chunk a checkpoint.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/chunkhash.h"
#include "items/buf_analysis.h"
#include "analysis/costmodel.h"
#include "analysis/relog.h"

#define U_SEED		0x853c49e6748fea9bull
#define MAX_REG		300u

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ---- chunk hashes ------------------------------------------------------ */

static void test_hash(struct tap *t)
{
	uint64_t s = U_SEED, h0, h1, hp0, hp1;
	uint8_t a[128], b[128];
	unsigned int same = 0, same_p = 0, n = 20000;

	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int k = 0; k < 128; k++)
			a[k] = (uint8_t)rnd(&s);
		memcpy(b, a, sizeof(b));
		/* one word, changed in one bit or in all of them */
		b[(rnd(&s) % 16) * 8 + rnd(&s) % 8] ^= (uint8_t)(i & 1 ? 0xff : 1u << (rnd(&s) % 8));
		xls_chunk_hash_run(a, 1, &h0);
		xls_chunk_hash_run(b, 1, &h1);
		xls_chunk_hash_run_portable(a, 1, &hp0);
		xls_chunk_hash_run_portable(b, 1, &hp1);
		same += h0 == h1;
		same_p += hp0 == hp1;
	}
	tap_ok(t, same == 0, "chunk hash (%s): %u random one-word changes, all seen",
	       xls_chunk_hash_have_aes() ? "AES-NI" : "portable", n);
	tap_ok(t, same_p == 0, "chunk hash (portable): %u random one-word changes, all seen", n);

	/*
	 * One byte at the same offset of two neighbouring blocks (entries of a
	 * table changing together): a hash that joined two chains at the end
	 * missed these one time in 256 -- a chunk of a 2 GiB kernel log did.
	 */
	same = same_p = 0;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int blk = (unsigned int)(rnd(&s) % 7), off = (unsigned int)(rnd(&s) % 16);

		for (unsigned int k = 0; k < 128; k++)
			a[k] = (uint8_t)rnd(&s);
		memcpy(b, a, sizeof(b));
		b[blk * 16 + off] ^= (uint8_t)(1 + rnd(&s) % 255);
		b[(blk + 1) * 16 + off] ^= (uint8_t)(1 + rnd(&s) % 255);
		xls_chunk_hash_run(a, 1, &h0);
		xls_chunk_hash_run(b, 1, &h1);
		xls_chunk_hash_run_portable(a, 1, &hp0);
		xls_chunk_hash_run_portable(b, 1, &hp1);
		same += (h0 & 0xffffffffffffull) == (h1 & 0xffffffffffffull);
		same_p += (hp0 & 0xffffffffffffull) == (hp1 & 0xffffffffffffull);
	}
	tap_ok(t, same == 0 && same_p == 0,
	       "chunk hash: %u changes of one byte in each of two neighbouring blocks, all seen "
	       "in the 48 bits the table keeps", n);
	memset(a, 0, sizeof(a));
	tap_ok(t, xls_chunk_hash_bytes(a, 48) != xls_chunk_hash_bytes(a, 64) &&
		  xls_chunk_hash_bytes(a, 48) == xls_chunk_hash_bytes(a, 48),
	       "a short chunk's length is part of its hash; the same bytes hash the same");
	xls_chunk_hash_run(a, 1, &h0);
	tap_ok(t, xls_chunk_hash_bytes(a, 128) == h0,
	       "128 bytes hash the same as a run or as bytes");
}

/* ---- the relog table against an exact map ------------------------------ */

#define KEYS	20000u

/* Content versions of each key: the reference compares versions exactly. */
static void relog_stream(struct xls_relog *rl, uint32_t nkeys, uint32_t steps,
			 struct xls_relog_split *got, struct xls_relog_split *want)
{
	uint32_t *ver = calloc(nkeys, sizeof(*ver));
	uint8_t *seen = calloc(nkeys, 1);
	uint64_t s = U_SEED;

	memset(got, 0, sizeof(*got));
	memset(want, 0, sizeof(*want));
	for (uint32_t i = 0; ver && seen && i < steps; i++) {
		/* hot keys relogged often, a few changed, runs of neighbours */
		uint32_t k = (uint32_t)(rnd(&s) % 8 ? rnd(&s) % (nkeys / 20) : rnd(&s) % nkeys);
		uint32_t n = 1 + (uint32_t)(rnd(&s) % 6), v;
		uint64_t hash[8];

		if (k + n > nkeys)
			n = nkeys - k;
		for (uint32_t j = 0; j < n; j++) {
			if (rnd(&s) % 4 == 0)
				ver[k + j]++;
			v = ver[k + j];
			hash[j] = (uint64_t)(k + j) * 0x9e3779b97f4a7c15ull ^ v;
			if (!seen[k + j])
				want->first += 128;
			else if (seen[k + j] == (uint8_t)(v + 1))
				want->unchanged += 128;
			else
				want->changed += 128;
			seen[k + j] = (uint8_t)(v + 1);
		}
		xls_relog_run(rl, xls_relog_buf_key(1000 + (int64_t)k / 4, k % 4), n, hash,
			      XLS_RELOG_CHUNK, got, NULL);
	}
	free(ver);
	free(seen);
}

static void test_relog(struct tap *t)
{
	struct xls_relog_split got, want;
	struct xls_relog_status st;
	struct xls_relog *rl = xls_relog_new(64u << 20);

	relog_stream(rl, KEYS, 200000, &got, &want);
	xls_relog_status(rl, &st);
	tap_ok(t, got.first == want.first && got.changed == want.changed &&
		  got.unchanged == want.unchanged && st.evicted == 0 && st.first_unsure == 0,
	       "relog table with room: first %llu changed %llu unchanged %llu, as the exact map",
	       (unsigned long long)got.first, (unsigned long long)got.changed,
	       (unsigned long long)got.unchanged);
	xls_relog_free(rl);

	/* 64 KiB: 1024 groups, far fewer than the keys */
	rl = xls_relog_new(64u << 10);
	relog_stream(rl, KEYS, 200000, &got, &want);
	xls_relog_status(rl, &st);
	tap_ok(t, st.evicted > 0 && got.first >= want.first &&
		  got.first - want.first <= st.first_unsure &&
		  xls_relog_split_total(&got) == xls_relog_split_total(&want) &&
		  got.changed + got.unchanged + (got.first - want.first) ==
		  want.changed + want.unchanged,
	       "relog table squeezed: %llu chunks evicted, first over by %llu <= first_unsure %llu",
	       (unsigned long long)st.evicted, (unsigned long long)(got.first - want.first),
	       (unsigned long long)st.first_unsure);
	xls_relog_free(rl);
}

/*
 * A full table takes new groups by the hundred thousand, each logged once
 * (a log of many inodes, each changed once): what it drops to make room
 * must leave it evenly filled.  Dropping at one hand sweeping the table
 * while the new groups land everywhere filled the slots ahead of the hand
 * until a probe walked most of the table (stats took 109 s on a log of
 * 600,000 inodes).
 */
static void test_relog_spread(struct tap *t)
{
	struct xls_relog *rl = xls_relog_new(64u << 10);	/* 1024 groups */
	struct xls_relog_split got = { 0 };
	uint32_t longest = 0;
	uint64_t hash[2] = { 1, 2 };

	for (uint64_t ino = 1; ino <= 200000; ino++) {
		xls_relog_run(rl, xls_relog_inode_key(ino * 37, XLS_INODE_CORE, 0), 2, hash,
			      XLS_RELOG_CHUNK, &got, NULL);
		if (ino % 1000 == 0) {
			uint32_t run = xls_relog_longest_run(rl);

			longest = run > longest ? run : longest;
		}
	}
	tap_ok(t, longest <= 64, "a full table taking 200,000 new groups stays evenly filled: "
	       "the longest run of slots %u of 1024", longest);
	tap_ok(t, got.first == 200000ull * 2 * XLS_RELOG_CHUNK,
	       "and every one of them counts as first");
	xls_relog_free(rl);
}

/* ---- the cost model against the kernel's loops ------------------------- */

/*
 * A buffer of @chunks chunks whose pages are discontiguous where disc[p]
 * (page p starts somewhere else than page p - 1 ends): xfs_buf_offset()
 * of an unmapped buffer, page by page.
 */
struct sim {
	uint32_t	map[XFS_BLF_DATAMAP_SIZE];
	uint32_t	words;
	uint32_t	chunks;
	bool		disc[17];
	uint64_t	steps, offset_calls;
};

static bool bit(const struct sim *m, int b)
{
	return b >= 0 && (uint32_t)b < m->words * 32 && ((m->map[b / 32] >> (b % 32)) & 1);
}

static int next_bit(const struct sim *m, int from)
{
	for (int b = from; (uint32_t)b < m->words * 32; b++)
		if (bit(m, b))
			return b;
	return -1;
}

static int contig(const struct sim *m, int from)
{
	int n = 0;

	while (bit(m, from + n))
		n++;
	return n;
}

/* A fake address: each discontiguous page 1 MiB from where it would be. */
static uint64_t buf_offset(struct sim *m, uint32_t byte)
{
	uint64_t a = byte;

	m->offset_calls++;
	for (uint32_t p = 1; p <= byte / 4096 && p < 17; p++)
		a += m->disc[p] ? 1u << 20 : 0;
	return a;
}

/* 5.11 xfs_buf_item_straddle(bp, offset, next_bit, last_bit) */
static bool straddle_old(struct sim *m, int next, int last)
{
	return buf_offset(m, (uint32_t)next * 128) != buf_offset(m, (uint32_t)last * 128) + 128;
}

/* 5.12 xfs_buf_item_straddle(bp, offset, first_bit, nbits) */
static bool straddle_new(struct sim *m, int first, int nbits)
{
	uint64_t a = buf_offset(m, (uint32_t)first * 128);
	uint64_t b = buf_offset(m, (uint32_t)(first + nbits) * 128);

	return b - a != (uint64_t)nbits * 128;
}

/* Linux 5.11: size then format, a bit at a time; returns the regions. */
static uint32_t sim_old(struct sim *m, uint32_t *len)
{
	int last = next_bit(m, 0), first, nb, nx;
	uint32_t nreg = 0;

	while (last != -1) {		/* xfs_buf_item_size_segment */
		m->steps++;
		nx = next_bit(m, last + 1);
		if (nx == -1)
			break;
		else if (nx != last + 1)
			last = nx;
		else if (straddle_old(m, nx, last))
			last = nx;
		else
			last++;
	}
	first = last = next_bit(m, 0);	/* xfs_buf_item_format_segment */
	nb = 1;
	if (first == -1)
		return 0;
	for (;;) {
		m->steps++;
		nx = next_bit(m, last + 1);
		if (nx == -1) {
			buf_offset(m, (uint32_t)first * 128);	/* xfs_buf_item_copy_iovec */
			len[nreg++] = (uint32_t)nb * 128;
			break;
		} else if (nx != last + 1 || straddle_old(m, nx, last)) {
			buf_offset(m, (uint32_t)first * 128);
			len[nreg++] = (uint32_t)nb * 128;
			first = last = nx;
			nb = 1;
		} else {
			last++;
			nb++;
		}
	}
	return nreg;
}

/* Linux 5.12: a run at a time, the slow scan from a run that straddles. */
static void sim_new(struct sim *m)
{
	int first = next_bit(m, 0), nb = 0, last, nx;

	if (first == -1)
		return;
	/* xfs_buf_item_size_segment */
	do {
		m->steps++;
		nb = contig(m, first);
		if (nb > 1 && straddle_new(m, first, nb))
			goto size_slow;
		first = next_bit(m, first + nb + 1);
	} while (first != -1);
	goto format;
size_slow:
	last = first;
	while (last != -1) {
		m->steps++;
		nx = next_bit(m, last + 1);
		if (nx == -1)
			break;
		if (nx != last + 1 || straddle_new(m, first, nb)) {
			last = first = nx;
			nb = 1;
		} else {
			last++;
			nb++;
		}
	}
format:
	first = next_bit(m, 0);		/* xfs_buf_item_format_segment */
	do {
		m->steps++;
		nb = contig(m, first);
		if (nb > 1 && straddle_new(m, first, nb))
			goto format_slow;
		buf_offset(m, (uint32_t)first * 128);
		first = next_bit(m, first + nb + 1);
	} while (first != -1);
	return;
format_slow:
	last = first;
	nb = 1;
	for (;;) {
		m->steps++;
		nx = next_bit(m, last + 1);
		if (nx == -1) {
			buf_offset(m, (uint32_t)first * 128);
			break;
		} else if (nx != last + 1 || straddle_new(m, first, nb)) {
			buf_offset(m, (uint32_t)first * 128);
			first = last = nx;
			nb = 1;
		} else {
			last++;
			nb++;
		}
	}
}

/*
 * A run that ends where a discontiguous page begins: 5.12's fast check
 * looks one chunk past the run and takes the slow scan, which the log
 * (no split there) cannot show.  The model leaves these out (costmodel.h).
 */
static bool ends_on_discontiguity(const struct sim *m)
{
	for (uint32_t c = 32; c < m->chunks; c += 32)
		if (m->disc[c / 32] && bit(m, (int)c - 1) && !bit(m, (int)c))
			return true;
	return false;
}

static void test_costmodel(struct tap *t)
{
	static struct xls_buf_analysis ba;
	static struct xls_region regions[MAX_REG];
	static uint8_t zero[65536];
	uint64_t s = U_SEED, bad = 0, skipped = 0, slow = 0, n = 20000;

	for (uint64_t i = 0; i < n; i++) {
		struct sim m;
		uint32_t len[MAX_REG], nreg;
		struct xls_item it;
		struct xls_cost c;
		uint64_t old_steps, old_calls;

		memset(&m, 0, sizeof(m));
		m.chunks = 32u << (rnd(&s) % 5);		/* 4 KiB .. 64 KiB */
		m.words = m.chunks / 32;
		for (uint32_t p = 1; p < m.chunks / 32; p++)
			m.disc[p] = rnd(&s) % 3 == 0;
		for (uint32_t r = 0, nr = 1 + rnd(&s) % 8; r < nr; r++) {
			uint32_t at = (uint32_t)(rnd(&s) % m.chunks);
			uint32_t l = 1 + (uint32_t)(rnd(&s) % (rnd(&s) % 2 ? 4 : 80));

			for (uint32_t b = at; b < at + l && b < m.chunks; b++)
				m.map[b / 32] |= 1u << (b % 32);
		}
		if (ends_on_discontiguity(&m)) {
			skipped++;
			continue;
		}
		nreg = sim_old(&m, len);
		old_steps = m.steps;
		old_calls = m.offset_calls;
		m.steps = m.offset_calls = 0;
		sim_new(&m);

		/* the item the 5.11 writer logged: regions split where it split them */
		memset(&ba, 0, sizeof(ba));
		ba.parsed = true;
		ba.blf.blf_type = XFS_LI_BUF;
		ba.blf.blf_len = (uint16_t)(m.chunks / 4);
		ba.blf.blf_map_size = m.words;
		ba.blf.map_words = m.words;
		memcpy(ba.blf.blf_data_map, m.map, sizeof(m.map));
		ba.blf.blf_size = (uint16_t)(nreg + 1);
		regions[0].data = zero;
		regions[0].len = (uint32_t)offsetof(struct xfs_buf_log_format, blf_data_map) +
				 4 * m.words;
		for (uint32_t r = 0; r < nreg; r++) {
			regions[r + 1].data = zero;
			regions[r + 1].len = len[r];
		}
		memset(&it, 0, sizeof(it));
		it.type = XFS_LI_BUF;
		it.nregions = nreg + 1;
		it.size = (uint16_t)(nreg + 1);
		it.regions = regions;
		xls_region_reconstruct(&it, &ba.blf, &ba.res);
		xls_cost_buf(&ba, &c);
		slow += c.slow_items;
		if (c.bit_steps != old_steps || c.bit_offset_calls != old_calls ||
		    c.run_steps != m.steps || c.run_offset_calls != m.offset_calls) {
			if (bad++ < 5)
				tap_diag("map of %u chunks: model %llu/%llu %llu/%llu, kernel %llu/%llu %llu/%llu",
					 m.chunks, (unsigned long long)c.bit_steps,
					 (unsigned long long)c.bit_offset_calls,
					 (unsigned long long)c.run_steps,
					 (unsigned long long)c.run_offset_calls,
					 (unsigned long long)old_steps, (unsigned long long)old_calls,
					 (unsigned long long)m.steps, (unsigned long long)m.offset_calls);
		}
	}
	tap_ok(t, bad == 0 && slow > 0,
	       "cost model = the kernel's size and format loops, step by step and xfs_buf_offset() "
	       "by call, on %llu random maps of unmapped buffers (%llu took the slow scan; %llu "
	       "with a run ending on a discontiguity left out)",
	       (unsigned long long)(n - skipped), (unsigned long long)slow,
	       (unsigned long long)skipped);
}

/* ---- the shadow log vector model --------------------------------------- */

static void test_shadow(struct tap *t)
{
	struct xls_shadow *sh = xls_shadow_new(16);
	struct xls_shadow_count n = { 0, 0 };
	bool ok = sh != NULL;

	/* a 4 KiB buffer, one dirty chunk more each checkpoint, one run */
	for (uint32_t c = 1; ok && c <= 32; c++)
		ok = xls_shadow_item(sh, 64, 8, false, 28 + 128 * c, 2, c, &n);
	tap_ok(t, ok && n.exact == 32 && n.rounded == 9,
	       "shadow vectors, a chunk more a checkpoint: %llu allocations exact, %llu rounded up",
	       (unsigned long long)n.exact, (unsigned long long)n.rounded);
	/* the same again: no more; smaller: a new log item; a cancel frees it */
	n.exact = n.rounded = 0;
	xls_shadow_item(sh, 64, 8, false, 28 + 128 * 32, 2, 32, &n);
	tap_ok(t, n.exact == 0 && n.rounded == 0, "the same size again allocates nothing");
	xls_shadow_item(sh, 64, 8, false, 28 + 128, 2, 1, &n);
	xls_shadow_item(sh, 64, 8, true, 28, 1, 0, &n);
	xls_shadow_item(sh, 64, 8, false, 28 + 128, 2, 1, &n);
	tap_ok(t, n.exact == 2 && n.rounded == 2,
	       "a smaller dirty size, and a cancel record, begin new log items");
	xls_shadow_free(sh);
}

int main(void)
{
	struct tap t = { 0, 0 };

	test_hash(&t);
	test_relog(&t);
	test_relog_spread(&t);
	test_costmodel(&t);
	test_shadow(&t);
	return tap_done(&t);
}
