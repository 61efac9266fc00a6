/*
 * Source stage: find the log and its geometry.  Every descriptor is opened
 * O_RDONLY; nothing in this tool ever writes to its input.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>
#include <blkid/blkid.h>

#include "base/fullio.h"
#include "base/ondisk.h"
#include "source/source.h"
#include "source/spool.h"

#define BBSIZE_BYTES	512u


static int read_fully(int fd, uint64_t off, void *buf, size_t len)
{
	return xls_pread_fully(fd, off, buf, len, NULL);
}

/*
 * The first read to fail, kept: the command fails with it, whatever a
 * stage made of it.  Not a read past the end the input had when it was
 * opened (@size): metadata that points there is the stage's to judge; a
 * read that finds the input shorter than that, it shrank.
 */
static int kept(const struct xls_source *src, int rc, uint64_t off, size_t len, uint64_t size,
		bool log)
{
	struct xls_source_ioerr *e = src->ioerr;

	if (rc == -ENODATA && size && (off > size || len > size - off))
		return rc;
	if (rc && e && !__atomic_load_n(&e->err, __ATOMIC_ACQUIRE)) {
		e->off = off;
		e->log = log;
		__atomic_store_n(&e->err, -rc, __ATOMIC_RELEASE);
	}
	return rc;
}

int xls_source_read(const struct xls_source *src, uint64_t off, void *buf,
		    size_t len)
{
	off += src->geo.log_offset;
	if (src->log_map)
		return kept(src, xls_extmap_read(src->log_map, off, buf, len), off, len,
			    xls_extmap_size(src->log_map), true);
	return kept(src, read_fully(src->log_fd, off, buf, len), off, len, src->log_dev_bytes,
		    true);
}

int xls_source_read_data(const struct xls_source *src, uint64_t off, void *buf,
			 size_t len)
{
	if (src->data_fd < 0)
		return -ENODEV;
	if (src->data_map)
		return kept(src, xls_extmap_read(src->data_map, off, buf, len), off, len,
			    xls_extmap_size(src->data_map), false);
	return kept(src, read_fully(src->data_fd, off, buf, len), off, len, src->data_dev_bytes,
		    false);
}

const struct xls_source_ioerr *xls_source_io_error(const struct xls_source *src)
{
	return src->ioerr && __atomic_load_n(&src->ioerr->err, __ATOMIC_ACQUIRE) ? src->ioerr :
									     NULL;
}

void xls_source_io_error_str(const struct xls_source *src, const struct xls_source_ioerr *e,
			     char *buf, size_t size)
{
	const char *path = e->log ? src->path : src->data_path ? src->data_path : src->path;

	if (e->err == ENODATA)
		snprintf(buf, size, "cannot read '%s' at byte %llu: it ends there (cut short, or "
			 "shrunk while it was read)", path, (unsigned long long)e->off);
	else
		snprintf(buf, size, "cannot read '%s' at byte %llu: %s", path,
			 (unsigned long long)e->off, strerror(e->err));
}

bool xls_source_has_data(const struct xls_source *src)
{
	return src->data_fd >= 0;
}

uint64_t xls_source_data_missing(const struct xls_source *src, uint64_t off, uint64_t len)
{
	return src->data_map ? xls_extmap_missing(src->data_map, off, len) : 0;
}

static int device_size(int fd, uint64_t *bytes)
{
	struct stat st;

	*bytes = 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, bytes) < 0)
			return -errno;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	*bytes = (uint64_t)st.st_size;
	return 0;
}

/* Is the block device @rdev mounted?  Looks at this process' mount table. */
static bool rdev_is_mounted(dev_t rdev)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;

		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) == 2 &&
		    makedev(maj, min) == rdev)
			found = true;
	}
	fclose(f);
	return found;
}

/*
 * An image file is in use when a loop device backed by it is mounted; the
 * loop driver records the backing path in sysfs.
 */
