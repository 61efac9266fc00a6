// SPDX-License-Identifier: GPL-2.0
/*
 * bench/crc.c - CRC32C throughput: the project's xls_crc32c_update against
 * ISA-L's crc32_iscsi.  Not part of "make check"; built and run by
 * "bench/run --crc" (see bench/README), or by hand:
 *
 *   cc -std=c11 -O2 -DHAVE_ISAL -o /tmp/crc bench/crc.c build/libxls.a \
 *      -lisal -lblkid -luuid && /tmp/crc [SEED]
 *
 * Without -DHAVE_ISAL only ours is measured.  First the two are checked
 * against each other and against a byte-at-a-time reference on random
 * buffers (random lengths, alignments and seeds), then on every buffer that
 * is timed; any difference exits 1 before anything is timed.
 *
 * Cases, all GB/s = 10^9 bytes / s, best of several repetitions:
 *   hot      one buffer of SIZE, checksummed over and over (>= 0.2 s per
 *            repetition): the code's own speed, data in L1/L2;
 *   record   a 328-byte header, then a payload 512 bytes on, chained, as
 *            a log record is checked (header with h_crc zeroed, then data);
 *   walk     a 64 MiB buffer walked once per repetition in SIZE pieces:
 *            far more than L2, so the data comes from L3 at best;
 *   flushed  the same, with every line flushed (clflush) before each
 *            repetition: the data comes from memory.
 * The tool checksums freshly read 4 MiB windows, just written by the
 * kernel's copy from the page cache: between hot and the 64 MiB walk.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#endif
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/*
 * From build/libxls.a.  Declared here rather than included, so that this
 * file does not depend on where crc32c.h lives under src/.
 */
uint32_t xls_crc32c_update(uint32_t crc, const void *buf, size_t len);
uint32_t xls_crc32c(const void *buf, size_t len);

#define KiB 1024u
#define MiB (1024u * 1024u)
#define HDR_LEN 328		/* sizeof(struct xlog_rec_header) up to h_size */
#define HDR_ROOM 512		/* the payload starts one sector on */
#define COLD_LEN (64 * MiB)
#define VERIFY_MAX 300000
#define VERIFY_TRIALS 3000
#ifndef HOT_REPS		/* -DHOT_REPS=N, -DCOLD_REPS=N for a closer look */
#define HOT_REPS 5
#endif
#ifndef COLD_REPS
#define COLD_REPS 9
#endif
#define MIN_SECS 0.2

static const size_t sizes[] = {
	512, 4 * KiB, 8 * KiB, 12 * KiB, 32 * KiB, 64 * KiB, 256 * KiB,
};
static const size_t rec_sizes[] = { 4 * KiB, 32 * KiB, 256 * KiB };

/* Results go here, so the calls cannot be optimised away. */
static volatile uint32_t sink;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64*: reproducible random data, lengths and seeds. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void
fill(unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(rng() >> 56);
}

static void *
xalloc(size_t len)
{
	void *p = aligned_alloc(4096, (len + 4095) / 4096 * 4096);

	if (!p) {
		perror("aligned_alloc");
		exit(2);
	}
	return p;
}

/* Reference: reflected 0x82F63B78, byte at a time, raw register. */
static uint32_t ref_table[256];

static void
ref_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (c & 1 ? 0x82F63B78u : 0);
		ref_table[i] = c;
	}
}

static uint32_t
ref_update(uint32_t crc, const unsigned char *p, size_t len)
{
	while (len--)
		crc = ref_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* The two under test, with the same signature. */
static inline uint32_t
ours(uint32_t crc, const unsigned char *p, size_t len)
{
	return xls_crc32c_update(crc, p, len);
}

#ifdef HAVE_ISAL
/*
 * crc32_iscsi works on the raw register like xls_crc32c_update (no
 * inversion on entry or exit; checked below), with the arguments in
 * another order and an int length: buffers stay far below INT_MAX here.
 */
static inline uint32_t
isal(uint32_t crc, const unsigned char *p, size_t len)
{
	return crc32_iscsi((unsigned char *)p, (int)len, crc);
}
#endif

static int failures;

static void
check(const char *what, uint32_t a, uint32_t b)
{
	if (a != b) {
		fprintf(stderr, "crc: MISMATCH %s: %08" PRIx32 " != %08" PRIx32 "\n", what, a, b);
		failures++;
	}
}

/* Random buffers, lengths 0..VERIFY_MAX, alignments 0..63, random seeds. */
static void
verify_random(void)
{
	unsigned char *buf = xalloc(VERIFY_MAX + 64);
	char what[96];

	fill(buf, VERIFY_MAX + 64);
	check("xls_crc32c(\"123456789\")", xls_crc32c("123456789", 9), 0xE3069283u);
#ifdef HAVE_ISAL
	check("~crc32_iscsi(\"123456789\", 9, ~0)",
	      ~crc32_iscsi((unsigned char *)"123456789", 9, ~0u), 0xE3069283u);
#endif
	for (int t = 0; t < VERIFY_TRIALS; t++) {
		size_t off = rng() % 64;
		/* a third short, where the tails and small-size paths are */
		size_t len = t % 3 ? rng() % (VERIFY_MAX + 1) : rng() % 600;
		uint32_t seed = (uint32_t)rng();
		const unsigned char *p = buf + off;
		uint32_t o = ours(seed, p, len);

		snprintf(what, sizeof(what), "trial %d (len %zu, offset %zu, seed %08" PRIx32 ")",
			 t, len, off, seed);
		if (len <= 16 * KiB || t % 50 == 0)
			check(what, o, ref_update(seed, p, len));
#ifdef HAVE_ISAL
		check(what, o, isal(seed, p, len));
		check(what, ~xls_crc32c(p, len), isal(~0u, p, len));
#endif
	}
	free(buf);
}

#if defined(__x86_64__)
static void
flush(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i += 64)
		_mm_clflush(p + i);
	_mm_mfence();
}
#define HAVE_FLUSH 1
#else
#define HAVE_FLUSH 0
#endif

