/*
 * Replay stage: the filesystem as kernel log recovery leaves it, written
 * into a copy of the data device (and of an external log), or into the
 * device itself.  Every item recovery replays goes into its buffer as it
 * is decided, in recovery's order, the buffer held as the kernel's buffer
 * cache holds it; each buffer is written when the kernel's write-back
 * writes it, with what its write verifier stamps (LSN, CRC) -- never half
 * stamped, so that an interruption leaves blocks recovery can read again
 * -- and the inode clusters at the end of each write-back; with --force, a multi-extent directory block whose first segment
 * the kernel's verifier refuses (a limit of its recovery, not damage) is
 * written whole, its CRC over the block its segments make; at the end,
 * with nothing left for the kernel to finish, the
 * superblock's summary counters as a mount recomputes them and a clean
 * log, as an unmount leaves it.
 *
 * Memory: the buffers one write-back writes (the kernel holds them too),
 * XLS_REPLAY_HELD_MEM of them in memory and the rest in a temporary file.
 */
#ifndef XLS_REPLAY_WRITE_H
#define XLS_REPLAY_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include "base/bigmem.h"
#include "base/err.h"
#include "base/hashmap.h"
#include "base/slotfile.h"
#include "base/ondisk.h"
#include "log/log.h"
#include "recover/recover.h"
#include "source/source.h"

/*
 * A directory block on discontiguous extents (a compound), as its logged
 * segments place it: where each lies in the block and on the disk.
 */
#define XLS_COMPOUND_PIECES	(XFS_MAX_BLOCKSIZE / BBSIZE)
struct xls_replay_compound {
	int64_t		first;		/* daddr of the segment with the header */
	uint32_t	bytes;		/* the whole block */
	uint32_t	npieces;
	struct {
		uint32_t	offset;	/* in the block */
		int64_t		blkno;
		uint32_t	len;	/* 512-byte blocks */
	} piece[XLS_COMPOUND_PIECES];
};

/* How many of the buffers whose write verifier fails are named. */
#define XLS_REPLAY_FAILED_KEPT	8

/* What a replay wrote, by kind. */
struct xls_replay_counts {
	uint64_t	buffers;	/* buffer items replayed */
	uint64_t	inodes;		/* inode items replayed */
	uint64_t	clusters;	/* inode clusters an icreate initialised */
	uint64_t	stamped;	/* buffers written back with their verifier's stamp */
	uint64_t	failed;		/* buffers whose write verifier fails, left as on disk */
	uint64_t	assembled;	/* ... written with --force, their block whole */
	uint64_t	not_written;	/* buffers the kernel writes no more after a failure */
	uint64_t	inode_errors;	/* inode items that could not be applied */
	uint64_t	dquots;		/* dquot items replayed */
	uint64_t	bytes;		/* bytes written into the copy */
	uint64_t	held_max;	/* most bytes of buffers held at once */
	uint64_t	held_out;	/* bytes of held images sent out of memory */
};

/* A buffer replayed into, waiting for its write-back. */
struct xls_replay_held {
	int64_t		blkno;
	uint32_t	len;		/* 512-byte blocks */
	uint8_t		*img;		/* len * 512 bytes, in the arena; NULL: out */
	uint64_t	out_off;	/* where it is in the file when out of memory */
};

/*
 * The bytes of held images kept in memory; past it, the images least
 * recently handed over wait in a temporary file.  A checkpoint of 200,000
 * new inodes dirties 70 MiB of inode clusters, all held to its write-back.
 */
/* -DXLS_REPLAY_HELD_MEM=... in CFLAGS: a build that spills all the time, to test it */
#ifndef XLS_REPLAY_HELD_MEM
#define XLS_REPLAY_HELD_MEM	(16ull << 20)
#endif

