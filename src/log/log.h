/*
 * Log stage: find head and tail as recovery does (headtail.c), and iterate
 * log records, each validated, CRC-checked and with its cycle-stamped words
 * restored (record.c); log/readahead.h reads them in a second thread.
 */
#ifndef XLS_LOG_H
#define XLS_LOG_H

#include <stdint.h>
#include <stdbool.h>
#include "base/err.h"
#include "source/source.h"

enum xls_crc_state {
	XLS_CRC_OK,		/* stored CRC matches */
	XLS_CRC_OK_I386,	/* matches only over the 324-byte i386 header */
	XLS_CRC_ZERO,		/* stored CRC is 0: accepted, as mkfs writes 0 */
	XLS_CRC_BAD,		/* mismatch */
};

/* One log record, header in host order, payload restored. */
struct xls_rec {
	uint32_t	blk;		/* physical block of the header */
	uint32_t	hblks;		/* header blocks, extended headers included */
	uint32_t	data_blks;	/* payload blocks: BTOBB(h_len) */
	uint32_t	h_magicno;
	uint32_t	h_cycle;
	uint32_t	h_version;
	uint32_t	h_len;
	uint64_t	h_lsn;
	uint64_t	h_tail_lsn;
	uint32_t	h_crc;		/* as stored (little-endian on disk) */
	uint32_t	h_prev_block;
	uint32_t	h_num_logops;
	uint32_t	h_fmt;
	uint8_t		h_fs_uuid[16];
	uint32_t	h_size;		/* as stored */
	uint32_t	crc_calc;	/* what the kernel computes */
	enum xls_crc_state crc;
	bool		wrapped;	/* crosses the physical end of the log */
	bool		uuid_mismatch;	/* h_fs_uuid differs from the superblock's */
	uint32_t	bad_stamps;	/* payload blocks with an unexpected cycle */
	uint32_t	first_bad_stamp; /* index of the first such block */
	/*
	 * Loaded but not yet checked: crc, crc_calc and the stamp counts
	 * unset and the payload still cycle-stamped, until
	 * xls_rec_finish().  Only an iterator with defer_check set returns
	 * such a record.
	 */
	bool		packed;
	const uint8_t	*data;		/* h_len bytes; valid until the next call */
};

enum xls_log_state {
	XLS_LOG_CLEAN,		/* unmount record at the head */
	XLS_LOG_DIRTY,
	XLS_LOG_ZEROED,		/* totally zeroed: no record at all */
};

struct xls_head_tail {
	enum xls_log_state state;
	uint32_t	head_blk;	/* where the next record would go */
	uint32_t	tail_blk;
	uint32_t	head_cycle;	/* cycle of the last record */
	/*
	 * The LSN the next record would get, as xlog_find_tail leaves
	 * l_curr_cycle and l_curr_block: the head block, in the cycle after
	 * the last record's when that record wrapped past the physical end;
	 * 1/0 for a totally zeroed log.  Metadata must not be ahead of it.
	 */
	uint32_t	curr_cycle;
	uint32_t	curr_block;
	/* the last record's h_fs_uuid, and whether it carries a CRC */
	uint8_t		log_uuid[16];
	bool		log_has_crc;
	/*
	 * h_fs_uuid is neither null nor the superblock's sb_uuid: the log of
	 * another filesystem, which xlog_header_check_mount refuses while
	 * looking for the head ("log has mismatched uuid - can't recover").
	 */
	bool		foreign_uuid;
	uint32_t	last_rec_blk;	/* header block of the last record */
	uint64_t	last_lsn;	/* its h_lsn */
	uint64_t	tail_lsn;	/* its h_tail_lsn */
	uint32_t	last_fmt;	/* its h_fmt: the byte order of the CPU that wrote it */
	uint32_t	found_head_blk;	/* head before torn-write trimming */
	uint32_t	found_tail_blk;	/* tail before overwrite detection */
	bool		torn;		/* head trimmed: bad CRC near the head */
	bool		tail_moved;	/* tail moved past corrupt records */
};

#define XLS_WIN_BLKS	8192u		/* read-ahead window: 4 MiB */
#define XLS_WIN_SPARES	4u		/* windows kept for the next walk */
#define XLS_MAX_HBLKS	8u		/* 256 KiB record / 32 KiB per header */
#define XLS_MAX_REC_BLKS (XLS_MAX_HBLKS + (XLOG_MAX_RECORD_BSIZE / 512u))