static bool image_is_mounted(const char *path)
{
	char real[PATH_MAX], sys[300], backing[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (!realpath(path, real))
		return false;
	d = opendir("/sys/block");
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		unsigned int maj, min;
		FILE *f;

		if (strncmp(de->d_name, "loop", 4) != 0)
			continue;
		snprintf(sys, sizeof(sys), "/sys/block/%s/loop/backing_file",
			 de->d_name);
		f = fopen(sys, "re");
		if (!f)
			continue;
		if (fgets(backing, sizeof(backing), f)) {
			backing[strcspn(backing, "\n")] = '\0';
			if (strcmp(backing, real) == 0) {
				snprintf(sys, sizeof(sys), "/sys/block/%s/dev",
					 de->d_name);
				fclose(f);
				f = fopen(sys, "re");
				if (f && fscanf(f, "%u:%u", &maj, &min) == 2 &&
				    rdev_is_mounted(makedev(maj, min)))
					found = true;
			}
		}
		if (f)
			fclose(f);
	}
	closedir(d);
	return found;
}

static bool input_is_mounted(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return false;
	if (S_ISBLK(st.st_mode))
		return rdev_is_mounted(st.st_rdev);
	return image_is_mounted(path);
}

/* *@mounted set when --force reads a mounted device. */
static int open_input(const char *path, const struct xls_source_opts *o, int *fdp,
		      uint64_t *size, bool *mounted,
		      struct xls_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return xls_error_set(err, XLS_EXIT_INPUT, "cannot open '%s': %s",
				     path, strerror(errno));
	rc = device_size(fd, size);
	if (rc) {
		close(fd);
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' is neither a regular file nor a block device",
				     path);
	}
	if (*size == 0) {
		close(fd);
		return xls_error_set(err, XLS_EXIT_INPUT, "'%s' is empty", path);
	}
	if (input_is_mounted(fd, path)) {
		if (!o->force) {
			close(fd);
			return xls_error_set(err, XLS_EXIT_INPUT, "'%s' is mounted: its log is "
					     "live (%s)", path, o->force_reads_mounted ?
					     "use --force to read it anyway" :
					     "unmount it first: this command never reads a "
					     "mounted filesystem");
		}
		*mounted = true;
	}
	*fdp = fd;
	return 0;
}

/* libblkid's name for what @fd holds, into @type; "" when unrecognised. */
static void probe_type(int fd, char *type, size_t typesz)
{
	blkid_probe pr = blkid_new_probe();
	const char *val = NULL;

	type[0] = '\0';
	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, 0, 0) == 0 &&
	    blkid_do_safeprobe(pr) == 0 &&
	    blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0 && val)
		snprintf(type, typesz, "%s", val);
	blkid_free_probe(pr);
}

#define SB_BE16(sb, f)	xls_be16((sb) + offsetof(struct xfs_dsb, f))
#define SB_BE32(sb, f)	xls_be32((sb) + offsetof(struct xfs_dsb, f))
#define SB_BE64(sb, f)	xls_be64((sb) + offsetof(struct xfs_dsb, f))
#define SB_U8(sb, f)	((sb)[offsetof(struct xfs_dsb, f)])

/* Sanity limits from xfs_validate_sb_common, enough to trust the geometry. */
static const char *sb_check(const uint8_t *sb)
{
	uint32_t bsize = SB_BE32(sb, sb_blocksize);
	uint32_t ver = SB_BE16(sb, sb_versionnum) & XFS_SB_VERSION_NUMBITS;

	if (SB_BE32(sb, sb_magicnum) != XFS_SB_MAGIC)
		return "bad superblock magic";
	if (ver < XFS_SB_VERSION_4 || ver > XFS_SB_VERSION_5)
		return "unsupported superblock version";
	if (bsize < 512 || bsize > 65536 || (bsize & (bsize - 1)))
		return "bad block size";
	if (SB_BE32(sb, sb_agblocks) == 0 || SB_U8(sb, sb_agblklog) > 31)
		return "bad AG size";
	if (SB_BE32(sb, sb_logblocks) == 0)
		return "no log blocks";
	/* XFS_MAX_LOG_BYTES: mkfs and the kernel refuse larger logs */
	if ((uint64_t)SB_BE32(sb, sb_logblocks) * bsize > 2ull * 1024 * 1024 * 1024)
		return "log larger than 2 GiB";
	return NULL;
}

static bool pow2_within(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v >= lo && v <= hi && !(v & (v - 1));
}

