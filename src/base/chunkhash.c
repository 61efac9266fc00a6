/*
 * Chunk hashes.  AES-NI: one chain of eight aesenc rounds takes the 16-byte
 * blocks of the chunk as round keys, then two rounds with constants spread
 * every difference over all 16 bytes before the fold to 64 bits.  One
 * aesenc round is a bijection of its state for a fixed key and injective in
 * the key for a fixed state, so a change inside one block always reaches the
 * final state; and since a round turns a one-byte difference into at least
 * four (MixColumns), a later block's small difference cannot cancel an
 * earlier one.  (Two chains side by side, joined at the end, were faster and
 * not so: one-byte changes at the same offset of two neighbouring blocks
 * cancelled one time in 256.  One chain is still fast: the chunks of a run
 * are independent, and their chains overlap in the CPU.)
 *
 * Portable: one chain h = ((h ^ w) * odd) ^ shift over the sixteen 64-bit
 * words, with the same two properties word by word.
 */
#include <string.h>

#include "base/chunkhash.h"

#define K_GOLDEN	0x9e3779b97f4a7c15ull
#define K_MIX		0xbf58476d1ce4e5b9ull

static inline uint64_t load_le64(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline uint64_t portable_chunk(const uint8_t *p, uint64_t seed)
{
	uint64_t h = seed;

	for (unsigned int i = 0; i < XLS_CHUNK_BYTES; i += 8) {
		h = (h ^ load_le64(p + i)) * K_GOLDEN;
		h ^= h >> 32;
	}
	h ^= h >> 29;
	h *= K_MIX;
	return h ^ (h >> 32);
}

void xls_chunk_hash_run_portable(const uint8_t *p, uint32_t nchunks, uint64_t *out)
{
	for (uint32_t c = 0; c < nchunks; c++)
		out[c] = portable_chunk(p + (size_t)c * XLS_CHUNK_BYTES, K_MIX ^ XLS_CHUNK_BYTES);
}

#if defined(__x86_64__)
#include <wmmintrin.h>

/*
 * The target attribute lets this build without -maes; it is only reached
 * after the CPU check.  Unaligned loads: regions lie anywhere in a record.
 */
__attribute__((target("aes"))) static inline uint64_t
aes_finish(__m128i a)
{
	const __m128i k1 = _mm_set_epi64x((long long)K_GOLDEN, (long long)K_MIX);
	const __m128i k2 = _mm_set_epi64x((long long)K_MIX, (long long)K_GOLDEN);

	a = _mm_aesenc_si128(a, k1);
	a = _mm_aesenc_si128(a, k2);
	return (uint64_t)_mm_cvtsi128_si64(a) ^
	       (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a));
}

__attribute__((target("aes"))) static inline uint64_t
aes_chunk(const uint8_t *p, __m128i a)
{
	for (unsigned int i = 0; i < XLS_CHUNK_BYTES; i += 16)
		a = _mm_aesenc_si128(a, _mm_loadu_si128((const __m128i *)(const void *)(p + i)));
	return aes_finish(a);
}

/*
 * Chunks in threes, their chains interleaved: one chain waits on each
 * round's latency, three keep the AES unit busy.
 */
__attribute__((target("aes"))) static void
aes_run(const uint8_t *p, uint32_t nchunks, uint64_t *out, uint64_t len)
{
	const __m128i a = _mm_set_epi64x((long long)(K_GOLDEN ^ len), (long long)(K_MIX + len));
	uint32_t c = 0;

	for (; c + 3 <= nchunks; c += 3) {
		const uint8_t *q = p + (size_t)c * XLS_CHUNK_BYTES;
		__m128i x = a, y = a, z = a;

		for (unsigned int i = 0; i < XLS_CHUNK_BYTES; i += 16) {
			x = _mm_aesenc_si128(x, _mm_loadu_si128((const __m128i *)(const void *)(q + i)));
			y = _mm_aesenc_si128(y, _mm_loadu_si128(
				(const __m128i *)(const void *)(q + XLS_CHUNK_BYTES + i)));
			z = _mm_aesenc_si128(z, _mm_loadu_si128(
				(const __m128i *)(const void *)(q + 2 * XLS_CHUNK_BYTES + i)));
		}
		out[c] = aes_finish(x);
		out[c + 1] = aes_finish(y);
		out[c + 2] = aes_finish(z);
	}
	for (; c < nchunks; c++)
		out[c] = aes_chunk(p + (size_t)c * XLS_CHUNK_BYTES, a);
}

/*
 * A short chunk: its whole 16-byte blocks, then the rest zero-padded, the
 * length in the seeds.  Not the hash of the padded 128 bytes, and need not
 * be: a short chunk is only ever compared with chunks of its own length.
 */
__attribute__((target("aes"))) static uint64_t
aes_bytes(const uint8_t *p, uint32_t len)
{
	__m128i a = _mm_set_epi64x((long long)(K_GOLDEN ^ len), (long long)(K_MIX + len));
	uint32_t off = 0;

	for (; off + 16 <= len; off += 16)
		a = _mm_aesenc_si128(a, _mm_loadu_si128((const __m128i *)(const void *)(p + off)));
	if (off < len) {
		uint8_t tail[16] = { 0 };

		memcpy(tail, p + off, len - off);
		a = _mm_aesenc_si128(a, _mm_loadu_si128((const __m128i *)(const void *)tail));
	}
	return aes_finish(a);
}

bool xls_chunk_hash_have_aes(void)
{
	return __builtin_cpu_supports("aes");
}

#else /* !__x86_64__ */

static void aes_run(const uint8_t *p, uint32_t nchunks, uint64_t *out, uint64_t len)
{
	(void)len;
	xls_chunk_hash_run_portable(p, nchunks, out);
}

static uint64_t aes_bytes(const uint8_t *p, uint32_t len)
{
	(void)p;
	(void)len;
	return 0;
}

bool xls_chunk_hash_have_aes(void)
{
	return false;
}

#endif /* __x86_64__ */

void xls_chunk_hash_run(const uint8_t *p, uint32_t nchunks, uint64_t *out)
{
	if (xls_chunk_hash_have_aes())
		aes_run(p, nchunks, out, XLS_CHUNK_BYTES);
	else
		xls_chunk_hash_run_portable(p, nchunks, out);
}

uint64_t xls_chunk_hash_bytes(const uint8_t *p, uint32_t len)
{
	uint8_t pad[XLS_CHUNK_BYTES];

	if (len > XLS_CHUNK_BYTES)
		len = XLS_CHUNK_BYTES;
	if (xls_chunk_hash_have_aes())
		return aes_bytes(p, len);
	memset(pad, 0, sizeof(pad));
	memcpy(pad, p, len);
	return portable_chunk(pad, K_MIX ^ len);
}