/* Whether scans read records in a second thread (log/readahead.h). */
enum xls_read_ahead {
	XLS_READ_AHEAD_OFF,
	XLS_READ_AHEAD_AUTO,	/* when the walk is long enough to pay */
	XLS_READ_AHEAD_ON,
};

struct xls_log {
	const struct xls_source	*src;
	uint32_t		nblks;		/* log size in basic blocks */
	bool			logv2;
	enum xls_read_ahead	read_ahead;	/* for scans; OFF after init */
	uint8_t			*win_buf;	/* XLS_WIN_BLKS blocks, or the log's if fewer */
	uint8_t			*win;		/* the window: win_buf, or read-ahead's */
	uint32_t		win_start;	/* first physical block in win */
	uint32_t		win_n;		/* valid blocks in win */
	uint8_t			*scratch;	/* a record that wraps, contiguous */
	/*
	 * Read-ahead windows given back at the end of a walk: recovery walks
	 * the log twice, and fresh windows cost their page faults and the
	 * kernel's zeroing of every page again.
	 */
	uint8_t			*spare_win[XLS_WIN_SPARES];
	uint32_t		nspare_win;
	/*
	 * One bit per log block: set on the header block of a record whose
	 * CRC matched in an earlier pass (head and tail verification runs
	 * the kernel's CRC pass over tail..head), so later passes over the
	 * same, unchanged records need not checksum them again.
	 */
	uint64_t		*crc_ok;
	/*
	 * A record's CRC matched only over the 324-byte header an i386
	 * kernel checksums: the log's writer was one, and the records the
	 * tool writes into it (replay's unmount record) are checksummed so.
	 */
	bool			crc_i386;
	/*
	 * Set while a read-ahead thread runs the iteration: each new window
	 * is read into the buffer this returns (a window no record the
	 * caller may still hold lies in), NULL when the thread must stop.
	 */
	uint8_t			*(*window_hook)(void *ctx);
	void			*window_ctx;
};

/* Allocate buffers for reading the log of @src.  Returns 0 or -1 (@err set). */
int xls_log_init(struct xls_log *log, const struct xls_source *src,
		 struct xls_error *err);
void xls_log_release(struct xls_log *log);

/*
 * xfs_log_check_lsn: whether metadata stamped with @lsn is ahead of the
 * log's current LSN, which v5 verifiers refuse ("Metadata has LSN ahead of
 * current LSN").  NULLCOMMITLSN never is.
 */
bool xls_log_lsn_ahead(const struct xls_head_tail *ht, uint64_t lsn);

/* Why the kernel refuses to mount before replaying anything, in its order. */
enum xls_log_refusal {
	XLS_REFUSE_NONE,
	XLS_REFUSE_SB_GEOMETRY,	/* xfs_readsb: xfs_validate_sb_common */
	XLS_REFUSE_DEVICE_SIZE,	/* xfs_check_sizes: the last sector must read */
	XLS_REFUSE_LOG_UUID,	/* xlog_header_check_mount: another filesystem's log */
	XLS_REFUSE_SB_LSN,	/* v5, xlog_recover: the superblock's LSN ahead of the log */
};

/*
 * Why the kernel would refuse this filesystem or its log before replaying
 * anything, as one sentence in @buf, or XLS_REFUSE_NONE.
 */
enum xls_log_refusal xls_log_refusal(const struct xls_head_tail *ht,
				     const struct xls_geometry *g, char *buf, size_t size);

/* The finding kind of @r; XLS_FIND_NONE for none. */
enum xls_finding_kind xls_log_refusal_finding(enum xls_log_refusal r);

/*
 * Find head and tail as xlog_find_tail() does: cycle search, partial
 * record back-up, unmount record check, torn-write trimming of the head
 * (CRC of the last XLOG_MAX_ICLOGS records) and tail overwrite detection.
 * Returns 0, or -1 with @err set when the log has no usable record.
 */
int xls_log_find_head_tail(struct xls_log *log, struct xls_head_tail *ht,
			   struct xls_error *err);

