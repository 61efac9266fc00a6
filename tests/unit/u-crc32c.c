/*
 * CRC32C: known vectors, software against hardware on random buffers,
 * chaining, and the committed slicing table against a bit-by-bit rebuild.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/crc32c.h"
#include "base/crc32c_table.h"
#include "base/crc32c_shift.h"

#define U_SEED		0x9e3779b97f4a7c15ull
#define U_RANDOM_BUFS	3000
#define U_MAX_LEN	70000
#define U_MAX_MISALIGN	64

typedef uint32_t (*u_crc_fn)(uint32_t crc, const void *buf, size_t len);

struct u_impl {
	const char	*name;
	u_crc_fn	fn;
};

static void
u_fill_random(unsigned char *buf, size_t len, uint64_t *rng)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(tap_rand(rng) >> 56);
}

/* RFC 3720 B.4 vectors plus the usual check string. */
static void
u_test_vectors(struct tap *t, const struct u_impl *impl)
{
	unsigned char buf[32];
	bool ok = true;

	memset(buf, 0, sizeof(buf));
	ok &= ~impl->fn(~0U, buf, 32) == 0x8A9136AAu;
	memset(buf, 0xff, sizeof(buf));
	ok &= ~impl->fn(~0U, buf, 32) == 0x62A8AB43u;
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	ok &= ~impl->fn(~0U, buf, 32) == 0x46DD794Eu;
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)(31 - i);
	ok &= ~impl->fn(~0U, buf, 32) == 0x113FDB5Cu;
	ok &= ~impl->fn(~0U, "123456789", 9) == 0xE3069283u;
	ok &= impl->fn(0x12345678u, buf, 0) == 0x12345678u;
	tap_ok(t, ok, "%s: RFC 3720 vectors and \"123456789\"", impl->name);
}

static void
u_test_wrapper(struct tap *t)
{
	bool ok = xls_crc32c("123456789", 9) == 0xE3069283u &&
		  xls_crc32c(NULL, 0) == 0 &&
		  xls_crc32c_update(~0U, "123456789", 9) == ~0xE3069283u;

	tap_ok(t, ok, "xls_crc32c and xls_crc32c_update dispatch correctly");
}

/* Random lengths and alignments hit every head/tail case of both loops. */
static void
u_test_sw_vs_hw(struct tap *t, unsigned char *pool, uint64_t *rng)
{
	unsigned int mismatches = 0;
	uint64_t total = 0;

	for (int i = 0; i < U_RANDOM_BUFS; i++) {
		size_t len = tap_rand(rng) % (U_MAX_LEN + 1);
		size_t off = tap_rand(rng) % U_MAX_MISALIGN;
		uint32_t seed = (uint32_t)tap_rand(rng);
		uint32_t sw, hw;

		u_fill_random(pool + off, len, rng);
		sw = xls_crc32c_update_sw(seed, pool + off, len);
		hw = xls_crc32c_update_hw(seed, pool + off, len);
		if (sw != hw && mismatches++ < 5)
			tap_diag("len %zu off %zu seed %08" PRIx32
				 ": sw %08" PRIx32 " hw %08" PRIx32,
				 len, off, seed, sw, hw);
		total += len;
	}
	tap_ok(t, mismatches == 0,
	       "sw == hw on %d random buffers (%" PRIu64 " bytes)",
	       U_RANDOM_BUFS, total);
}

static void
u_test_chaining(struct tap *t, const struct u_impl *impl,
		unsigned char *pool, uint64_t *rng)
{
	unsigned int bad = 0;

	for (int i = 0; i < 500; i++) {
		size_t len = tap_rand(rng) % 5000;
		size_t cut = len ? tap_rand(rng) % (len + 1) : 0;
		uint32_t seed = (uint32_t)tap_rand(rng);
		uint32_t whole, parts;

		u_fill_random(pool, len, rng);
		whole = impl->fn(seed, pool, len);
		parts = impl->fn(impl->fn(seed, pool, cut), pool + cut,
				 len - cut);
		bad += whole != parts;
	}
	tap_ok(t, bad == 0, "%s: update(update(a), b) == update(a + b)",
	       impl->name);
}

/*
 * Row k, entry n is the register n pushed through 8 * (k + 1) zero bits;
 * computing that one bit at a time shares nothing with the generator's
 * row-from-row recurrence.
 */
static void
u_test_table(struct tap *t)
{
	unsigned int bad = 0;

	for (unsigned int k = 0; k < 8; k++) {
		for (unsigned int n = 0; n < 256; n++) {
			uint32_t c = n;

			for (unsigned int b = 0; b < 8 * (k + 1); b++)
				c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
			if (c != xls_crc32c_table[k][n] && bad++ < 5)
				tap_diag("table[%u][%u] = %08" PRIx32
					 ", expected %08" PRIx32, k, n,
					 xls_crc32c_table[k][n], c);
		}
	}
	tap_ok(t, bad == 0,
	       "all 8x256 table entries match a bit-by-bit rebuild");
}

/*
 * A shift table of the three-stream hardware path: entry [j][v] is
 * v << 8j pushed through @bytes * 8 zero bits, one bit at a time.
 */
static void
u_test_shift_table(struct tap *t, const uint32_t (*table)[256],
		   unsigned int bytes)
{
	unsigned int bad = 0;

	for (unsigned int j = 0; j < 4; j++) {
		for (unsigned int v = 0; v < 256; v++) {
			uint32_t c = (uint32_t)v << (8 * j);

			for (unsigned int b = 0; b < 8 * bytes; b++)
				c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
			if (c != table[j][v] && bad++ < 5)
				tap_diag("shift %u [%u][%u] = %08" PRIx32
					 ", expected %08" PRIx32, bytes, j, v,
					 table[j][v], c);
		}
	}
	tap_ok(t, bad == 0,
	       "all 4x256 %u-byte shift table entries match a bit-by-bit rebuild",
	       bytes);
}

int
main(void)
{
	struct tap t = { 0 };
	const struct u_impl sw = { "sw", xls_crc32c_update_sw };
	const struct u_impl hw = { "hw", xls_crc32c_update_hw };
	const struct u_impl any = { "dispatch", xls_crc32c_update };
	uint64_t rng = U_SEED;
	unsigned char *pool = malloc(U_MAX_LEN + U_MAX_MISALIGN);
	bool have_hw = xls_crc32c_have_hw();

	if (!pool) {
		tap_ok(&t, false, "allocate test buffer");
		return tap_done(&t);
	}
	tap_diag("xorshift64 seed 0x%016llx, hardware crc32c %s",
		 (unsigned long long)U_SEED, have_hw ? "available" : "absent");

	u_test_table(&t);
	u_test_shift_table(&t, xls_crc32c_shift4k, XLS_CRC32C_STREAM);
	u_test_shift_table(&t, xls_crc32c_shift512, XLS_CRC32C_SHORT_STREAM);
	u_test_vectors(&t, &sw);
	u_test_chaining(&t, &sw, pool, &rng);
	u_test_vectors(&t, &any);
	u_test_chaining(&t, &any, pool, &rng);
	u_test_wrapper(&t);
	if (have_hw) {
		u_test_vectors(&t, &hw);
		u_test_chaining(&t, &hw, pool, &rng);
		u_test_sw_vs_hw(&t, pool, &rng);
	} else {
		tap_diag("skipping hardware tests");
	}

	free(pool);
	return tap_done(&t);
}
