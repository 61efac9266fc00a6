/*
 * Replay stage: a replayed buffer item applied to its buffer.
 */
#include <string.h>

#include "base/ondisk.h"
#include "replay/apply.h"

void xls_apply_buf(const struct xls_geometry *g, const struct xls_rbuf *rb, uint8_t *img,
		   uint64_t bytes)
{
	const uint8_t *src = rb->data;

	if (rb->blf_flags & XFS_BLF_INODE_BUF) {
		for (uint32_t i = 0; i < rb->nunlinked; i++) {
			const struct xls_runlinked *u = &rb->unlinked[i];

			if (!u->readable || (uint64_t)u->offset + 4 > bytes)
				continue;
			for (int k = 0; k < 4; k++)
				img[u->offset + k] = (uint8_t)(u->value >> (24 - 8 * k));
			if (g->crc)
				xls_recover_inode_crc(img, (uint32_t)bytes, g->inode_size, u->slot);
		}
		return;
	}
	if (!src)
		return;
	for (uint32_t i = 0; i < rb->res->nplaces; i++) {
		const struct xls_region_place *p = &rb->res->places[i];

		if ((uint64_t)p->offset + p->len <= bytes)
			memcpy(img + p->offset, src, p->len);
		src += p->len;
	}
}
