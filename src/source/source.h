/*
 * Source stage: open the filesystem image, block device, external log,
 * bare log or xfs_metadump (each plain or gzip-, xz- or zstd-compressed)
 * read-only, read the superblock, and describe where the log is.  Later
 * stages read the log and the data device through it alone, and need not
 * know which kind of input it was.
 */
#ifndef XLS_SOURCE_H
#define XLS_SOURCE_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "base/finding.h"
#include "source/decompress.h"
#include "source/extmap.h"
#include "source/metadump.h"

struct xls_source_opts {
	const char	*path;		/* data device or image (or bare log with bare_log) */
	const char	*logdev;	/* external log device or file, or NULL */
	bool		bare_log;	/* -f: @path is the log itself, no superblock */
	bool		force;		/* read a mounted device anyway */
	/* the command takes --force for a mounted device: its refusal says so */
	bool		force_reads_mounted;
	uint64_t	max_expand;	/* most bytes a compressed input may hold; 0: no limit */
	/* progress of decompressing: bytes of the compressed file read; or NULL */
	const struct xls_report_sink *report;
};

struct xls_geometry {
	uint64_t	log_offset;	/* byte offset of the log in the log input */
	uint32_t	log_bbs;	/* length of the log in 512-byte blocks */
	uint32_t	sect_bbs;	/* log sector size in 512-byte blocks */
	uint32_t	log_sunit;	/* log stripe unit in bytes (0: none) */
	bool		logv2;		/* v2 log (large records, stripe unit) */
	bool		crc;		/* v5 filesystem: CRC mismatches are fatal */
	bool		external;	/* log on its own device */
	bool		has_sb;		/* false for a bare log */
	/* what the kernel's superblock check refuses, or NULL */
	const char	*sb_refused;
	uint32_t	blocksize;	/* fs block size, 0 without a superblock */
	uint32_t	sb_versionnum;
	uint64_t	sb_logstart;	/* fsblock of an internal log */
	uint32_t	sb_logblocks;
	uint8_t		uuid[16];	/* sb_uuid: what log records must carry */
	uint8_t		meta_uuid[16];	/* sb_meta_uuid (== uuid unless changed) */
	uint32_t	log_incompat;	/* sb_features_log_incompat */
	uint64_t	sb_lsn;		/* v5: the superblock's LSN, else 0 */
	/*
	 * What recovery needs of the filesystem; 0 when the superblock's
	 * value fails its sanity check (the feature then goes unmodelled).
	 */
	uint32_t	block_log;	/* sb_blocklog */
	uint32_t	ag_blocks;	/* sb_agblocks */
	uint32_t	ag_count;	/* sb_agcount */
	uint32_t	ag_block_log;	/* sb_agblklog */
	uint32_t	inode_size;	/* sb_inodesize */
	uint32_t	inode_log;	/* sb_inodelog */
	uint32_t	inopb_log;	/* sb_inopblog */
	/* inode chunks' alignment in blocks: sb_inoalignmt where ALIGNBIT says, else 1 */
	uint32_t	inode_align;
	uint32_t	dir_block_size;	/* blocksize << sb_dirblklog */
	uint32_t	inode_cluster_blocks;	/* xfs_ialloc_setup_geometry() */
	bool		has_meta_uuid;	/* XFS_SB_FEAT_INCOMPAT_META_UUID */
	bool		has_rtgroups;	/* XFS_SB_FEAT_INCOMPAT_METADIR */
	/* what names need: directory entries carry a file type byte */
	bool		has_ftype;	/* XFS_SB_FEAT_INCOMPAT_FTYPE, VERSION2_FTYPE */
	bool		has_parent;	/* XFS_SB_FEAT_INCOMPAT_PARENT (Linux 6.10) */
	uint16_t	sb_qflags;	/* as on disk (v4: the "other" quota flags) */
	/* refcount btrees: a crash can leave CoW staging extents in them */
	bool		has_reflink;	/* XFS_SB_FEAT_RO_COMPAT_REFLINK */
	uint64_t	root_ino;	/* sb_rootino */
	uint32_t	data_sect_bbs;	/* sb_sectsize in 512-byte blocks: AG headers */
	uint64_t	dblocks;	/* sb_dblocks */
	/*
	 * Bytes the data device holds (a metadump: as xfs_mdrestore makes
	 * it); 0 when unknown.  Shorter than dblocks: the kernel refuses it.
	 */
	uint64_t	data_bytes;
};