enum xls_iter_mode {
	XLS_ITER_LSN,		/* tail to head, following record lengths */
	XLS_ITER_PHYSICAL,	/* every record header in block order */
	/*
	 * Head to tail: the records before the tail that the log still
	 * holds, oldest first.  Only a record that continues the sequence
	 * of cycles is returned (the cycle before the head's from the head
	 * to the physical end, the head's after it, h_lsn at its place);
	 * blocks the kernel cleared past the head and blocks that hold no
	 * such record are gaps.
	 */
	XLS_ITER_STALE,
};

enum xls_iter_result {
	XLS_ITER_END = 0,
	XLS_ITER_RECORD = 1,	/* *rec filled */
	XLS_ITER_GAP = 2,	/* blocks skipped: gap_blk, gap_blks, gap_why */
};

struct xls_rec_iter {
	struct xls_log		*log;
	enum xls_iter_mode	mode;
	uint32_t		next_blk;
	uint32_t		end_blk;	/* LSN mode: the head */
	uint64_t		walked;		/* blocks consumed, bounds every walk */
	bool			done;
	uint32_t		gap_blk;
	uint32_t		gap_blks;
	const char		*gap_why;
	/* leave the CRC and the cycle unpack to xls_rec_finish() */
	bool			defer_check;
	/* XLS_ITER_STALE: the cycle of the blocks before the head */
	uint32_t		stale_cycle;
	uint32_t		stale_head;
};

/* Iterate records in [@from, @to) (LSN mode), or the whole log (physical). */
void xls_rec_iter_init(struct xls_rec_iter *it, struct xls_log *log,
		       enum xls_iter_mode mode, uint32_t from, uint32_t to);

/*
 * Iterate the records before the tail of the log found as @ht, from its
 * head around to its tail (the whole log when they meet): XLS_ITER_STALE.
 */
void xls_rec_iter_init_stale(struct xls_rec_iter *it, struct xls_log *log,
			     const struct xls_head_tail *ht);

/* Blocks a stale walk of the log found as @ht covers. */
uint32_t xls_log_stale_blks(const struct xls_log *log, const struct xls_head_tail *ht);

/*
 * Next record.  Returns an enum xls_iter_result, or -1 with @err set on a
 * read error.  A header that fails validation is reported as a gap and the
 * walk resynchronises on the next valid header; it never loops.
 */
int xls_rec_iter_next(struct xls_rec_iter *it, struct xls_rec *rec,
		      struct xls_error *err);

/*
 * Check the CRC of a record returned packed and restore its cycle-stamped
 * words; nothing when it is not packed.  Another thread than the one
 * iterating may do this, while the record's window is held.
 */
void xls_rec_finish(struct xls_log *log, struct xls_rec *rec);

/* "little-endian", "big-endian" or "unknown": the CPU that wrote a record of @h_fmt. */
const char *xls_log_byte_order(uint32_t h_fmt);

/* Blocks @blk.. (@nblks of 512 bytes, physical in the log) written from @buf. */
typedef int (*xls_log_put_fn)(void *ctx, uint32_t blk, const uint8_t *buf, uint32_t nblks);

/*
 * The log as the kernel leaves it when it has recovered the log found as
 * @ht and unmounted, in two writes through @put (its first non-zero return
 * ends them and is returned), the second the one that makes the log clean:
 * first the blocks past the head's unmount record that a crash could have
 * left in the current cycle, stamped with the cycle before, up to the old
 * tail (xlog_clear_stale_blocks); then the unmount record at the head (of
 * transaction @tid, its payload in the byte order @h_fmt,
 * XLOG_FMT_LINUX_LE or _BE).  Until that record is whole the log is as
 * found, its records intact.
 */
int xls_log_write_stale(const struct xls_log *log, const struct xls_head_tail *ht,
			uint32_t h_fmt, xls_log_put_fn put, void *ctx);
int xls_log_write_unmount(const struct xls_log *log, const struct xls_head_tail *ht,
			  uint32_t h_fmt, uint32_t tid, xls_log_put_fn put, void *ctx);

/*
 * Blocks past the head @ht found that a crash could have left written in
 * its cycle (xlog_clear_stale_blocks): 8 iclogs of the largest, never
 * into the tail.  _ahead stamps them all with the cycle before, the head
 * itself included, as the kernel's mount does before it writes the log.
 */
uint32_t xls_log_stale_reach(const struct xls_log *log, const struct xls_head_tail *ht);
int xls_log_write_stale_ahead(const struct xls_log *log, const struct xls_head_tail *ht,
			      uint32_t h_fmt, xls_log_put_fn put, void *ctx);

