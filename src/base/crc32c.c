/*
 * CRC32C: slicing-by-8 in portable C, and the SSE4.2 crc32 instruction on
 * x86-64, picked per call.  The per-call CPU check reads a word libgcc
 * fills in at start-up, which is cheaper than anything we would cache, and
 * keeps this file free of mutable state.
 */
#include <string.h>

#include "base/crc32c.h"
#include "base/crc32c_table.h"
#include "base/crc32c_shift.h"

/* Carry a raw CRC register through the zero bytes of shift table @t. */
static inline uint32_t
crc32c_shift(const uint32_t (*t)[256], uint32_t c)
{
	return t[0][c & 0xff] ^ t[1][(c >> 8) & 0xff] ^
	       t[2][(c >> 16) & 0xff] ^ t[3][c >> 24];
}

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

/* Assembled from bytes so the sw path gives the same answer on any host. */
static inline uint32_t
xls_crc32c_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t
xls_crc32c_byte(uint32_t crc, unsigned char b)
{
	return xls_crc32c_table[0][(crc ^ b) & 0xff] ^ (crc >> 8);
}

/*
 * Eight table lookups per 8 bytes, all independent of each other: row k
 * of the table advances a byte past k further zero bytes, so the bytes of
 * the block can be folded in parallel instead of one after another.
 */
uint32_t
xls_crc32c_update_sw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	const uint32_t (*t)[256] = xls_crc32c_table;

	for (; len >= 8; p += 8, len -= 8) {
		uint32_t lo = crc ^ xls_crc32c_le32(p);
		/* Apart and pairwise, so crc's dependency chain stays short. */
		uint32_t hi = (t[3][p[4]] ^ t[2][p[5]]) ^
			      (t[1][p[6]] ^ t[0][p[7]]);

		crc = (t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff]) ^
		      (t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24]) ^ hi;
	}
	while (len--)
		crc = xls_crc32c_byte(crc, *p++);
	return crc;
}

#if defined(__x86_64__)

/*
 * The target attribute lets this build without -msse4.2; it is only ever
 * reached after the CPU check.  memcpy() compiles to a plain unaligned load
 * and avoids aliasing and alignment undefined behaviour.
 */
__attribute__((target("sse4.2"))) static inline const unsigned char *
crc32c_hw_streams(unsigned long long *crc, const unsigned char *p, size_t *len,
		  size_t stream, const uint32_t (*shift)[256])
{
	unsigned long long c = *crc;

	for (; *len >= 3 * stream; p += 3 * stream, *len -= 3 * stream) {
		unsigned long long c1 = 0, c2 = 0;

		for (size_t i = 0; i < stream; i += 8) {
			unsigned long long v0, v1, v2;

			memcpy(&v0, p + i, 8);
			memcpy(&v1, p + stream + i, 8);
			memcpy(&v2, p + 2 * stream + i, 8);
			c = _mm_crc32_u64(c, v0);
			c1 = _mm_crc32_u64(c1, v1);
			c2 = _mm_crc32_u64(c2, v2);
		}
		c = crc32c_shift(shift, crc32c_shift(shift, (uint32_t)c) ^ (uint32_t)c1) ^
		    (uint32_t)c2;
	}
	*crc = c;
	return p;
}

__attribute__((target("sse4.2"))) uint32_t
xls_crc32c_update_hw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	unsigned long long c = crc;

	/*
	 * crc32 has a latency of three cycles and a throughput of one: run
	 * three independent streams and join them with a shift table,
	 * crc(c, A.B) = shift_|B|(crc(c, A)) ^ crc(0, B).  4 KiB streams
	 * while they fit, then 512-byte ones, so that a record of a few KiB
	 * does not go one word at a time.
	 */
	p = crc32c_hw_streams(&c, p, &len, XLS_CRC32C_STREAM, xls_crc32c_shift4k);
	p = crc32c_hw_streams(&c, p, &len, XLS_CRC32C_SHORT_STREAM, xls_crc32c_shift512);
	for (; len >= 8; p += 8, len -= 8) {
		unsigned long long v;

		memcpy(&v, p, sizeof(v));
		c = _mm_crc32_u64(c, v);
	}
	crc = (uint32_t)c;
	while (len--)
		crc = _mm_crc32_u8(crc, *p++);
	return crc;
}

bool
xls_crc32c_have_hw(void)
{
	return __builtin_cpu_supports("sse4.2");
}

#else /* !__x86_64__ */

uint32_t
xls_crc32c_update_hw(uint32_t crc, const void *buf, size_t len)
{
	return xls_crc32c_update_sw(crc, buf, len);
}

bool
xls_crc32c_have_hw(void)
{
	return false;
}

#endif /* __x86_64__ */

uint32_t
xls_crc32c_update(uint32_t crc, const void *buf, size_t len)
{
	if (xls_crc32c_have_hw())
		return xls_crc32c_update_hw(crc, buf, len);
	return xls_crc32c_update_sw(crc, buf, len);
}

uint32_t
xls_crc32c(const void *buf, size_t len)
{
	return ~xls_crc32c_update(~0U, buf, len);
}
