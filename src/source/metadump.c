/*
 * Source stage: the two xfs_metadump formats (xfsprogs db/metadump.c
 * writes them, mdrestore/xfs_mdrestore.c restores them), indexed in one
 * pass from front to back.  A plain metadump is read in place: only its
 * index blocks or extent headers are read here, the blocks themselves
 * when a later stage asks.  A compressed one is decompressed once and its
 * blocks spooled (spool.c).
 *
 * The checks are stricter than xfs_mdrestore's where a file that breaks
 * them cannot have come from xfs_metadump (a bad magic in a later index
 * block, a block beyond the end of its device, device bits 3); where
 * xfs_mdrestore gives a file a meaning -- two copies of one block, the
 * later one written last -- the index gives it the same meaning.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fullio.h"
#include "base/ondisk.h"
#include "source/metadump.h"

#define BB		512u
#define V1_BLOCKLOG	9	/* what xfs_metadump writes: 512-byte blocks */
#define V1_PER_INDEX	((BB - XLS_MB_HDR_BYTES) / 8)	/* daddrs per index block: 63 */
#define SKIP_BUF	(64u * 1024)

/* The metadump being read, and where it stands. */
struct md_reader {
	int			fd;		/* plain: read in place */
	uint64_t		size;
	uint64_t		pos;		/* byte offset in the (decompressed) metadump */
	struct xls_zin		*zin;		/* compressed: through the spool */
	const char		*path;
	struct xls_metadump	*md;
	struct xls_error	*err;
	uint64_t		carried;	/* bytes of blocks so far */
	uint64_t		rt_bytes;	/* realtime device size */
	uint32_t		sect_bytes;	/* sb_sectsize: what xfs_mdrestore rewrites */
	bool			sb_taken;	/* the superblock's sector is indexed */
};

unsigned int xls_metadump_magic(const uint8_t *p, size_t n)
{
	if (n < 4)
		return 0;
	switch (xls_be32(p)) {
	case XFS_MD_MAGIC_V1:	return 1;
	case XFS_MD_MAGIC_V2:	return 2;
	}
	return 0;
}

static const char *what(const struct md_reader *r)
{
	return r->zin ? "the decompressed metadump" : "the file";
}

/* Up to @n bytes of headers at the current position; returns the count. */
static int64_t rd_bytes(struct md_reader *r, void *p, size_t n)
{
	uint64_t left = r->zin ? n : r->size - r->pos;
	size_t take = left < n ? (size_t)left : n;
	int rc;

	if (r->zin) {
		ssize_t got = xls_zin_read(r->zin, p, n, r->err);

		if (got < 0)
			return -1;
		r->pos += (uint64_t)got;
		return got;
	}
	rc = xls_pread_fully(r->fd, r->pos, p, take, NULL);
	if (rc)
		return xls_error_set(r->err, XLS_EXIT_INPUT, "cannot read '%s' at byte %llu: %s",
				     r->path, (unsigned long long)r->pos,
				     rc == -ENODATA ? "it ends there" : strerror(-rc));
	r->pos += take;
	return (int64_t)take;
}

static int truncated(const struct md_reader *r, const char *part, uint64_t at, uint64_t need)
{
	return xls_error_set(r->err, XLS_EXIT_INPUT,
			     "'%s' is a truncated metadump: %s at byte %llu needs %llu bytes, "
			     "but %s ends at byte %llu",
			     r->path, part, (unsigned long long)at, (unsigned long long)need,
			     what(r), (unsigned long long)(r->zin ? r->pos : r->size));
}