const char *xls_sb_geometry_refused(const uint8_t *sb)
{
	uint32_t bsize = SB_BE32(sb, sb_blocksize), sect = SB_BE16(sb, sb_sectsize);
	uint32_t isize = SB_BE16(sb, sb_inodesize);
	uint32_t agblocks = SB_BE32(sb, sb_agblocks), agcount = SB_BE32(sb, sb_agcount);
	uint64_t dblocks = SB_BE64(sb, sb_dblocks);
	uint64_t agbytes = (uint64_t)agblocks * bsize;

	if (SB_BE32(sb, sb_magicnum) != XFS_SB_MAGIC)
		return "bad magic number";
	if (!pow2_within(sect, XFS_MIN_SECTORSIZE, XFS_MAX_SECTORSIZE) ||
	    SB_U8(sb, sb_sectlog) > 31 || sect != 1u << SB_U8(sb, sb_sectlog))
		return "bad sector size";
	if (!pow2_within(bsize, XFS_MIN_BLOCKSIZE, XFS_MAX_BLOCKSIZE) ||
	    SB_U8(sb, sb_blocklog) > 31 || bsize != 1u << SB_U8(sb, sb_blocklog))
		return "bad block size";
	if (!pow2_within(isize, XFS_DINODE_MIN_SIZE, XFS_DINODE_MAX_SIZE) ||
	    SB_U8(sb, sb_inodelog) > 31 || isize != 1u << SB_U8(sb, sb_inodelog) ||
	    SB_BE16(sb, sb_inopblock) != bsize / isize ||
	    SB_U8(sb, sb_blocklog) - SB_U8(sb, sb_inodelog) != SB_U8(sb, sb_inopblog))
		return "bad inode size";
	if (agbytes < XFS_MIN_AG_BYTES || agbytes > XFS_MAX_AG_BYTES)
		return "bad AG size";
	/* XFS_MIN_DBLOCKS and XFS_MAX_DBLOCKS */
	if (!agcount || !dblocks || dblocks > (uint64_t)agcount * agblocks ||
	    dblocks < (uint64_t)(agcount - 1) * agblocks + XFS_MIN_AG_BLOCKS)
		return "the AG count and size disagree with the block count";
	return NULL;
}

uint32_t xls_sb_first_ag_past(const uint8_t *sb, uint64_t dev_bytes)
{
	uint64_t agbytes = (uint64_t)SB_BE32(sb, sb_agblocks) * SB_BE32(sb, sb_blocksize);
	uint32_t sect = SB_BE16(sb, sb_sectsize), agcount = SB_BE32(sb, sb_agcount);

	/* AGs of 16 MiB at least: the walk stops within the device, plus one */
	for (uint32_t ag = 0; ag < agcount; ag++)
		if ((uint64_t)ag * agbytes + 3ull * sect > dev_bytes)
			return ag;
	return UINT32_MAX;
}

/*
 * Inode cluster size in blocks, as xfs_ialloc_setup_geometry() works it
 * out: 8 KiB, scaled by the inode size on v5 when the chunk alignment
 * allows, at least one block.
 */
static uint32_t cluster_blocks(const uint8_t *sb, const struct xls_geometry *g)
{
	uint32_t size = 8192;
	uint32_t align = SB_BE32(sb, sb_inoalignmt);

	if (!g->block_log || !g->inode_size)
		return 0;
	if (g->crc && align >= (size * (g->inode_size / 256)) >> g->block_log)
		size *= g->inode_size / 256;
	return size > g->blocksize ? size >> g->block_log : 1;
}

