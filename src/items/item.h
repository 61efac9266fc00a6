/*
 * Items stage: one log item of a transaction (its regions as reassembled by
 * the trans stage) decoded into fields, whatever its type.  Unknown types are
 * named by number, never fatal.
 */
#ifndef XLS_ITEM_H
#define XLS_ITEM_H

#include <stdint.h>
#include <stdbool.h>
#include "base/ondisk.h"
#include "report/fields.h"

/* One logged region (iovec) of an item, with continued ops already joined. */
struct xls_region {
	const uint8_t	*data;
	uint32_t	len;
};

struct xls_item {
	uint16_t		type;		/* XFS_LI_*, in payload byte order */
	uint16_t		size;		/* region count the format declares */
	enum xls_endian		endian;		/* byte order of the payload */
	uint32_t		nregions;	/* regions actually present */
	const struct xls_region	*regions;	/* regions[0] is the format */
	uint64_t		op_bytes;	/* op headers that carried the regions */
};

/* Short lower-case name of an XFS_LI_* type ("buf", "efi_rt"), or NULL. */
const char *xls_item_type_name(uint16_t type);

/*
 * Read the item type from the first 16 bits of a format region in whichever
 * byte order makes it a known XFS_LI_* magic.  Returns 0 and sets @type and
 * @endian, or -1 when neither order gives a known type (@type is then the
 * little-endian reading and @endian little).
 */
int xls_item_detect(const uint8_t *p, uint32_t len, uint16_t *type,
		    enum xls_endian *endian);

/*
 * Describe @it into @fs: always "item" (type name or "unknown"),
 * "type_code", "regions" and "size", then the type's own fields.  A problem
 * with the payload (a region too short, counts that disagree) adds a
 * "finding" string field and returns 1; otherwise returns 0.
 */
int xls_item_describe(const struct xls_item *it, struct xls_fieldset *fs);

/* The buffer log format in host order, as recovery reads it. */
struct xls_buf_format {
	uint16_t	blf_type;
	uint16_t	blf_size;
	uint16_t	blf_flags;
	uint16_t	blf_len;		/* 512-byte basic blocks */
	int64_t		blf_blkno;		/* daddr */
	uint32_t	blf_map_size;		/* words, as logged */
	uint32_t	map_words;		/* words present in the region (<= 17) */
	uint32_t	blf_data_map[XFS_BLF_DATAMAP_SIZE];	/* zero past map_words */
};

/*
 * Parse regions[0] of a buffer item.  Returns 0, or -1 with @why set to a
 * static sentence when the region cannot hold the fixed part of the format.
 * A bitmap shorter than blf_map_size, or blf_map_size beyond 17 words, is
 * not an error here: map_words says how much was read, and the analysis
 * stage reports it.
 */
int xls_buf_format_parse(const struct xls_item *it, struct xls_buf_format *out,
			 const char **why);

/* Buffer type (XFS_BLFT_*) from blf_flags. */
static inline unsigned int xls_blft(uint16_t blf_flags)
{
	return (blf_flags & XFS_BLFT_MASK) >> XFS_BLFT_SHIFT;
}

/* Lower-case name of a buffer type ("dir_data", "agf"), "blft_N" if unknown. */
const char *xls_blft_name(unsigned int blft);

/* "inode_buf|cancel|..." names of the low blf_flags bits into @buf. */
void xls_blf_flags_str(uint16_t blf_flags, char *buf, size_t bufsz);

#endif /* XLS_ITEM_H */