static int bad(const struct md_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(const struct md_reader *r, const char *fmt, ...)
{
	char why[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return xls_error_set(r->err, XLS_EXIT_INPUT, "'%s' is not a valid metadump: %s",
			     r->path, why);
}

/* The superblock: the sizes of the devices the extents must lie in. */
static int take_sb(struct md_reader *r, const uint8_t *sb, size_t n)
{
	uint32_t bs;
	uint64_t dblocks, rblocks;

	if (n < sizeof(struct xfs_dsb) ||
	    xls_be32(sb + offsetof(struct xfs_dsb, sb_magicnum)) != XFS_SB_MAGIC)
		return bad(r, "its first block (daddr 0, at byte %llu) is not an XFS superblock",
			   (unsigned long long)r->pos);
	bs = xls_be32(sb + offsetof(struct xfs_dsb, sb_blocksize));
	dblocks = xls_be64(sb + offsetof(struct xfs_dsb, sb_dblocks));
	rblocks = xls_be64(sb + offsetof(struct xfs_dsb, sb_rblocks));
	if (bs < 512 || bs > 65536 || (bs & (bs - 1)))
		return bad(r, "its superblock has a bad block size %u", bs);
	/* daddrs have 54 bits */
	if (!dblocks || dblocks > XME_ADDR_DADDR_MASK / (bs / BB) ||
	    rblocks > XME_ADDR_DADDR_MASK / (bs / BB))
		return bad(r, "its superblock has a bad size: %llu data blocks, %llu realtime blocks",
			   (unsigned long long)dblocks, (unsigned long long)rblocks);
	r->md->data_bytes = dblocks * bs;
	r->rt_bytes = rblocks * bs;
	r->sect_bytes = xls_be16(sb + offsetof(struct xfs_dsb, sb_sectsize));
	if (r->sect_bytes < BB || r->sect_bytes > 32768 || (r->sect_bytes & (r->sect_bytes - 1)))
		r->sect_bytes = BB;
	if (xls_be64(sb + offsetof(struct xfs_dsb, sb_logstart)) == 0)
		r->md->log_bytes = (uint64_t)xls_be32(sb + offsetof(struct xfs_dsb, sb_logblocks)) * bs;
	return 0;
}

/* The first sector of the blocks that follow, for the superblock. */
static int peek_sb(struct md_reader *r)
{
	uint8_t sb[BB];
	const uint8_t *p;

	if (r->zin) {
		ssize_t got = xls_zin_peek(r->zin, &p, BB, r->err);

		if (got < 0)
			return -1;
		return take_sb(r, p, (size_t)got);
	}
	if (r->size - r->pos < BB)
		return truncated(r, "the superblock", r->pos, BB);
	if (xls_pread_fully(r->fd, r->pos, sb, BB, NULL))
		return xls_error_set(r->err, XLS_EXIT_INPUT, "cannot read '%s' at byte %llu",
				     r->path, (unsigned long long)r->pos);
	return take_sb(r, sb, BB);
}

/* @len bytes of blocks at the current position are the device's at @off. */
static int rd_piece(struct md_reader *r, struct xls_extmap *map, uint64_t off,
		    uint64_t len, const char *part, uint64_t at)
{
	r->carried += len;
	if (r->zin) {
		int64_t got = xls_zin_extent(r->zin, map, off, len, true, r->err);

		if (got < 0)
			return -1;
		r->pos += (uint64_t)got;
		if ((uint64_t)got < len)
			return truncated(r, part, at, len);
		return 0;
	}
	if (r->size - r->pos < len)
		return truncated(r, part, at, len);
	if (xls_extmap_add(map, off, len, r->pos))
		return xls_error_set(r->err, XLS_EXIT_INTERNAL,
				     "out of memory for the index of the metadump's extents");
	r->pos += len;
	return 0;
}

/*
 * The same, and the first blocks of all (the superblock: its first
 * extent starts at daddr 0) apart: xfs_mdrestore writes its sector again
 * at the end, from the first copy, so that copy wins over any later one.
 */
static int rd_blocks(struct md_reader *r, struct xls_extmap *map, uint64_t off,
		     uint64_t len, const char *part, uint64_t at)
{
	uint64_t rest;

	if (r->sb_taken || map != r->md->data)
		return rd_piece(r, map, off, len, part, at);
	r->sb_taken = true;
	rest = len > r->sect_bytes ? len - r->sect_bytes : 0;
	if (rd_piece(r, map, off, len - rest, part, at))
		return -1;
	xls_extmap_protect(map);
	return rest ? rd_piece(r, map, off + (len - rest), rest, part, at) : 0;
}

/* Blocks of a device this tool does not read (realtime): passed over. */
static int skip_blocks(struct md_reader *r, uint64_t len, const char *part, uint64_t at)
{
	uint8_t *buf;

	r->carried += len;
	if (!r->zin) {
		if (r->size - r->pos < len)
			return truncated(r, part, at, len);
		r->pos += len;
		return 0;
	}
	buf = malloc(SKIP_BUF);
	if (!buf)
		return xls_error_set(r->err, XLS_EXIT_INTERNAL, "out of memory for a buffer to "
				     "pass over the metadump's realtime blocks");
	for (uint64_t left = len; left;) {
		size_t take = left < SKIP_BUF ? (size_t)left : SKIP_BUF;
		ssize_t got = xls_zin_read(r->zin, buf, take, r->err);

		if (got < 0 || (size_t)got < take) {
			free(buf);
			r->pos += got > 0 ? (uint64_t)got : 0;
			return got < 0 ? -1 : truncated(r, part, at, len);
		}
		r->pos += take;
		left -= take;
	}
	free(buf);
	return 0;
}

/*
 * A metadump carries each block once, the superblock perhaps twice;
 * more than its devices hold is not something xfs_metadump writes (and
 * would let a small compressed file fill the spool without end).
 */
static int check_carried(const struct md_reader *r)
{
	uint64_t room = r->md->data_bytes + r->md->log_bytes + r->rt_bytes + 65536;

	if (r->carried <= room)
		return 0;
	return bad(r, "it carries more bytes of blocks (%llu by byte %llu) than its devices hold",
		   (unsigned long long)r->carried, (unsigned long long)r->pos);
}

/* ------------------------------------------------------------------ */
/* v1: index blocks of 63 daddrs, each block 512 bytes */

static int v1_block(struct md_reader *r, const uint8_t *idx, uint64_t nblk, uint64_t at,
		    unsigned int *count)
{
	unsigned int n = xls_be16(idx + XLS_MB_COUNT_OFF);

	if (xls_be32(idx + XLS_MB_MAGIC_OFF) != XFS_MD_MAGIC_V1)
		return bad(r, "index block %llu at byte %llu has no 'XFSM' magic",
			   (unsigned long long)nblk, (unsigned long long)at);
	if (idx[XLS_MB_BLOCKLOG_OFF] != V1_BLOCKLOG)
		return bad(r, "index block at byte %llu has mb_blocklog %u (xfs_metadump writes 9)",
			   (unsigned long long)at, idx[XLS_MB_BLOCKLOG_OFF]);
	if (n > V1_PER_INDEX)
		return bad(r, "index block at byte %llu has mb_count %u, more than its 63 daddrs",
			   (unsigned long long)at, n);
	*count = n;
	return 0;
}

static void v1_flags(struct xls_metadump_info *in, uint8_t info)
{
	in->flags_known = info & XFS_METADUMP_INFO_FLAGS;
	in->obfuscated = info & XFS_METADUMP_OBFUSCATED;
	in->full_blocks = info & XFS_METADUMP_FULLBLOCKS;
	in->dirty_log = info & XFS_METADUMP_DIRTYLOG;
}

static int parse_v1(struct md_reader *r)
{
	uint8_t idx[BB];
	unsigned int count = V1_PER_INDEX;

	for (uint64_t nblk = 0; count == V1_PER_INDEX; nblk++) {
		uint64_t at = r->pos;
		int64_t got = rd_bytes(r, idx, BB);

		if (got < 0)
			return -1;
		if (got < BB)
			return truncated(r, nblk ? "the index block after a full one" :
					 "the first index block", at, BB);
		if (v1_block(r, idx, nblk, at, &count))
			return -1;
		if (nblk == 0) {
			v1_flags(&r->md->info, idx[XLS_MB_INFO_OFF]);
			if (!count)
				return bad(r, "its first index block (byte %llu) lists no block",
					   (unsigned long long)at);
			if (xls_be64(idx + XLS_MB_HDR_BYTES) != 0)
				return bad(r, "its first block is daddr 0x%llx, not the superblock",
					   (unsigned long long)xls_be64(idx + XLS_MB_HDR_BYTES));
			if (peek_sb(r))
				return -1;
		}
		/* runs of consecutive daddrs at once: a log is one per index block */
		for (unsigned int i = 0, j; i < count; i = j) {
			uint64_t daddr = xls_be64(idx + XLS_MB_HDR_BYTES + 8 * i);

			for (j = i + 1; j < count &&
			     xls_be64(idx + XLS_MB_HDR_BYTES + 8 * j) == daddr + (j - i); j++)
				;
			if (daddr >= r->md->data_bytes / BB || j - i > r->md->data_bytes / BB - daddr)
				return bad(r, "block daddr 0x%llx (index block at byte %llu) lies beyond "
					   "the end of the data device",
					   (unsigned long long)(daddr >= r->md->data_bytes / BB ? daddr :
								r->md->data_bytes / BB),
					   (unsigned long long)at);
			if (rd_blocks(r, r->md->data, daddr * BB, (uint64_t)(j - i) * BB, "a block", at))
				return -1;
		}
		if (check_carried(r))
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* v2: a header, then extents, each a header and its blocks */

static int v2_header(struct md_reader *r)
{
	struct xls_metadump_info *in = &r->md->info;
	uint8_t h[XLS_XMH_BYTES];
	int64_t got = rd_bytes(r, h, sizeof(h));
	uint32_t version, compat, incompat;

	if (got < 0)
		return -1;
	if (got < (int64_t)sizeof(h))
		return truncated(r, "the header", 0, sizeof(h));
	version = xls_be32(h + 4);
	compat = xls_be32(h + 8);
	incompat = xls_be32(h + 12);
	if (version != 2)
		return bad(r, "xmh_version is %u, not 2", version);
	if (incompat & ~XFS_MD2_INCOMPAT_ALL)
		return bad(r, "unknown incompat flags 0x%x (xfs_mdrestore refuses them too)",
			   incompat & ~XFS_MD2_INCOMPAT_ALL);
	if (xls_be64(h + 16))
		return bad(r, "xmh_reserved is 0x%llx, not 0",
			   (unsigned long long)xls_be64(h + 16));
	in->flags_known = true;
	in->obfuscated = compat & XFS_MD2_COMPAT_OBFUSCATED;
	in->full_blocks = compat & XFS_MD2_COMPAT_FULLBLOCKS;
	in->dirty_log = compat & XFS_MD2_COMPAT_DIRTYLOG;
	in->external_log = compat & XFS_MD2_COMPAT_EXTERNALLOG;
	in->rt_device = incompat & XFS_MD2_INCOMPAT_RTDEVICE;
	return 0;
}

/* The map an extent goes to and the size of its device, by its device bits. */
static int v2_device(struct md_reader *r, uint64_t addr, uint64_t n, uint64_t at,
		     struct xls_extmap **map, uint64_t *dev_bytes)
{
	switch (addr & XME_ADDR_DEVICE_MASK) {
	case XME_ADDR_DATA_DEVICE:
		*map = r->md->data;
		*dev_bytes = r->md->data_bytes;
		return 0;
	case XME_ADDR_LOG_DEVICE:
		if (!r->md->info.external_log)
			return bad(r, "extent %llu at byte %llu is of the log device, but the header "
				   "says the metadump carries no external log",
				   (unsigned long long)n, (unsigned long long)at);
		*map = r->md->log;
		*dev_bytes = r->md->log_bytes;
		return 0;
	case XME_ADDR_RT_DEVICE:
		if (!r->md->info.rt_device)
			return bad(r, "extent %llu at byte %llu is of the realtime device, but the "
				   "header says the metadump carries none",
				   (unsigned long long)n, (unsigned long long)at);
		*map = NULL;
		*dev_bytes = r->rt_bytes;
		return 0;
	}
	return bad(r, "extent %llu at byte %llu names device 3 (xme_addr bits 54-55), "
		   "which does not exist", (unsigned long long)n, (unsigned long long)at);
}

static int parse_v2(struct md_reader *r)
{
	for (uint64_t n = 0;; n++) {
		uint8_t h[XLS_XME_BYTES];
		uint64_t at = r->pos, addr, daddr, len;
		struct xls_extmap *map = NULL;
		uint64_t dev_bytes = 0;
		int64_t got = rd_bytes(r, h, sizeof(h));

		if (got < 0)
			return -1;
		if (got == 0 && n)
			return 0;
		if (got < (int64_t)sizeof(h))
			return truncated(r, "an extent header", at, sizeof(h));
		addr = xls_be64(h);
		daddr = addr & XME_ADDR_DADDR_MASK;
		len = (uint64_t)xls_be32(h + 8) * BB;
		if (!len)
			return bad(r, "extent %llu at byte %llu has length 0",
				   (unsigned long long)n, (unsigned long long)at);
		if (n == 0 && addr != 0)
			return bad(r, "its first extent is not the superblock (xme_addr 0x%llx)",
				   (unsigned long long)addr);
		if (n == 0 && peek_sb(r))
			return -1;
		if (v2_device(r, addr, n, at, &map, &dev_bytes))
			return -1;
		if (daddr > dev_bytes / BB || len > dev_bytes - daddr * BB)
			return bad(r, "extent %llu at byte %llu (daddr 0x%llx, %llu bytes) lies beyond "
				   "the end of its device", (unsigned long long)n,
				   (unsigned long long)at, (unsigned long long)daddr,
				   (unsigned long long)len);
		if (map ? rd_blocks(r, map, daddr * BB, len, "an extent", at) :
			  skip_blocks(r, len, "an extent", at))
			return -1;
		if (check_carried(r))
			return -1;
	}
}

/* ------------------------------------------------------------------ */

static struct xls_extmap *new_map(void)
{
	struct xls_extmap *m = calloc(1, sizeof(*m));

	if (m) {
		m->fd = -1;
		m->holes_absent = true;
	}
	return m;
}

static int finish_map(struct md_reader *r, struct xls_extmap *m, uint64_t dev_bytes)
{
	if (!m)
		return 0;
	m->dev_bytes = dev_bytes;
	if (xls_extmap_finish(m))
		return xls_error_set(r->err, XLS_EXIT_INTERNAL, "out of memory for resolving the "
				     "metadump's overlapping extents");
	r->md->info.extents += m->n;
	r->md->info.overlap_bytes += m->overlap_bytes;
	return 0;
}

/* The magic, without consuming it: the first header holds it. */
static unsigned int peek_version(struct md_reader *r)
{
	uint8_t m[4];
	const uint8_t *p = m;
	ssize_t got;

	if (r->zin) {
		got = xls_zin_peek(r->zin, &p, sizeof(m), r->err);
		if (got < 0)
			return 0;
	} else {
		got = r->size < sizeof(m) ? 0 : (ssize_t)sizeof(m);
		if (got && xls_pread_fully(r->fd, 0, m, sizeof(m), NULL))
			got = 0;
	}
	if (!xls_metadump_magic(p, (size_t)got))
		xls_error_set(r->err, XLS_EXIT_INPUT, "'%s' is not an xfs_metadump", r->path);
	return xls_metadump_magic(p, (size_t)got);
}

int xls_metadump_open(struct xls_metadump *md, int fd, uint64_t size,
		      struct xls_zin *zin, const char *path, struct xls_error *err)
{
	struct md_reader r = {
		.fd = fd, .size = size, .zin = zin, .path = path, .md = md, .err = err,
	};
	struct xls_metadump_info *in = &md->info;
	int rc;

	memset(md, 0, sizeof(*md));
	in->version = peek_version(&r);
	if (!in->version)
		return -1;
	md->data = new_map();
	if (!md->data)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the map of the metadump's data device");
	if (in->version == 1) {
		rc = parse_v1(&r);
	} else {
		rc = v2_header(&r);
		if (!rc && in->external_log) {
			md->log = new_map();
			if (!md->log)
				return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for "
						     "the map of the metadump's external log");
		}
		if (!rc)
			rc = parse_v2(&r);
	}
	if (rc || finish_map(&r, md->data, md->data_bytes) ||
	    finish_map(&r, md->log, md->log_bytes))
		return -1;
	xls_metadump_set_fd(md, fd);
	in->bytes = r.carried;
	/* copy_log(): a clean log is cleared unless the dump was -a -o */
	in->log_cleared = in->flags_known && !in->dirty_log &&
			  (in->obfuscated || !in->full_blocks);
	return 0;
}

void xls_metadump_set_fd(struct xls_metadump *md, int fd)
{
	if (md->data)
		md->data->fd = fd;
	if (md->log)
		md->log->fd = fd;
}

void xls_metadump_release(struct xls_metadump *md)
{
	xls_extmap_free(md->data);
	xls_extmap_free(md->log);
	md->data = md->log = NULL;
}