/* The filesystem geometry recovery needs, each value sanity-checked. */
static void sb_to_fs_geometry(const uint8_t *sb, struct xls_geometry *g)
{
	uint32_t incompat = g->crc ? SB_BE32(sb, sb_features_incompat) : 0;

	g->inode_size = SB_BE16(sb, sb_inodesize);
	g->inode_log = SB_U8(sb, sb_inodelog);
	if (g->inode_log < 8 || g->inode_log > 11 ||
	    g->inode_size != 1u << g->inode_log)
		g->inode_size = g->inode_log = 0;	/* not trusted */
	if (SB_U8(sb, sb_dirblklog) <= 8)
		g->dir_block_size = g->blocksize << SB_U8(sb, sb_dirblklog);
	if (g->dir_block_size > XFS_MAX_BLOCKSIZE)
		g->dir_block_size = 0;
	g->ag_blocks = SB_BE32(sb, sb_agblocks);
	g->ag_count = SB_BE32(sb, sb_agcount);
	g->block_log = SB_U8(sb, sb_blocklog);
	if (g->block_log < 9 || g->block_log > 16 ||
	    g->blocksize != 1u << g->block_log)
		g->ag_blocks = g->block_log = 0;
	g->inode_cluster_blocks = cluster_blocks(sb, g);
	g->ag_block_log = SB_U8(sb, sb_agblklog);
	/* inode numbers are shifted by it: only the one the block and inode sizes make */
	g->inopb_log = g->block_log && g->inode_log && g->block_log >= g->inode_log ?
		       g->block_log - g->inode_log : 0;
	g->inode_align = (SB_BE16(sb, sb_versionnum) & XFS_SB_VERSION_ALIGNBIT) &&
			 SB_BE32(sb, sb_inoalignmt) ? SB_BE32(sb, sb_inoalignmt) : 1;
	g->has_meta_uuid = incompat & XFS_SB_FEAT_INCOMPAT_META_UUID;
	g->has_rtgroups = incompat & XFS_SB_FEAT_INCOMPAT_METADIR;
	g->has_ftype = g->crc ? (incompat & XFS_SB_FEAT_INCOMPAT_FTYPE) != 0 :
		       (SB_BE16(sb, sb_versionnum) & XFS_SB_VERSION_MOREBITSBIT) &&
		       (SB_BE32(sb, sb_features2) & XFS_SB_VERSION2_FTYPE);
	g->has_parent = incompat & XFS_SB_FEAT_INCOMPAT_PARENT;
	g->sb_qflags = SB_BE16(sb, sb_qflags);
	g->has_reflink = g->crc && (SB_BE32(sb, sb_features_ro_compat) &
				    XFS_SB_FEAT_RO_COMPAT_REFLINK);
	g->root_ino = SB_BE64(sb, sb_rootino);
	g->dblocks = SB_BE64(sb, sb_dblocks);
	g->data_sect_bbs = SB_BE16(sb, sb_sectsize) >= 512 && SB_BE16(sb, sb_sectsize) <= 32768 ?
			   SB_BE16(sb, sb_sectsize) / 512u : 1;
}

static void sb_to_geometry(const uint8_t *sb, struct xls_geometry *g)
{
	uint16_t ver = SB_BE16(sb, sb_versionnum);
	bool v5 = (ver & XFS_SB_VERSION_NUMBITS) == XFS_SB_VERSION_5;
	uint8_t sectlog = SB_U8(sb, sb_logsectlog);

	g->has_sb = true;
	g->sb_refused = xls_sb_geometry_refused(sb);
	g->sb_versionnum = ver;
	g->blocksize = SB_BE32(sb, sb_blocksize);
	g->sb_logstart = SB_BE64(sb, sb_logstart);
	g->sb_logblocks = SB_BE32(sb, sb_logblocks);
	g->crc = v5;
	g->logv2 = v5 || (ver & XFS_SB_VERSION_LOGV2BIT);
	g->log_sunit = g->logv2 ? SB_BE32(sb, sb_logsunit) : 0;
	if (g->log_sunit == 1)	/* mkfs writes 1 for "none" */
		g->log_sunit = 0;
	g->sect_bbs = 1;
	if ((v5 || (ver & XFS_SB_VERSION_SECTORBIT)) && sectlog >= 9 && sectlog <= 15)
		g->sect_bbs = 1u << (sectlog - 9);
	memcpy(g->uuid, sb + offsetof(struct xfs_dsb, sb_uuid), 16);
	memcpy(g->meta_uuid, g->uuid, 16);
	if (v5) {
		if (SB_BE32(sb, sb_features_incompat) & XFS_SB_FEAT_INCOMPAT_META_UUID)
			memcpy(g->meta_uuid, sb + offsetof(struct xfs_dsb, sb_meta_uuid), 16);
		g->log_incompat = SB_BE32(sb, sb_features_log_incompat);
		g->sb_lsn = SB_BE64(sb, sb_lsn);
	}
	g->external = g->sb_logstart == 0;
	g->log_bbs = (uint32_t)((uint64_t)g->sb_logblocks * g->blocksize / BBSIZE_BYTES);
	if (!g->external) {
		uint8_t agblklog = SB_U8(sb, sb_agblklog);
		uint64_t agno = g->sb_logstart >> agblklog;
		uint64_t agbno = g->sb_logstart & ((1ULL << agblklog) - 1);
		uint64_t fsb = agno * SB_BE32(sb, sb_agblocks) + agbno;

		g->log_offset = fsb * g->blocksize;
	}
	sb_to_fs_geometry(sb, g);
}