/*
 * The timing loops, one copy per function so that neither pays for an
 * indirect call.  Each returns seconds.
 */
#define DEFINE_LOOPS(fn)							\
static double								\
hot_##fn(const unsigned char *buf, size_t len, long iters)		\
{									\
	uint32_t acc = 0;						\
	double t0 = now();						\
									\
	for (long i = 0; i < iters; i++)				\
		acc ^= fn(~0u, buf, len);				\
	sink ^= acc;							\
	return now() - t0;						\
}									\
									\
static double								\
rec_##fn(const unsigned char *buf, size_t len, long iters)		\
{									\
	uint32_t acc = 0;						\
	double t0 = now();						\
									\
	for (long i = 0; i < iters; i++)				\
		acc ^= fn(fn(~0u, buf, HDR_LEN), buf + HDR_ROOM, len);	\
	sink ^= acc;							\
	return now() - t0;						\
}									\
									\
static double								\
walk_##fn(const unsigned char *buf, size_t len, long chunk)		\
{									\
	uint32_t acc = 0;						\
	double t0 = now();						\
									\
	for (size_t off = 0; off + (size_t)chunk <= len; off += (size_t)chunk) \
		acc ^= fn(~0u, buf + off, (size_t)chunk);		\
	sink ^= acc;							\
	return now() - t0;						\
}

DEFINE_LOOPS(ours)
#ifdef HAVE_ISAL
DEFINE_LOOPS(isal)
#endif

typedef double (*loop_fn)(const unsigned char *, size_t, long);

enum { OURS, ISAL, NFN };

struct impl {
	loop_fn hot, rec, walk;
};

static const struct impl impls[NFN] = {
	[OURS] = { hot_ours, rec_ours, walk_ours },
#ifdef HAVE_ISAL
	[ISAL] = { hot_isal, rec_isal, walk_isal },
#endif
};

#ifdef HAVE_ISAL
static const int nfn = 2;
#else
static const int nfn = 1;
#endif

/* Iterations of loop(buf, len, .) that take at least MIN_SECS. */
static long
calibrate(loop_fn loop, const unsigned char *buf, size_t len)
{
	long iters = 1;
	double t;

	while ((t = loop(buf, len, iters)) < MIN_SECS / 8)
		iters *= 2;
	return (long)((double)iters * MIN_SECS * 1.1 / t) + 1;
}

/*
 * Best GB/s of each function over HOT_REPS repetitions of at least
 * MIN_SECS, the functions taking turns within a repetition.
 */
static void
time_hot(int rec, const unsigned char *buf, size_t len, size_t bytes, double *best)
{
	long iters[NFN];

	for (int f = 0; f < nfn; f++) {
		loop_fn l = rec ? impls[f].rec : impls[f].hot;

		iters[f] = calibrate(l, buf, len);
		best[f] = 0;
	}
	for (int r = 0; r < HOT_REPS; r++) {
		for (int f = 0; f < nfn; f++) {
			loop_fn l = rec ? impls[f].rec : impls[f].hot;
			double gbs = (double)bytes * (double)iters[f] / l(buf, len, iters[f]) / 1e9;

			if (gbs > best[f])
				best[f] = gbs;
		}
	}
}

/* Best GB/s walking COLD_LEN in chunks, flushed from the caches first or not. */
static void
time_walk(int flushed, const unsigned char *buf, size_t chunk, double *best)
{
	size_t bytes = COLD_LEN / chunk * chunk;

	for (int f = 0; f < nfn; f++)
		best[f] = 0;
	for (int r = 0; r < COLD_REPS; r++) {
		for (int f = 0; f < nfn; f++) {
			double gbs;

#if HAVE_FLUSH
			if (flushed)
				flush(buf, COLD_LEN);
#else
			(void)flushed;
#endif
			gbs = (double)bytes / impls[f].walk(buf, COLD_LEN, (long)chunk) / 1e9;
			if (gbs > best[f])
				best[f] = gbs;
		}
	}
}

