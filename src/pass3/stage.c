/*
 * Pass 3 stage: what pass 3 writes, staged (stage.h).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "pass3/stage.h"

#define SECT		512u
#define DEV_BIT		(1ull << 63)

static uint64_t sect_key(int dev, uint64_t sect)
{
	return (dev ? DEV_BIT : 0) | sect;
}

int xls_stage_init(struct xls_stage *st, int fd, int data_fd, int log_fd)
{
	*st = (struct xls_stage){ .fd = fd, .dev_fd = { data_fd, log_fd },
				  .sect = XLS_INOMAP_INIT };
	for (int i = 0; i < 2; i++)
		if (st->dev_fd[i] >= 0 && fstat(st->dev_fd[i], &st->st[i]))
			return -1;
	return 0;
}

void xls_stage_release(struct xls_stage *st)
{
	xls_inomap_free(&st->sect);
}

int xls_stage_dev(const struct xls_stage *st, int fd)
{
	struct stat s;

	if (fstat(fd, &s))
		return -1;
	for (int i = 0; i < 2; i++)
		if (st->dev_fd[i] >= 0 && s.st_dev == st->st[i].st_dev &&
		    s.st_ino == st->st[i].st_ino)
			return i;
	return -1;
}

static int append(struct xls_stage *st, const struct xls_stage_rec *rec, const void *buf)
{
	int rc = xls_pwrite_fully(st->fd, st->end, rec, sizeof(*rec), NULL);

	if (!rc && rec->ckpt != XLS_STAGE_STALE)
		rc = xls_pwrite_fully(st->fd, st->end + sizeof(*rec), buf, rec->len, NULL);
	if (rc) {
		errno = -rc;
		return -1;
	}
	st->end += sizeof(*rec) + (rec->ckpt != XLS_STAGE_STALE ? rec->len : 0);
	return 0;
}

int xls_stage_write(struct xls_stage *st, int dev, uint64_t off, const void *buf, size_t len,
		    uint32_t ckpt)
{
	struct xls_stage_rec rec = { .off = off, .len = len, .dev = (uint8_t)dev,
				     .ckpt = (uint8_t)ckpt };
	uint64_t at = st->end + sizeof(rec);

	if (off % SECT || len % SECT || (dev != XLS_STAGE_DATA && dev != XLS_STAGE_LOG) ||
	    ckpt >= XLS_STAGE_STALE) {
		errno = EINVAL;
		return -1;
	}
	if (append(st, &rec, buf))
		return -1;
	/* each sector's bytes from now on: these */
	for (uint64_t s = 0; s < len / SECT; s++)
		if (xls_inomap_put(&st->sect, sect_key(dev, off / SECT + s), at + s * SECT)) {
			errno = ENOMEM;
			return -1;
		}
	return 0;
}

int xls_stage_overlay(const struct xls_stage *st, int dev, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	/* a read at a byte inside a sector reads that sector's staged tail */
	for (uint64_t at = off; at < off + len;) {
		uint64_t sect = at / SECT, skip = at % SECT, n = SECT - skip;
		const uint64_t *where = xls_inomap_find(&st->sect, sect_key(dev, sect));

		if (n > off + len - at)
			n = off + len - at;
		if (where) {
			int rc = xls_pread_fully(st->fd, *where + skip, p + (at - off), n, NULL);

			if (rc) {
				errno = -rc;
				return -1;
			}
		}
		at += n;
	}
	return 0;
}

int xls_stage_stale(struct xls_stage *st, uint64_t off, uint64_t len)
{
	struct xls_stage_rec rec = { .off = off, .len = len, .dev = XLS_STAGE_DATA,
				     .ckpt = XLS_STAGE_STALE };

	return append(st, &rec, NULL);
}