/* What the input was, besides the devices it stands for (info reports it). */
struct xls_input {
	enum xls_zformat	compression;	/* of the data device (or bare log) file */
	enum xls_zformat	log_compression; /* of the -l file */
	uint64_t		spool_bytes;	/* written to the temporary file */
	struct xls_metadump_info md;		/* version 0: not a metadump */
	uint64_t		log_missing;	/* log bytes the metadump does not carry */
	bool			mounted;	/* read with --force though mounted */
};

/*
 * A device is read in place from its descriptor, or, when its map is set,
 * through the map (a metadump, or a decompressed input in the spool): the
 * descriptor is then the file the map points into.  Read only through
 * xls_source_read*().
 */
struct xls_source {
	char			*path;		/* what the log is read from */
	char			*data_path;	/* the data device, NULL for a bare log */
	int			log_fd;
	int			data_fd;	/* == log_fd for an internal log; -1 if none */
	struct xls_extmap	*log_map;	/* NULL: read log_fd in place */
	struct xls_extmap	*data_map;	/* == log_map for an internal log */
	uint64_t		log_dev_bytes;	/* size of the log input */
	uint64_t		data_dev_bytes;	/* size of the data device input, when opened */
	struct xls_geometry	geo;
	struct xls_input	input;
	/* the first failed read (mutable behind a const source: stages read through it) */
	struct xls_source_ioerr	*ioerr;
};

/* Open and probe per @o; on failure sets @err, leaves @src closed, returns -1. */
int xls_source_open(struct xls_source *src, const struct xls_source_opts *o,
		    struct xls_error *err);

/*
 * Read @len bytes at byte @off of the log (not of the device) into @buf.
 * Returns 0, or -errno (-ENODATA past the end of the input).  Never
 * writes the input.  A failure is also kept (xls_source_io_error).
 */
int xls_source_read(const struct xls_source *src, uint64_t off, void *buf,
		    size_t len);

/*
 * Read @len bytes at absolute byte @off of the data device.  A block a
 * metadump does not carry reads as zeros, as xfs_mdrestore leaves it.
 * -ENODEV without a data device; any other failure is kept, as above.
 */
int xls_source_read_data(const struct xls_source *src, uint64_t off, void *buf,
			 size_t len);

/* Is there a data device to read (not a bare log)? */
bool xls_source_has_data(const struct xls_source *src);

/*
 * How many bytes of [@off, @off + @len) of the data device the input does
 * not carry: blocks absent from a metadump.  0 for any other input.
 */
uint64_t xls_source_data_missing(const struct xls_source *src, uint64_t off, uint64_t len);

/*
 * The first read of the input that failed since it was opened: an I/O
 * error, or the input ending before the bytes a stage needed.  What was
 * made of that read is wrong, so the command must fail with it.
 */
struct xls_source_ioerr {
	int		err;		/* errno; 0: none */
	uint64_t	off;		/* byte of the file */
	bool		log;		/* in the log input, not the data device */
};
const struct xls_source_ioerr *xls_source_io_error(const struct xls_source *src);

/* "cannot read 'FILE' at byte N: ERROR" of @e into @buf. */
void xls_source_io_error_str(const struct xls_source *src, const struct xls_source_ioerr *e,
			     char *buf, size_t size);

/*
 * What the geometry checks of xfs_validate_sb_common refuse in the
 * superblock @sb (its first 512 bytes, as on disk), or NULL: the kernel
 * will not mount it (at mount, "SB validate failed"; read back after
 * recovery, a failed mount with the log dirty).
 */
const char *xls_sb_geometry_refused(const uint8_t *sb);

/*
 * The first AG of superblock @sb (sound: xls_sb_geometry_refused NULL)
 * whose headers (AGF, then AGI) lie past @dev_bytes, as the mount's
 * xfs_initialize_perag_data reads them in order; UINT32_MAX when all fit.
 */
uint32_t xls_sb_first_ag_past(const uint8_t *sb, uint64_t dev_bytes);

/*
 * xfs_verify_ino: inode number @ino names an AG of the filesystem and an
 * inode between the first and the last one its chunks can hold there
 * (xfs_agino_range: after the AGFL, in whole aligned chunks).
 */
bool xls_geo_ino_ok(const struct xls_geometry *g, uint64_t ino);

/* The filesystem's size by its superblock: sb_dblocks blocks. */
static inline uint64_t xls_geo_fs_bytes(const struct xls_geometry *g)
{
	return g->dblocks * g->blocksize;
}

/* The data device's size: what it holds, or the superblock's size when unknown. */
static inline uint64_t xls_geo_device_bytes(const struct xls_geometry *g)
{
	return g->data_bytes ? g->data_bytes : xls_geo_fs_bytes(g);
}

/* Close and free; safe on a zeroed or already closed source. */
void xls_source_close(struct xls_source *src);

#endif /* XLS_SOURCE_H */