/* Same result from both on exactly what is timed. */
static void
verify_case(const char *what, const unsigned char *buf, size_t len, int rec)
{
#ifdef HAVE_ISAL
	uint32_t o, i;

	if (rec) {
		o = ours(ours(~0u, buf, HDR_LEN), buf + HDR_ROOM, len);
		i = isal(isal(~0u, buf, HDR_LEN), buf + HDR_ROOM, len);
	} else {
		o = ours(~0u, buf, len);
		i = isal(~0u, buf, len);
	}
	check(what, o, i);
	check(what, o, rec ? ref_update(ref_update(~0u, buf, HDR_LEN), buf + HDR_ROOM, len)
			   : ref_update(~0u, buf, len));
#else
	(void)what; (void)buf; (void)len; (void)rec;
#endif
}

static void
size_name(char *s, size_t n, size_t len)
{
	if (len >= KiB && len % KiB == 0)
		snprintf(s, n, "%zu KiB", len / KiB);
	else
		snprintf(s, n, "%zu B", len);
}

static void
print_row(const char *name, const double *v, int cols)
{
	printf("%-15s", name);
	for (int c = 0; c < cols; c++) {
		printf(" %6.2f", v[2 * c]);
		if (nfn > 1)
			printf(" %6.2f %5.2f", v[2 * c + 1], v[2 * c + 1] / v[2 * c]);
	}
	printf("\n");
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	unsigned char *hot, *cold;
	size_t max = sizes[sizeof(sizes) / sizeof(sizes[0]) - 1] + HDR_ROOM;
	char what[64], name[32];
	double v[6];

	if (argc > 2 || (argc == 2 && !strtoull(argv[1], NULL, 0))) {
		fprintf(stderr, "usage: crc [SEED]\n");
		return 2;
	}
	if (argc == 2)
		rng_state = strtoull(argv[1], NULL, 0);
	ref_init();

	verify_random();
	hot = xalloc(max);
	cold = xalloc(COLD_LEN);
	fill(hot, max);
	fill(cold, COLD_LEN);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		snprintf(what, sizeof(what), "buffer of %zu", sizes[s]);
		verify_case(what, hot, sizes[s], 0);
		for (size_t off = 0; off + sizes[s] <= COLD_LEN; off += COLD_LEN / 4)
			verify_case(what, cold + off, sizes[s], 0);
	}
	for (size_t s = 0; s < sizeof(rec_sizes) / sizeof(rec_sizes[0]); s++) {
		snprintf(what, sizeof(what), "record of 328 + %zu", rec_sizes[s]);
		verify_case(what, hot, rec_sizes[s], 1);
	}
	if (failures) {
		fprintf(stderr, "crc: %d mismatches; nothing timed\n", failures);
		return 1;
	}
#ifdef HAVE_ISAL
	printf("verified: %d random buffers (lengths 0..%d, offsets 0..63, random seeds)\n"
	       "          and every buffer timed: ours == ISA-L == bytewise reference\n"
	       "          xls_crc32c_update(crc, buf, len) == crc32_iscsi(buf, len, crc)\n"
	       "          xls_crc32c(buf, len) == ~crc32_iscsi(buf, len, ~0)\n\n",
	       VERIFY_TRIALS, VERIFY_MAX);
#else
	printf("verified: %d random buffers against a bytewise reference; no ISA-L\n\n",
	       VERIFY_TRIALS);
#endif

	printf("GB/s (10^9 bytes/s), best of %d (hot: >= %.1f s each) or %d (64 MiB walks)%s\n",
	       HOT_REPS, MIN_SECS, COLD_REPS, nfn > 1 ? "; ratio = ISA-L / ours" : "");
	printf("%-15s", "");
	for (int c = 0; c < 2 + HAVE_FLUSH; c++) {
		static const char *const group[] = { "hot", "64 MiB walk", "walk, flushed" };
		static const char *const brief[] = { "hot", "walk", "flush" };
		char g[32];
		int w = nfn > 1 ? 19 : 6;

		snprintf(g, sizeof(g), "%s -------------------", group[c]);
		printf(" %-*.*s", w, w, nfn > 1 ? g : brief[c]);
	}
	printf("\n%-15s", "SIZE");
	for (int c = 0; c < 2 + HAVE_FLUSH; c++)
		printf(nfn > 1 ? "   ours  ISA-L ratio" : "   ours");
	printf("\n");
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		time_hot(0, hot, sizes[s], sizes[s], v);
		time_walk(0, cold, sizes[s], v + 2);
#if HAVE_FLUSH
		time_walk(1, cold, sizes[s], v + 4);
#endif
		size_name(name, sizeof(name), sizes[s]);
		print_row(name, v, 2 + HAVE_FLUSH);
	}
	printf("record-like: a 328-byte header, then the payload, chained (hot)\n");
	for (size_t s = 0; s < sizeof(rec_sizes) / sizeof(rec_sizes[0]); s++) {
		time_hot(1, hot, rec_sizes[s], HDR_LEN + rec_sizes[s], v);
		snprintf(name, sizeof(name), "328 B + %zu KiB", rec_sizes[s] / KiB);
		print_row(name, v, 1);
	}
	free(hot);
	free(cold);
	return 0;
}
