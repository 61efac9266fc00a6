/*
 * Replay stage: one buffer as recovery leaves it.  The image starts as the
 * blocks on the data device at a daddr and takes every item recovery
 * replays there, in recovery order: logged regions
 * (xlog_recover_do_reg_buffer), di_next_unlinked fields
 * (xlog_recover_do_inode_buffer), inode items and icreates.  Every write
 * lands in one image whatever the length of the buffer it came through (a
 * daddr can be logged as a 4 KiB extent of a directory block and later as
 * an inode cluster): recovery writes them all to the same sectors.  The
 * image grows to the longest length seen, the new part read from the
 * device.  Never written anywhere but memory.
 */
#ifndef XLS_REPLAY_H
#define XLS_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "recover/recover.h"
#include "source/source.h"

struct xls_image {
	const struct xls_source	*src;
	int64_t			blkno;		/* daddr of the image */
	uint32_t		len;		/* 512-byte blocks read so far */
	bool			read_ok;	/* every block read from the device */
	uint64_t		absent;		/* bytes of them a metadump lacks (zeros) */
	uint8_t			*disk;		/* the blocks as on the device */
	uint8_t			*img;		/* ... as recovery leaves them */
	uint32_t		applied;	/* items replayed into it */
	uint32_t		skipped;	/* items of it recovery skips */
	uint32_t		inode_failed;	/* inode items that cannot be applied */
	const char		*inode_why;
	uint32_t		last_len;	/* the buffer recovery writes last */
	bool			out_of_memory;
	bool			icreate_hit;	/* the icreate at hand initialises this block */
};

/* An empty image of the daddr @blkno of @src's data device. */
void xls_image_init(struct xls_image *im, const struct xls_source *src,
		    int64_t blkno);
void xls_image_release(struct xls_image *im);

/*
 * Take item @ri of transaction @rt, in recovery order: when it writes to
 * the image's daddr (a buffer item there, an inode item whose cluster
 * buffer is there, an icreate that initialises it), apply it if recovery
 * replays it, count it as skipped otherwise, and return true.
 */
bool xls_image_take(struct xls_image *im, const struct xls_rtrans *rt,
		    const struct xls_ritem *ri);

/*
 * The image as recovery leaves it, cut to the length of the buffer
 * recovery writes last: *@bytes bytes, or NULL when no item wrote to it.
 * @disk gets the blocks as they are on the device.
 */
const uint8_t *xls_image_final(const struct xls_image *im, uint32_t *bytes,
			       const uint8_t **disk);

/* A run of 128-byte chunks that replay changes. */
struct xls_image_range {
	uint32_t	first;		/* chunk */
	uint32_t	last;
	uint32_t	offset;		/* bytes */
	uint32_t	len;
};

/*
 * The chunks of the final image that differ from the device: a malloc()ed
 * array of ranges in *@ranges (free() it), their number returned (-1 when
 * out of memory); *@changed chunks of *@nchunks differ.
 */
int xls_image_diff(const struct xls_image *im, struct xls_image_range **ranges,
		   uint32_t *changed, uint32_t *nchunks);

#endif /* XLS_REPLAY_H */
