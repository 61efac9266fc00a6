#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "replay/apply.h"
#include "replay/replay.h"

void xls_image_init(struct xls_image *im, const struct xls_source *src,
		    int64_t blkno)
{
	memset(im, 0, sizeof(*im));
	im->src = src;
	im->blkno = blkno;
}

void xls_image_release(struct xls_image *im)
{
	free(im->disk);
	free(im->img);
	im->disk = im->img = NULL;
	im->len = 0;
}

/* Grow the image to @len blocks, the new part read from the device. */
static bool image_grow(struct xls_image *im, uint32_t len)
{
	uint64_t old = (uint64_t)im->len * BBSIZE, bytes = (uint64_t)len * BBSIZE;
	uint8_t *disk, *img;
	int rc;

	if (!len || bytes > XFS_MAX_BLOCKSIZE)
		return false;
	if (len <= im->len)
		return true;
	disk = realloc(im->disk, bytes);
	if (disk)
		im->disk = disk;
	img = disk ? realloc(im->img, bytes) : NULL;
	if (img)
		im->img = img;
	if (!disk || !img) {
		im->out_of_memory = true;
		return false;
	}
	rc = xls_source_read_data(im->src, (uint64_t)im->blkno * BBSIZE + old,
				  im->disk + old, bytes - old);
	if (rc)
		memset(im->disk + old, 0, bytes - old);
	else
		im->absent += xls_source_data_missing(im->src, (uint64_t)im->blkno * BBSIZE + old,
						      bytes - old);
	im->read_ok = (old == 0 || im->read_ok) && rc == 0;
	memcpy(im->img + old, im->disk + old, bytes - old);
	im->len = len;
	return true;
}

/*
 * History's image as a block provider: its one block, grown to what each
 * item recovery writes there covers; an icreate's other clusters are
 * none of its business.
 */
static int provide(void *ctx, const struct xls_ritem *ri, enum xls_apply_what what,
		   int64_t blkno, uint32_t len, bool fresh, uint8_t **buf)
{
	struct xls_image *im = ctx;

	(void)ri;
	(void)fresh;
	if (blkno != im->blkno)
		return 0;
	if (what == XLS_APPLY_ICREATE) {
		im->icreate_hit = true;
		im->last_len = len;
	}
	if (!image_grow(im, len))
		return 0;
	*buf = im->img;
	return 1;
}

/* Whether item @ri writes (or, skipped, would write) the image's block. */
static bool concerns(const struct xls_image *im, const struct xls_ritem *ri, uint32_t *len)
{
	if (ri->has_ino && ri->ino_blkno == im->blkno) {
		*len = ri->ino_len;
		return true;
	}
	if (ri->buf && ri->buf->blkno == im->blkno) {
		*len = ri->buf->len;
		return true;
	}
	return false;
}

bool xls_image_take(struct xls_image *im, const struct xls_rtrans *rt,
		    const struct xls_ritem *ri)
{
	const struct xls_block_provider p = { .ctx = im, .get = provide };
	struct xls_apply_count n = { 0 };
	bool writes = xls_apply_writes(ri, false);
	/* an inode item recovery writes, whose regions recovery did not keep */
	bool unkept = ri->has_ino && ri->decision == XLS_RD_REPLAY && !ri->inode;
	uint32_t len;

	if (ri->icreate) {
		/* xfs_ialloc_inode_init, when one of its clusters is this buffer */
		im->icreate_hit = false;
		if (xls_apply_item(&im->src->geo, rt, ri, &p, &n) == 0 && n.clusters)
			im->applied++;
		return im->icreate_hit;
	}
	if (!concerns(im, ri, &len))
		return false;
	/* the buffer left in the end: the last one recovery writes */
	if (!im->last_len || writes || unkept)
		im->last_len = len;
	if (!image_grow(im, len))
		return true;
	if (unkept) {
		im->inode_failed++;
		im->inode_why = "inode item regions not kept";
		return true;
	}
	if (!writes) {
		im->skipped++;
		return true;
	}
	xls_apply_item(&im->src->geo, rt, ri, &p, &n);
	im->applied += n.buffers + n.inodes;
	if (n.inode_errors) {
		im->inode_failed++;
		im->inode_why = n.inode_why;
	}
	return true;
}

const uint8_t *xls_image_final(const struct xls_image *im, uint32_t *bytes,
			       const uint8_t **disk)
{
	uint32_t len;

	if (!im->len)
		return NULL;
	len = im->last_len && im->last_len <= im->len ? im->last_len : im->len;
	*bytes = len * BBSIZE;
	if (disk)
		*disk = im->disk;
	return im->img;
}

static bool chunk_differs(const struct xls_image *im, uint32_t ch)
{
	return memcmp(im->img + (size_t)ch * XFS_BLF_CHUNK,
		      im->disk + (size_t)ch * XFS_BLF_CHUNK, XFS_BLF_CHUNK) != 0;
}

int xls_image_diff(const struct xls_image *im, struct xls_image_range **ranges,
		   uint32_t *changed, uint32_t *nchunks)
{
	struct xls_image_range *r = NULL;
	uint32_t bytes = 0, n = 0;

	*ranges = NULL;
	*changed = 0;
	if (!xls_image_final(im, &bytes, NULL))
		bytes = 0;
	*nchunks = bytes / XFS_BLF_CHUNK;
	/* at most one range per two chunks */
	r = malloc(sizeof(*r) * (*nchunks / 2 + 1));
	if (!r)
		return -1;
	for (uint32_t ch = 0; ch < *nchunks; ) {
		uint32_t end = ch;

		if (!chunk_differs(im, ch)) {
			ch++;
			continue;
		}
		while (end < *nchunks && chunk_differs(im, end))
			end++;
		*changed += end - ch;
		r[n].first = ch;
		r[n].last = end - 1;
		r[n].offset = ch * XFS_BLF_CHUNK;
		r[n].len = (end - ch) * XFS_BLF_CHUNK;
		n++;
		ch = end;
	}
	*ranges = r;
	return (int)n;
}