static int read_superblock(struct xls_source *src, struct xls_error *err)
{
	uint8_t sb[BBSIZE_BYTES];
	const char *why;
	int rc;

	rc = xls_source_read_data(src, 0, sb, sizeof(sb));
	if (rc == -ENODATA)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' is too short to be an XFS filesystem: it ends before "
				     "the 512 bytes of the superblock", src->data_path);
	if (rc)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "cannot read the superblock of '%s' at byte 0: %s",
				     src->data_path, strerror(-rc));
	why = sb_check(sb);
	if (why)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' is not an XFS filesystem (%s at byte 0%s)",
				     src->data_path, why, src->input.md.version ?
				     " of the metadump's data device" : "");
	sb_to_geometry(sb, &src->geo);
	return 0;
}

static int check_log_fits(const struct xls_source *src, struct xls_error *err)
{
	const struct xls_geometry *g = &src->geo;
	uint64_t end = g->log_offset + (uint64_t)g->log_bbs * BBSIZE_BYTES;

	if (g->log_bbs < 64)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s': log of %u blocks is too small to be real",
				     src->path, g->log_bbs);
	if (end > src->log_dev_bytes)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' is truncated: the log ends at byte %llu but the %s has %llu bytes",
				     src->path, (unsigned long long)end,
				     g->external ? "log device" : "image",
				     (unsigned long long)src->log_dev_bytes);
	return 0;
}

/* What a file holds, told by its first bytes. */
struct peeked {
	enum xls_zformat	z;	/* compressed: the rest is of its contents */
	unsigned int		mdver;	/* an xfs_metadump, of this version */
	bool			xfs_sb;	/* block 0 is an XFS superblock */
};

static void peek_bytes(const uint8_t *b, size_t n, struct peeked *pk)
{
	pk->mdver = xls_metadump_magic(b, n);
	pk->xfs_sb = n == BBSIZE_BYTES && !sb_check(b);
}

static int peek_file(int fd, uint64_t size, const char *path, struct peeked *pk,
		     struct xls_error *err)
{
	uint8_t b[BBSIZE_BYTES];
	size_t n = size < sizeof(b) ? (size_t)size : sizeof(b);
	const char *unread;
	int rc = read_fully(fd, 0, b, n);

	memset(pk, 0, sizeof(*pk));
	if (rc)
		return xls_error_set(err, XLS_EXIT_INPUT, "cannot read '%s' at byte 0: %s", path,
				     strerror(rc == -ENODATA ? EIO : -rc));
	unread = xls_zformat_unread(b, n);
	if (unread)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' is %s-compressed, which xfs_logscope does not read: "
				     "decompress it first", path, unread);
	pk->z = xls_zformat_detect(b, n);
	if (!pk->z)
		peek_bytes(b, n, pk);
	return 0;
}

/* A compressed file: what its contents start with. */
static int peek_stream(struct xls_zin *zin, const char *path, struct peeked *pk,
		       struct xls_error *err)
{
	const uint8_t *p;
	ssize_t got = xls_zin_peek(zin, &p, BBSIZE_BYTES, err);

	if (got < 0)
		return -1;
	if (got == 0)
		return xls_error_set(err, XLS_EXIT_INPUT, "'%s' decompresses to nothing", path);
	peek_bytes(p, (size_t)got, pk);
	return 0;
}

/* Start decompressing @fd, the file @path of @size bytes. */
static int open_stream(struct xls_zin *zin, int fd, const char *path, uint64_t size,
		       enum xls_zformat z, const struct xls_source_opts *o,
		       struct peeked *pk, struct xls_error *err)
{
	if (xls_zin_open(zin, fd, path, z, size, o->max_expand, o->report, err))
		return -1;
	return peek_stream(zin, path, pk, err);
}