struct xls_replay_write {
	const struct xls_source	*src;
	int			fd;		/* the copy of the data device */
	const char		*path;		/* its name, for errors */
	int			log_fd;		/* the log's copy: fd, or an external one */
	const char		*log_path;
	uint64_t		log_base;	/* byte offset of the log in it */
	/* with --force: write what the kernel would not, past a failure */
	bool			force;
	/* writing the input itself (--in-place): its errors are the input's (exit 3) */
	bool			in_place;
	uint8_t			*buf;		/* one buffer, XFS_MAX_BLOCKSIZE bytes */
	/* the buffers replayed into since the last write-back: (blkno, len) -> held[] */
	struct xls_hashmap	held_idx;
	struct xls_replay_held	*held;
	uint32_t		nheld, capheld;
	uint64_t		held_bytes;
	uint64_t		held_mem;	/* of them in memory */
	uint32_t		hand;		/* the next held[] to send out, a clock's */
	struct xls_arena	images;
	struct xls_slotfile	out;		/* the held images out of memory */
	struct xls_replay_counts count;
	/* the buffers whose write verifier fails (kept as on disk): first ones */
	struct xls_rbufid	failed[XLS_REPLAY_FAILED_KEPT];
	/* the compounds the log places, by the daddr of their first segment */
	struct xls_hashmap	compound_idx;
	struct xls_replay_compound *compounds;
	uint32_t		ncompounds, capcompounds;
	/* the compound the transaction at hand is placing; kept once whole */
	struct xls_replay_compound placing;
	bool			placing_on;
	uint32_t		cur_tid, cur_id;
	/* the geometry of the superblock recovery left, once checked */
	struct xls_replay_sbgeo {
		uint32_t	blocksize, sectsize, agblocks, agcount;
		uint64_t	dblocks;
	}			sbgeo;
	bool			sbgeo_ok;
	/*
	 * ... and it says more blocks than the device holds (a growfs whose
	 * device shrank): the kernel's mount fails after recovery, reading the
	 * first AG header past the end (of AG sb_past_ag), and cleans the log
	 * on its way out.
	 */
	bool			sb_past_device;
	uint32_t		sb_past_ag;
	/* the mount has no quota: the superblock's quota flags reset */
	bool			quota_reset;
	struct xls_error	*err;		/* set with the first I/O error */
};

/*
 * A writer into @fd (@path), the copy of @src's data device, whose log is
 * at byte @log_base of @log_fd (@log_fd == @fd for an internal log).
 * Errors go to @err.  -1 when out of memory.
 */
int xls_replay_write_init(struct xls_replay_write *w, const struct xls_source *src, int fd,
			  const char *path, int log_fd, const char *log_path, uint64_t log_base,
			  struct xls_error *err);
void xls_replay_write_release(struct xls_replay_write *w);

/* A recovery sink's item callback: the item written into its block if replayed. */
int xls_replay_write_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri);

/* A recovery sink's write callback: the buffer stamped as its verifier does, written. */
int xls_replay_write_back(void *ctx, const struct xls_rwrite *wr);

/* A recovery sink's flushed callback: what the write-back left held (inode clusters). */
int xls_replay_write_flushed(void *ctx);

/*
 * The superblock recovery left, as the kernel reads it back when recovery
 * is done (xlog_do_recover, xfs_sb_buf_ops): its geometry checked as
 * xfs_validate_sb_common checks it.  -1 (exit 1, the reason named) when
 * the kernel's mount fails there, the log still dirty.  A filesystem
 * larger than its device passes, sb_past_device set.  The two calls below
 * need it to have succeeded.
 */
int xls_replay_write_check_sb(struct xls_replay_write *w);

/*
 * The superblock as the kernel's unmount writes it after a recovery that
 * left nothing to finish: with lazy counters, icount, ifree and fdblocks
 * summed from the AG headers (xfs_initialize_perag_data at mount), and on
 * v5 its quota inodes as the kernel reads them (0 is none).  Nothing for
 * a filesystem whose log carries its counters.  Past the device
 * (sb_past_device) the sum fails, and the counters stay as recovered.
 */
int xls_replay_write_superblock(struct xls_replay_write *w);

/* @len bytes at byte @off of the data device('s copy), read or written whole. 0, or -1. */
int xls_replay_read_data(struct xls_replay_write *w, uint64_t off, uint8_t *buf, size_t len);
int xls_replay_write_data(struct xls_replay_write *w, uint64_t off, const uint8_t *buf,
			  size_t len);

/* The log's blocks written (an xls_log_put_fn, its context @w). */
int xls_replay_write_put_log(void *ctx, uint32_t blk, const uint8_t *buf, uint32_t nblks);

/* What was written, durable: fdatasync of the data device's copy and the log's. */
int xls_replay_write_sync(struct xls_replay_write *w);

/*
 * The log as a clean unmount after recovery leaves it (log/clean.c), the
 * unmount record written last and every write durable before the next:
 * the kernel then mounts the copy without recovery, and an interruption
 * leaves the log as found.  @found: the log as found.  @unmount_lsn, when
 * not 0 and past the head found: the LSN of pass 3's last checkpoint,
 * where the unmount record goes, the blocks before it records of no op.
 */
int xls_replay_write_clean_log(struct xls_replay_write *w, const struct xls_log *log,
			       const struct xls_head_tail *found, uint64_t unmount_lsn);

#endif /* XLS_REPLAY_WRITE_H */
