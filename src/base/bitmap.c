/*
 * Word-at-a-time bitmap scans.  Runs in real maps are long (a dirty btree
 * block is often one run of dozens of chunks), so finding and measuring
 * them with count-trailing-zeros and whole-word skips keeps the cost per
 * word, not per bit.
 */
#include "base/bitmap.h"

#define XLS_WORD_BITS	32u
#define XLS_WORD_ONES	0xffffffffu

/* Clears bits below @bit; @bit is always < 32, so the shift is defined. */
static inline uint32_t
xls_mask_from(uint32_t word, unsigned int bit)
{
	return word & (XLS_WORD_ONES << bit);
}

static inline unsigned int
xls_ctz32(uint32_t word)
{
	return (unsigned int)__builtin_ctz(word);	/* word != 0 */
}

/*
 * Without -mpopcnt, gcc turns __builtin_popcount() into a libgcc call per
 * word; this branch-free form stays inline on every compiler and target.
 */
static inline unsigned int
xls_popcount32(uint32_t word)
{
	word = word - ((word >> 1) & 0x55555555u);
	word = (word & 0x33333333u) + ((word >> 2) & 0x33333333u);
	word = (word + (word >> 4)) & 0x0f0f0f0fu;
	return (word * 0x01010101u) >> 24;
}

/*
 * Bounds are checked on the word index rather than on map_words * 32 so a
 * huge @map_words cannot wrap the product.
 */
int
xls_next_bit(const uint32_t *map, unsigned int map_words, unsigned int start)
{
	unsigned int w = start / XLS_WORD_BITS;
	uint32_t word;

	if (w >= map_words)
		return -1;
	word = xls_mask_from(map[w], start % XLS_WORD_BITS);
	while (word == 0) {
		if (++w >= map_words)
			return -1;
		word = map[w];
	}
	return (int)(w * XLS_WORD_BITS + xls_ctz32(word));
}

/*
 * The run length is the distance to the next clear bit, so scan the
 * inverted map: ctz of the inverted word (masked to start at @start) finds
 * it, and all-ones words are skipped whole.
 */
unsigned int
xls_contig_bits(const uint32_t *map, unsigned int map_words,
		unsigned int start)
{
	unsigned int w = start / XLS_WORD_BITS;
	unsigned int bit = start % XLS_WORD_BITS;
	unsigned int count;
	uint32_t clear;

	if (w >= map_words)
		return 0;
	clear = xls_mask_from(~map[w], bit);
	if (clear != 0)
		return xls_ctz32(clear) - bit;

	count = XLS_WORD_BITS - bit;
	while (++w < map_words && map[w] == XLS_WORD_ONES)
		count += XLS_WORD_BITS;
	if (w < map_words)
		count += xls_ctz32(~map[w]);
	return count;
}

unsigned int
xls_popcount_bits(const uint32_t *map, unsigned int map_words,
		  unsigned int nbits)
{
	unsigned int full = nbits / XLS_WORD_BITS;
	unsigned int tail = nbits % XLS_WORD_BITS;
	unsigned int count = 0;
	unsigned int w;

	if (full >= map_words) {
		full = map_words;
		tail = 0;
	}
	for (w = 0; w < full; w++)
		count += xls_popcount32(map[w]);
	if (tail != 0)
		count += xls_popcount32(map[full] & ~(XLS_WORD_ONES << tail));
	return count;
}