/* Swap @fd, the compressed file, for the spool its contents went to. */
static int take_spool(struct xls_source *src, struct xls_zin *zin, int *fd,
		      struct xls_error *err)
{
	int spool;

	if (xls_zin_finish(zin, &spool, err))
		return -1;
	src->input.spool_bytes += zin->spool.size;
	close(*fd);
	*fd = spool;
	return 0;
}

#define SPOOL_STEP	(64ull << 20)

/*
 * The decompressed contents of a file as a device (an image, a log):
 * its non-zero sectors in the spool, the zero ones holes of the map.
 */
static int spool_device(struct xls_source *src, struct xls_zin *zin, int *fd,
			struct xls_extmap **mapp, uint64_t *bytes, struct xls_error *err)
{
	struct xls_extmap *m = calloc(1, sizeof(*m));
	int64_t got;

	*mapp = m;
	if (!m)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the map of the decompressed device");
	m->fd = -1;
	do {
		got = xls_zin_extent(zin, m, m->dev_bytes, SPOOL_STEP, false, err);
		if (got < 0)
			return -1;
		m->dev_bytes += (uint64_t)got;
	} while ((uint64_t)got == SPOOL_STEP);
	if (xls_extmap_finish(m))
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the extents of the decompressed device");
	if (take_spool(src, zin, fd, err))
		return -1;
	m->fd = *fd;
	*bytes = m->dev_bytes;
	return 0;
}

static int not_bare(const char *path, const struct peeked *pk, struct xls_error *err)
{
	if (pk->mdver)
		return xls_error_set(err, XLS_EXIT_USAGE,
				     "'%s' is an xfs_metadump, not a bare log: drop -f", path);
	if (pk->xfs_sb)
		return xls_error_set(err, XLS_EXIT_USAGE,
				     "'%s' is a whole XFS filesystem, not a bare log: drop -f", path);
	return 0;
}

static int open_bare_log(struct xls_source *src, const struct xls_source_opts *o,
			 struct xls_error *err)
{
	struct xls_zin zin;
	struct peeked pk;
	int rc = 0;

	if (open_input(o->path, o, &src->log_fd, &src->log_dev_bytes,
		       &src->input.mounted, err))
		return -1;
	src->path = strdup(o->path);
	if (peek_file(src->log_fd, src->log_dev_bytes, o->path, &pk, err))
		return -1;
	if (pk.z) {
		src->input.compression = pk.z;
		rc = open_stream(&zin, src->log_fd, o->path, src->log_dev_bytes, pk.z, o, &pk, err) ||
		     not_bare(o->path, &pk, err) ||
		     spool_device(src, &zin, &src->log_fd, &src->log_map,
				  &src->log_dev_bytes, err) ? -1 : 0;
		xls_zin_close(&zin);
	} else {
		rc = not_bare(o->path, &pk, err);
	}
	if (rc)
		return -1;
	src->geo.log_bbs = (uint32_t)(src->log_dev_bytes / BBSIZE_BYTES);
	src->geo.sect_bbs = 1;
	if (src->log_dev_bytes / BBSIZE_BYTES > UINT32_MAX)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' is too large to be an XFS log", o->path);
	return check_log_fits(src, err);
}

/* The metadump's maps become the devices; a v2 external log's too. */
static int open_metadump(struct xls_source *src, struct xls_zin *zin, uint64_t size,
			 uint64_t *data_bytes, struct xls_error *err)
{
	struct xls_metadump md;

	if (xls_metadump_open(&md, src->data_fd, size, zin, src->data_path, err) ||
	    (zin && take_spool(src, zin, &src->data_fd, err))) {
		xls_metadump_release(&md);
		return -1;
	}
	xls_metadump_set_fd(&md, src->data_fd);
	src->data_map = md.data;
	src->log_map = md.log;
	src->input.md = md.info;
	*data_bytes = md.data_bytes;
	return 0;
}

static int open_compressed_data(struct xls_source *src, const struct xls_source_opts *o,
				enum xls_zformat z, uint64_t *data_bytes,
				struct xls_error *err)
{
	struct xls_zin zin;
	struct peeked pk;
	int rc;