/*
 * Where the kernel's unmount comes later than the head @ht found -- after
 * the pass-3 checkpoints, whose last starts at @lsn -- the blocks between
 * as records of no op in their cycle (*@prev_blk: the last one's header),
 * so that the head is found past them; the unmount record and the stale
 * blocks then go at @lsn (an @ht moved there).
 */
int xls_log_write_pad(const struct xls_log *log, const struct xls_head_tail *ht, uint64_t lsn,
		      uint32_t h_fmt, uint64_t tail_lsn, uint32_t *prev_blk, xls_log_put_fn put,
		      void *ctx);

/*
 * Transactions written into the log as the kernel's CIL writes a
 * checkpoint (log/format.c): from the head @ht found, each op whole in one
 * record of at most an iclog, records chained (h_prev_block), carrying
 * the tail @ht found.  With no put function, the blocks are counted and
 * nothing is written.
 */
struct xls_log_writer {
	const struct xls_log *log;
	uint32_t	h_fmt;
	xls_log_put_fn	put;
	void		*ctx;
	uint32_t	cycle, blk;	/* where the next record goes */
	uint32_t	prev_blk;	/* the last record's header */
	uint64_t	last_lsn;	/* ... its LSN */
	uint64_t	tail_lsn;
	uint64_t	blocks;		/* blocks written */
	uint8_t		*rec;		/* the record being filled */
	uint32_t	room;		/* payload an iclog holds */
	uint32_t	used, nops;
};

int xls_log_writer_init(struct xls_log_writer *w, const struct xls_log *log,
			const struct xls_head_tail *ht, uint32_t h_fmt, xls_log_put_fn put,
			void *ctx);
void xls_log_writer_release(struct xls_log_writer *w);

/* Header blocks of each record. */
uint32_t xls_log_writer_hblks(const struct xls_log_writer *w);

/* One op of transaction @tid: @flags (XLOG_START_TRANS...), @len bytes. 0, or -1. */
int xls_log_writer_op(struct xls_log_writer *w, uint32_t tid, uint8_t flags,
		      const void *payload, uint32_t len);

/* The record being filled written. 0, or -1 (put's error, or a bad stripe unit). */
int xls_log_writer_flush(struct xls_log_writer *w);

/* @tid's commit record, and the record it is in written. 0, or -1. */
int xls_log_writer_commit(struct xls_log_writer *w, uint32_t tid);

/* Records of no op from the writer's place to @lsn. 0, or -1 (@lsn out of its reach). */
int xls_log_writer_pad_to(struct xls_log_writer *w, uint64_t lsn);

/*
 * xlog_cksum(): the CRC of a record, header @hdr (@hblks blocks, h_crc
 * taken as zero) and @h_len bytes of payload @data as written (cycle
 * stamped), as h_crc stores it.
 */
uint32_t xls_rec_crc(const uint8_t *hdr, const uint8_t *data, uint32_t h_len, uint32_t hblks,
		     bool logv2);
/* ... over the 324-byte header of an i386 kernel when @i386. */
uint32_t xls_rec_crc_as(const uint8_t *hdr, const uint8_t *data, uint32_t h_len, uint32_t hblks,
			bool logv2, bool i386);

/*
 * Check a record header block; NULL when valid, else the reason.
 * @h_size_out gets the record buffer size to use (h_size, or the mkfs
 * workaround value).
 */
const char *xls_rec_header_check(const uint8_t *hdr, uint32_t blk,
				 uint32_t nblks, bool logv2, uint32_t log_sunit,
				 uint32_t *h_size_out);

/*
 * A window for a read-ahead walk of @log: a spare one when there is one,
 * else a new one; NULL if out of memory.  xls_log_window_put() gives it
 * back (kept for the next walk, or freed), and xls_log_release() frees
 * the spares.
 */
uint8_t *xls_log_window_get(struct xls_log *log);
void xls_log_window_put(struct xls_log *log, uint8_t *win);

/* Free the spare windows: no walk is to follow, and their memory can go. */
void xls_log_window_trim(struct xls_log *log);

/* Blocks between two physical blocks going forward around the log. */
static inline uint32_t xls_log_distance(const struct xls_log *log,
					uint32_t from, uint32_t to)
{
	return to >= from ? to - from : log->nblks - from + to;
}

#endif /* XLS_LOG_H */
