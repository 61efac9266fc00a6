/*
 * The buffer log item dirty bitmap (blf_data_map): 32-bit words in host
 * order, bit i in word i / 32 at position i % 32 from the least significant
 * bit.  One bit covers one 128-byte chunk of the buffer.  All sizes are in
 * words; all bit indexes count from bit 0 of word 0.
 */
#ifndef XLS_BITMAP_H
#define XLS_BITMAP_H

#include <stdint.h>

/*
 * Index of the first set bit at or after @start, or -1 if none (or
 * @start >= map_words * 32).
 */
int xls_next_bit(const uint32_t *map, unsigned int map_words,
		 unsigned int start);

/*
 * Number of consecutive set bits starting at @start (0 if bit @start is
 * clear or out of range); runs cross word boundaries.
 */
unsigned int xls_contig_bits(const uint32_t *map, unsigned int map_words,
			     unsigned int start);

/*
 * Number of set bits among the first @nbits bits of the map (@nbits may
 * exceed map_words * 32: then all words count).
 */
unsigned int xls_popcount_bits(const uint32_t *map, unsigned int map_words,
			       unsigned int nbits);

/*
 * @start may lie past the end of the buffer (not of the map): callers use
 * xls_next_bit(map, words, buffer_bits) to find bits set beyond the buffer.
 */

#endif /* XLS_BITMAP_H */