	src->input.compression = z;
	rc = open_stream(&zin, src->data_fd, o->path, *data_bytes, z, o, &pk, err);
	if (!rc && pk.mdver)
		rc = open_metadump(src, &zin, 0, data_bytes, err);
	else if (!rc && !pk.xfs_sb)
		rc = xls_error_set(err, XLS_EXIT_INPUT,
				   "'%s' is %s-compressed, and holds neither an XFS filesystem "
				   "nor an xfs_metadump", o->path, xls_zformat_name(z));
	else if (!rc)
		rc = spool_device(src, &zin, &src->data_fd, &src->data_map, data_bytes, err);
	xls_zin_close(&zin);
	return rc;
}

/* The data device: an image or block device, plain or compressed, or a metadump. */
static int open_data(struct xls_source *src, const struct xls_source_opts *o,
		     uint64_t *data_bytes, struct xls_error *err)
{
	struct peeked pk;
	char type[64];

	if (open_input(o->path, o, &src->data_fd, data_bytes, &src->input.mounted, err))
		return -1;
	src->data_path = strdup(o->path);
	if (!src->data_path)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the path of the data device");
	if (peek_file(src->data_fd, *data_bytes, o->path, &pk, err))
		return -1;
	if (pk.z)
		return open_compressed_data(src, o, pk.z, data_bytes, err);
	if (pk.mdver)
		return open_metadump(src, NULL, *data_bytes, data_bytes, err);
	/*
	 * A sane XFS superblock in block 0 is what libblkid would find (or
	 * call ambiguous, which reads on too); its probe of every known
	 * signature, the end of the device included, cost 5 ms a run.  It
	 * is there to name what holds anything else.
	 */
	if (pk.xfs_sb)
		return 0;
	probe_type(src->data_fd, type, sizeof(type));
	if (type[0] && strcmp(type, "xfs") != 0)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' holds %s, not an XFS filesystem%s", o->path, type,
				     strcmp(type, "xfs_external_log") == 0 ?
				     " (use -f to read a bare log)" : "");
	return 0;
}

/* -l: an external log device or file, plain or compressed. */
static int open_logdev(struct xls_source *src, const struct xls_source_opts *o,
		       struct xls_error *err)
{
	struct xls_zin zin;
	struct peeked pk;
	char type[64];

	if (open_input(o->logdev, o, &src->log_fd, &src->log_dev_bytes,
		       &src->input.mounted, err))
		return -1;
	src->path = strdup(o->logdev);
	if (peek_file(src->log_fd, src->log_dev_bytes, o->logdev, &pk, err))
		return -1;
	if (pk.z) {
		int rc = open_stream(&zin, src->log_fd, o->logdev, src->log_dev_bytes, pk.z, o,
				     &pk, err);

		src->input.log_compression = pk.z;
		if (!rc && !pk.mdver)
			rc = spool_device(src, &zin, &src->log_fd, &src->log_map,
					  &src->log_dev_bytes, err);
		xls_zin_close(&zin);
		if (rc)
			return -1;
	}
	if (pk.mdver)
		return xls_error_set(err, XLS_EXIT_USAGE,
				     "'%s' is an xfs_metadump, not a log device: give it as the "
				     "filesystem, without -l", o->logdev);
	if (pk.z)
		return 0;
	probe_type(src->log_fd, type, sizeof(type));
	if (type[0] && strcmp(type, "xfs_external_log") != 0)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' holds %s, not an XFS external log", o->logdev, type);
	return 0;
}

/* Where the log is: in the data device, in the metadump, or behind -l. */
static int open_log(struct xls_source *src, const struct xls_source_opts *o,
		    uint64_t data_bytes, struct xls_error *err)
{
	const struct xls_metadump_info *md = &src->input.md;

	if (!src->geo.external) {
		if (o->logdev)
			return xls_error_set(err, XLS_EXIT_USAGE,
					     "'%s' has an internal log; -l '%s' makes no sense",
					     o->path, o->logdev);
		if (src->log_map)
			return xls_error_set(err, XLS_EXIT_INPUT,
					     "'%s' is not a valid metadump: it carries an external "
					     "log, but its superblock has an internal one", o->path);
		src->log_fd = src->data_fd;
		src->log_map = src->data_map;
		src->log_dev_bytes = data_bytes;
		src->path = strdup(o->path);
		return 0;
	}
	if (src->log_map) {
		if (o->logdev)
			return xls_error_set(err, XLS_EXIT_USAGE,
					     "'%s' carries its external log; -l '%s' makes no sense",
					     o->path, o->logdev);
		src->log_fd = src->data_fd;
		src->log_dev_bytes = src->log_map->dev_bytes;
		src->path = strdup(o->path);
		return 0;
	}
	if (!o->logdev)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' has an external log%s: give the log device with -l",
				     o->path, md->version == 1 ?
				     ", which a v1 metadump does not carry" :
				     md->version ? ", which this metadump does not carry" : "");
	src->input.md.log_cleared = false;	/* the log is not the metadump's */
	return open_logdev(src, o, err);
}

