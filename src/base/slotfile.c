#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/slotfile.h"
#include "base/vec.h"

void xls_slotfile_init(struct xls_slotfile *sf)
{
	memset(sf, 0, sizeof(*sf));
	sf->fd = -1;
}

void xls_slotfile_release(struct xls_slotfile *sf)
{
	if (sf->fd >= 0)
		close(sf->fd);
	for (uint32_t c = 0; c < XLS_SLOTFILE_CLASSES; c++)
		xls_vec_free(sf->free_off[c]);
	xls_slotfile_init(sf);
}

/* The class of a length, or XLS_SLOTFILE_CLASSES when it has none. */
static uint32_t class_of(uint32_t len)
{
	if (!len || len % 512 || len / 512 > XLS_SLOTFILE_CLASSES)
		return XLS_SLOTFILE_CLASSES;
	return len / 512 - 1;
}

static int failed(struct xls_slotfile *sf, int e)
{
	if (!sf->error)
		sf->error = e;
	return -sf->error;
}

int xls_slotfile_put(struct xls_slotfile *sf, const void *img, uint32_t len, uint64_t *off)
{
	uint32_t c = class_of(len);
	int rc;

	if (sf->error)
		return -sf->error;
	if (c == XLS_SLOTFILE_CLASSES)
		return failed(sf, EINVAL);
	if (sf->fd < 0) {
		sf->fd = xls_tmpfile(&sf->dir);
		if (sf->fd < 0)
			return failed(sf, errno ? errno : EIO);
	}
	if (sf->nfree[c]) {
		*off = sf->free_off[c][--sf->nfree[c]];
	} else {
		*off = sf->end;
		sf->end += len;
	}
	rc = xls_pwrite_fully(sf->fd, *off, img, len, NULL);
	return rc ? failed(sf, -rc) : 0;
}

int xls_slotfile_get(struct xls_slotfile *sf, uint64_t off, void *img, uint32_t len)
{
	int rc;

	if (sf->error)
		return -sf->error;
	if (sf->fd < 0 || off + len > sf->end)
		return failed(sf, EINVAL);
	rc = xls_pread_fully(sf->fd, off, img, len, NULL);
	return rc ? failed(sf, -rc) : 0;
}

void xls_slotfile_drop(struct xls_slotfile *sf, uint64_t off, uint32_t len)
{
	uint32_t c = class_of(len);
	uint64_t *p;

	if (c == XLS_SLOTFILE_CLASSES)
		return;
	/* out of memory for the list: the place is only not reused */
	p = xls_vec_push((void **)&sf->free_off[c], &sf->nfree[c], &sf->capfree[c], sizeof(*p));
	if (p)
		*p = off;
}
