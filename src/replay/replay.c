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
 * A buffer item: xlog_recover_do_reg_buffer() copies each placed region;
 * xlog_recover_do_inode_buffer() only di_next_unlinked, then recomputes
 * that inode's CRC.
 */
static void take_buf(struct xls_image *im, const struct xls_ritem *ri)
{
	const struct xls_rbuf *b = ri->buf;

	/* the buffer left in the end: the last one recovery writes */
	if (!im->last_len || xls_replays(ri->decision))
		im->last_len = b->len;
	if (!image_grow(im, b->len))
		return;
	if (!xls_replays(ri->decision)) {
		im->skipped++;
		return;
	}
	im->applied++;
	xls_apply_buf(&im->src->geo, b, im->img, (uint64_t)b->len * BBSIZE);
}

/* An inode item replayed into this buffer: xlog_recover_inode_commit_pass2. */
static void take_inode(struct xls_image *im, const struct xls_rtrans *rt,
		       const struct xls_ritem *ri)
{
	const char *why;

	if (!im->last_len || ri->decision == XLS_RD_REPLAY)
		im->last_len = ri->ino_len;
	if (!image_grow(im, ri->ino_len))
		return;
	if (ri->decision != XLS_RD_REPLAY) {
		im->skipped++;
		return;
	}
	if (xls_recover_apply_inode(&im->src->geo, ri, rt->t->lsn, im->img,
				    im->len * BBSIZE, false, &why)) {
		im->inode_failed++;
		im->inode_why = why;
		return;
	}
	im->applied++;
}

/* An icreate that initialises this buffer: xfs_ialloc_inode_init. */
static bool take_icreate(struct xls_image *im, const struct xls_ritem *ri)
{
	const struct xls_geometry *g = &im->src->geo;
	uint32_t bb = xls_recover_cluster_bb(g);
	uint8_t *fresh;
	bool hit;

	if (!bb || ri->decision != XLS_RD_REPLAY)
		return false;
	/* into a scratch cluster first: most icreates are for other daddrs */
	fresh = malloc((size_t)bb * BBSIZE);
	if (!fresh) {
		im->out_of_memory = true;
		return false;
	}
	hit = xls_recover_apply_icreate(g, ri, im->blkno, fresh, bb * BBSIZE);
	if (hit) {
		im->last_len = bb;
		if (image_grow(im, bb)) {
			memcpy(im->img, fresh, (size_t)bb * BBSIZE);
			im->applied++;
		}
	}
	free(fresh);
	return hit;
}

bool xls_image_take(struct xls_image *im, const struct xls_rtrans *rt,
		    const struct xls_ritem *ri)
{
	if (ri->has_ino && ri->ino_blkno == im->blkno) {
		take_inode(im, rt, ri);
		return true;
	}
	if (ri->icreate && take_icreate(im, ri))
		return true;
	if (!ri->buf || ri->buf->blkno != im->blkno)
		return false;
	take_buf(im, ri);
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