/* A metadump must carry the log; a part it lacks reads as zeros. */
static int check_log_carried(struct xls_source *src, struct xls_error *err)
{
	const struct xls_geometry *g = &src->geo;
	uint64_t bytes = (uint64_t)g->log_bbs * BBSIZE_BYTES;

	if (!src->log_map || !src->log_map->holes_absent)
		return 0;
	src->input.log_missing = xls_extmap_missing(src->log_map, g->log_offset, bytes);
	if (src->input.log_missing == bytes)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s' is a metadump without the log: none of its %u blocks "
				     "(from byte %llu of the %s device) is in it", src->path,
				     g->log_bbs, (unsigned long long)g->log_offset,
				     g->external ? "log" : "data");
	return 0;
}

static int open_with_superblock(struct xls_source *src,
				const struct xls_source_opts *o,
				struct xls_error *err)
{
	uint64_t data_bytes = 0;

	if (open_data(src, o, &data_bytes, err) || read_superblock(src, err) ||
	    open_log(src, o, data_bytes, err))
		return -1;
	src->geo.data_bytes = data_bytes;
	src->data_dev_bytes = data_bytes;
	if (!src->path)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the path of the log");
	return check_log_fits(src, err) || check_log_carried(src, err) ? -1 : 0;
}

int xls_source_open(struct xls_source *src, const struct xls_source_opts *o,
		    struct xls_error *err)
{
	int rc;

	memset(src, 0, sizeof(*src));
	src->log_fd = -1;
	src->data_fd = -1;
	src->ioerr = calloc(1, sizeof(*src->ioerr));
	if (!src->ioerr)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the record of the first failed read");
	rc = o->bare_log ? open_bare_log(src, o, err) :
			   open_with_superblock(src, o, err);
	if (rc == 0 && !src->path)
		rc = xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the path of the log");
	if (rc)
		xls_source_close(src);
	return rc;
}

void xls_source_close(struct xls_source *src)
{
	if (src->log_map != src->data_map)
		xls_extmap_free(src->log_map);
	xls_extmap_free(src->data_map);
	src->log_map = src->data_map = NULL;
	if (src->log_fd >= 0)
		close(src->log_fd);
	if (src->data_fd >= 0 && src->data_fd != src->log_fd)
		close(src->data_fd);
	free(src->path);
	free(src->data_path);
	free(src->ioerr);
	src->ioerr = NULL;
	src->path = src->data_path = NULL;
	src->log_fd = src->data_fd = -1;
}

bool xls_geo_ino_ok(const struct xls_geometry *g, uint64_t ino)
{
	uint32_t shift = g->ag_block_log + g->inopb_log, align = g->inode_align ? g->inode_align : 1;
	uint64_t agno, agino, eoag, first_bno, last_bno, agfl_bno;

	if (!g->ag_blocks || !g->block_log || !g->ag_count || shift >= 64)
		return false;
	agno = ino >> shift;
	agino = ino & ((1ull << shift) - 1);
	if (agno >= g->ag_count)
		return false;
	eoag = agno == g->ag_count - 1 && g->dblocks > agno * g->ag_blocks ?
	       g->dblocks - agno * g->ag_blocks : g->ag_blocks;
	/* XFS_AGFL_BLOCK: the block of the fourth sector */
	agfl_bno = ((uint64_t)3 * g->data_sect_bbs) >> (g->block_log - 9);
	first_bno = (agfl_bno + 1 + align - 1) / align * align;
	last_bno = eoag / align * align;
	return last_bno > first_bno && agino >= first_bno << g->inopb_log &&
	       agino <= (last_bno << g->inopb_log) - 1;
}
