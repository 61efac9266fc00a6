/*
 * Recovery stage: what kernel log recovery would do with the journal,
 * buffer by buffer, without writing anything.
 *
 * Two scans of the log, as xlog_do_log_recovery() makes two passes: pass 1
 * builds the reference-counted table of cancelled buffers
 * (xlog_recover_buf_commit_pass1), pass 2 takes every committed
 * transaction at its commit record, puts its items in the order
 * xlog_recover_reorder_trans() gives them and decides each buffer item as
 * xlog_recover_buf_commit_pass2() would: cancelled, skipped because the
 * block on the data device carries a newer LSN (xlog_recover_get_buf_lsn),
 * or replayed, and why.  The first 512 bytes of every buffer recovery
 * touches are simulated through the run (replayed regions, the LSN the
 * write verifier stamps when the LSN changes), so a later transaction sees
 * what the kernel's would.
 *
 * Memory is bounded by the transactions open at once and by the number of
 * distinct buffers and pending intents, never by the length of the log.
 */
#ifndef XLS_RECOVER_H
#define XLS_RECOVER_H

#include <stdbool.h>
#include <stdint.h>
#include "base/err.h"
#include "base/finding.h"
#include "base/vec.h"
#include "items/item.h"
#include "log/log.h"
#include "items/region.h"
#include "trans/scan.h"
#include "source/source.h"
#include "trans/trans.h"

/* Room for a sentence saying why recovery fails. */
#define XLS_RECOVER_WHY	384

/* The four lists of xlog_recover_reorder_trans(), in replay order. */
enum xls_rlist {
	XLS_RL_BUFFER,		/* buffers, in log order */
	XLS_RL_ITEM,		/* every other item, in log order */
	XLS_RL_INODE_BUF,	/* XFS_BLF_INODE_BUF buffers, last logged first */
	XLS_RL_CANCEL,		/* XFS_BLF_CANCEL buffers, last logged first */
};

/* Why recovery replays a buffer without comparing LSNs. */
enum xls_rreason {
	XLS_RR_V4,		/* v4 filesystem: no LSN on disk */
	XLS_RR_INODE_BUF,	/* each inode has its own LSN */
	XLS_RR_DQUOT_BUF,	/* each dquot has its own LSN */
	XLS_RR_ATTR_RMT,	/* remote attribute block, written synchronously */
	XLS_RR_UNKNOWN_MAGIC,
	XLS_RR_FOREIGN_UUID,
	XLS_RR_RT_NO_HEADER,	/* rt bitmap or summary without rtgroups */
	XLS_RR_LSN_NULL,	/* the block's LSN is -1 */
	XLS_RR_UNREAD,		/* no data device, or the block cannot be read */
	XLS_RR_COUNT
};

enum xls_rdecision {
	XLS_RD_NONE,		/* nothing to decide (intents, done items...) */
	XLS_RD_REPLAY,		/* block LSN older than the transaction's */
	XLS_RD_REPLAY_ALWAYS,	/* recovered whatever the block says (reason) */
	XLS_RD_SKIP_CANCELLED,	/* in the cancel table: a later cancel follows */
	XLS_RD_SKIP_LSN,	/* block LSN >= the transaction's LSN */
	XLS_RD_CANCEL,		/* a cancel item: drops one table reference */
	XLS_RD_SKIP_QUOTAOFF,	/* dquot buffer of a quota type turned off */
	XLS_RD_FAIL,		/* recovery fails on this item (fail_why) */
	XLS_RD_COUNT
};

/* Does recovery write decision @d into the block? */
static inline bool xls_replays(enum xls_rdecision d)
{
	return d == XLS_RD_REPLAY || d == XLS_RD_REPLAY_ALWAYS;
}

/* One di_next_unlinked field an inode buffer item replays. */
struct xls_runlinked {
	uint32_t	slot;		/* inode index in the buffer */
	uint32_t	offset;		/* byte offset of the field */
	uint32_t	value;		/* agino as logged (0xffffffff: end) */
	bool		readable;	/* false: the kernel would read past its region */
};

/* A buffer item as recovery sees it. */
struct xls_rbuf {
	int64_t		blkno;		/* blf_blkno, daddr */
	uint32_t	len;		/* blf_len, 512-byte blocks */
	uint16_t	blf_flags;
	unsigned int	blft;
	const struct xls_buf_format *blf;
	const struct xls_region_result *res;	/* regions as recovery places them */
	double		dirty_pct;
	/* what recovery read from the block before deciding */
	bool		block_read;	/* false: no data device, or read error */
	bool		from_replay;	/* state left by an earlier replay, not disk */
	bool		block_absent;	/* read from a metadump that lacks it: zeros */
	uint32_t	magic;		/* the magic that identified it, 0 if none */
	const char	*magic_name;	/* "XDD3", "agi", ... or "unknown" */
	bool		has_lsn;
	uint64_t	block_lsn;
	uint32_t	cancel_refs;	/* table references when processed */
	/* after the decision */
	const char	*kernel_warning; /* validate_buf_type's message, or NULL */
	/* a segment of a multi-extent buffer (one format per extent) */
	uint32_t	compound;	/* 1-based id within the transaction; 0 none */
	uint32_t	seg;		/* 1-based segment index */
	uint32_t	nseg;		/* segments logged */
	uint32_t	block_bytes;	/* size of the whole block (dir block size) */
	uint64_t	seg_offset;	/* byte offset in the block */
	bool		seg_offset_exact; /* false: a clean segment may precede it */
	bool		block_start;	/* carries the block's header */
	const char	*seg_note;	/* what recovery does to this segment */
	/* XFS_BLF_INODE_BUF: the fields xlog_recover_do_inode_buffer replays */
	uint32_t	nunlinked;
	const struct xls_runlinked *unlinked;
	/* with xls_recover_opts.keep_blkno: the logged bytes of each place */
	const uint8_t	*data;		/* res->places[i] bytes, concatenated */
	/* the block's first bytes as this item leaves them; NULL if unknown */
	const uint8_t	*head;
	uint32_t	head_len;
};

/* What an inode item logged (kept for the buffer history follows). */
struct xls_rinode {
	uint32_t	fields;		/* ilf_fields */
	uint32_t	rdev;
	bool		has_core;
	struct xls_log_dinode core;
	const uint8_t	*dfork;		/* data fork as logged, or NULL */
	uint32_t	dfork_len;
	const uint8_t	*afork;		/* attr fork as logged, or NULL */
	uint32_t	afork_len;
};

/*
 * What an ATTRI or BUI logged, kept with xls_recover_opts.keep_intents
 * (files): the attr op and name, or the one mapping of a bmap intent.
 */
struct xls_rintent_data {
	uint16_t	type;		/* XFS_LI_ATTRI or XFS_LI_BUI */
	uint64_t	ino;		/* alfi_ino, or the BUI's owner */
	uint32_t	op;		/* XFS_ATTRI_OP_FLAGS_*, or XFS_BMAP_* */
	uint32_t	attr_filter;
	const uint8_t	*name;		/* ATTRI: the name (old one of a replace) */
	uint32_t	name_len;
	const uint8_t	*new_name;	/* PPTR_REPLACE: the new name */
	uint32_t	new_name_len;
	bool		has_parent, has_new_parent;
	uint64_t	parent_ino, new_parent_ino;
	uint64_t	startoff, startblock;	/* BUI */
	uint32_t	len;
};

/* An icreate item (xfs_icreate_log). */
struct xls_ricreate {
	uint32_t	ag, agbno, count, isize, length, gen;
};

/* A dquot item: the dquot as logged, and where recovery copies it. */
struct xls_rdquot {
	int64_t		blkno;		/* qlf_blkno: the dquot buffer */
	uint32_t	len;		/* its length, 512-byte blocks */
	uint32_t	boffset;	/* qlf_boffset: the xfs_dqblk in it */
	uint32_t	id;		/* qlf_id */
	uint8_t		type;		/* d_type & XFS_DQTYPE_REC_MASK */
	uint32_t	ddq_len;	/* bytes logged of the disk dquot */
	const uint8_t	*ddq;		/* struct xfs_disk_dquot, big-endian */
};

/*
 * Why an item got its decision, the "reason" key: the LSN comparison, a
 * cancel, a check that fails, ...; REPLAY_ALWAYS's reasons are
 * enum xls_rreason, in xls_ritem.always.
 */
enum xls_rwhy {
	XLS_RWHY_NONE,			/* "" */
	XLS_RWHY_ALWAYS,		/* REPLAY_ALWAYS: xls_ritem.always */
	XLS_RWHY_LSN_OLDER,
	XLS_RWHY_LSN_ZERO,
	XLS_RWHY_LSN_NEWER,
	XLS_RWHY_FLUSHITER_NEWER,	/* v4 inodes: di_flushiter */
	XLS_RWHY_CANCEL_RECORD,
	XLS_RWHY_CANCELLED,
	XLS_RWHY_QUOTAOFF,
	XLS_RWHY_NOQUOTA,		/* dquots: the mount has no quota */
	XLS_RWHY_BAD_DQUOT,		/* a dquot item recovery refuses */
	XLS_RWHY_ICREATE,
	XLS_RWHY_NO_COMMIT,
	XLS_RWHY_BAD_ICREATE,
	XLS_RWHY_BAD_INODE_BUF,
	XLS_RWHY_BAD_UNLINKED,
	XLS_RWHY_AGCOUNT_SHRINK,
	XLS_RWHY_DADDR_RANGE,
	XLS_RWHY_BAD_INTENT,		/* an XMI, ATTRI or their done items pass 2 refuses */
	XLS_RWHY_COUNT
};

struct xls_ritem {
	uint32_t		order;		/* 1-based, recovery order */
	uint32_t		index;		/* 1-based, as logged */
	uint16_t		type;		/* XFS_LI_* */
	enum xls_rlist		list;
	enum xls_rdecision	decision;
	enum xls_rwhy		reason;		/* why the decision: xls_ritem_reason() */
	enum xls_rreason	always;		/* XLS_RD_REPLAY_ALWAYS: why */
	const char		*fail_why;	/* decision FAIL or a fatal note */
	/* what the buffer's write verifier will find when it is written */
	const char		*write_fails;
	const struct xls_rbuf	*buf;		/* XFS_LI_BUF only */
	bool			has_id;		/* intents and done items */
	uint64_t		id;
	bool			has_ino;	/* inode items */
	uint64_t		ino;
	int64_t			ino_blkno;	/* inode items: the cluster buffer */
	uint32_t		ino_len;
	uint32_t		ino_boffset;
	/* with xls_recover_opts.keep_blkno: what the inode item logged */
	const struct xls_rinode	*inode;
	const struct xls_ricreate *icreate;	/* icreate items */
	const struct xls_rdquot	*dquot;		/* dquot items */
	const struct xls_rintent_data *intent;	/* keep_intents: ATTRI, BUI */
	/* last: a new item clears what comes before it and empties this */
	char			detail[192];	/* one human sentence */
};

/* A transaction as recovery treats it. */
struct xls_rtrans {
	const struct xls_trans	*t;
	uint32_t		seq;		/* 1-based among committed ones */
	bool			replayed;	/* committed: pass 2 processes it */
	uint32_t		flushed;	/* buffers written first: its LSN is new */
	uint32_t		nitems;
};

/* An intent with no done item: work recovery would finish. */
struct xls_rintent {
	uint16_t	type;		/* XFS_LI_EFI, ...; XFS_LI_IUNLINK: an AGI bucket */
	const char	*kind;		/* "efi", ..., "unlinked" */
	uint64_t	id;
	uint32_t	tid;
	uint64_t	lsn;
	char		what[160];
};

/* A buffer by daddr and length. */
struct xls_rbufid {
	int64_t		blkno;
	uint32_t	len;
};

/*
 * The buffers recovery queued since the last LSN change, written in daddr
 * order (xfs_buf_delwri_submit) when a transaction with a new LSN commits
 * (xlog_recover_process_ophdr) and at the end of pass 2.
 */
struct xls_rwriteback {
	uint64_t	lsn;		/* l_recovery_lsn: whose buffers these are */
	uint64_t	next_lsn;	/* the LSN that writes them; 0: end of pass */
	uint32_t	buffers;	/* queued by buffer and icreate items */
	/* v5, written without a verifier: "no buf ops on daddr ..." */
	const struct xls_rbufid *noops;
	uint32_t	nnoops;
	bool		fails;		/* a write verifier fails: shutdown */
	struct xls_rbufid fail;
	uint32_t	fail_tid;	/* whose replay left it failing */
	const char	*fail_what;	/* what the verifier finds */
	uint32_t	not_written;	/* after the failure */
};

/* An entry of the cancel table after pass 1. */
struct xls_rcancel {
	int64_t		blkno;
	uint32_t	len;
	uint32_t	refs;
};

/* Where the kernel stops when it does not recover the log. */
enum xls_rstop {
	XLS_RSTOP_NONE,
	XLS_RSTOP_MOUNT,	/* refused before recovery begins */
	XLS_RSTOP_TAIL,		/* finding the tail: xlog_find_tail */
	XLS_RSTOP_PASS1,	/* building the cancel table */
	XLS_RSTOP_PASS2,	/* replaying an item */
	XLS_RSTOP_WRITEBACK,	/* writing replayed buffers: a write verifier */
};

/* What the failure is. */
enum xls_rcause {
	XLS_RCAUSE_NONE,
	XLS_RCAUSE_LOG,		/* the log itself is damaged */
	XLS_RCAUSE_METADATA,	/* metadata (on disk, or as replayed) fails verification */
	XLS_RCAUSE_LIMIT,	/* a limit of the kernel's recovery, not damage */
	XLS_RCAUSE_FOREIGN,	/* not this filesystem's log */
	XLS_RCAUSE_DEVICE,	/* the device is shorter than the filesystem */
};

/* What recovery has done when it stops (or at the end). */
struct xls_rcounts {
	uint64_t	trans_replayed;
	uint64_t	items;
	uint64_t	buffers;
	uint64_t	decisions[XLS_RD_COUNT];
	uint64_t	kernel_warnings;
};

#define XLS_TORN_TIDS	8

/* The kinds of intent pass 3 finishes (an rt form counted with its own). */
enum xls_pending_kind {
	XLS_PEND_EFI,
	XLS_PEND_RUI,
	XLS_PEND_CUI,
	XLS_PEND_BUI,
	XLS_PEND_XMI,
	XLS_PEND_ATTRI,
	XLS_PEND_OTHER,		/* an intent type newer than this tool */
	XLS_PEND_KINDS
};

/* The work the kernel finishes after replaying the log, by kind. */
struct xls_pending {
	uint64_t	intents[XLS_PEND_KINDS];	/* without their done item */
	uint64_t	unlinked_buckets;	/* AGI buckets that are not empty */
	uint64_t	unlinked_inodes;	/* the inodes on their chains */
	uint64_t	unlinked_broken;	/* chains that end on no inode, or loop */
	uint64_t	cow_extents;		/* CoW staging records in refcount btrees */
	uint32_t	cow_ags;		/* the AGs that hold them */
	/* no data device: only the intents and the AGIs the log holds */
	bool		log_only;
};

struct xls_recover_summary {
	uint64_t	trans_replayed;		/* committed, processed in pass 2 */
	uint64_t	trans_discarded;	/* no commit record */
	uint64_t	trans_corrupt;
	uint64_t	items;
	uint64_t	buffers;
	uint64_t	decisions[XLS_RD_COUNT];
	uint64_t	always_by_reason[XLS_RR_COUNT];
	uint64_t	cancel_entries;		/* table after pass 1 */
	uint64_t	cancel_refs;
	uint64_t	compound_buffers;
	uint64_t	compound_segments;
	uint64_t	kernel_warnings;
	uint64_t	unlinked_fields;
	/* intents, unlinked inodes and CoW staging extents to finish */
	uint64_t	pending_work;
	struct xls_pending pending;
	uint64_t	buffers_touched;	/* distinct (blkno, len) replayed */
	bool		metadump;		/* the input is a metadump: */
	uint64_t	absent_reads;		/* items decided on blocks it lacks */
	bool		fails;			/* recovery would stop */
	uint64_t	fail_lsn;
	char		fail_why[XLS_RECOVER_WHY];
	/*
	 * When it fails: where the kernel stops, why, in its own words
	 * (kernel_says, and the error its mount returns: -117 EFSCORRUPTED,
	 * -74 EFSBADCRC, -22 EINVAL).  The counts above then stop there
	 * too, as the kernel's do; the dry run goes on past it and its totals
	 * are in dry_run.
	 */
	enum xls_rstop	stop;
	enum xls_rcause	cause;
	int		kernel_error;
	char		kernel_says[XLS_RECOVER_WHY];
	struct xls_rcounts dry_run;
	/*
	 * xlog_verify_head moved the head back over a torn write: records
	 * from torn_lsn on are not recovered, nor the transactions that
	 * committed in them (the first XLS_TORN_TIDS of their ids kept).
	 */
	uint32_t	torn_records;
	uint64_t	torn_lsn;
	uint32_t	torn_commits;
	uint32_t	torn_tids[XLS_TORN_TIDS];
	/* a bare log: no block could be read, so nothing was compared */
	bool		no_data_device;
	/* a metadump: the failure turns on a block it does not carry */
	bool		fail_absent;
	/*
	 * Recovery succeeds, but the superblock it leaves outgrows the device
	 * (a growfs whose device shrank): the mount then fails reading AG
	 * mount_fail_ag's headers (EIO), after cleaning the log.
	 */
	bool		mount_fails_after;
	uint32_t	mount_fail_ag;
	uint64_t	mount_fail_sb_bytes;	/* what the superblock says */
	/* h_fmt of the log's last record: the byte order of the CPU that wrote it */
	uint32_t	log_fmt;
	/*
	 * The mount's quota (m_qflags), and whether it resets the superblock's
	 * quota flags ("resetting quota flags": accounting on disk, none in
	 * the mount), before pass 3.
	 */
	uint16_t	quota_flags;
	bool		quota_reset;
};

/*
 * Dquot item @dq replayed into its buffer @buf (@len bytes): the logged
 * dquot over the one at qlf_boffset, the xfs_dqblk's CRC on v5.  -1 when
 * it does not fit.
 */
int xls_recover_apply_dquot(const struct xls_geometry *g, const struct xls_rdquot *dq,
			    uint8_t *buf, uint32_t len);


/* "mount", "tail", "pass1", "pass2", "writeback" (NONE: ""); "log", "metadata", ... */
const char *xls_rstop_key(enum xls_rstop s);
const char *xls_rcause_key(enum xls_rcause c);
/* "EFSCORRUPTED" for -117, ... */
const char *xls_kernel_error_name(int error);

/*
 * The quota a mount has (m_qflags: XFS_*QUOTA_ACCT and _ENFD); @set false:
 * the accounting and enforcement its superblock says are on.  Without
 * quota, recovery replays no dquot item or buffer.
 */
struct xls_quota_opts {
	bool		set;
	uint16_t	flags;
};

/* The superblock's quota flags (@disk, sb_qflags) as the kernel holds them. */
uint16_t xls_quota_incore_flags(uint16_t disk, bool v5);
/*
 * Mount options' quota words ("uquota,gqnoenforce", "noquota") to m_qflags
 * (XFS_*QUOTA_ACCT and _ENFD); -1 for a word mount does not take.
 */
int xls_quota_parse(const char *s, uint16_t *flags);
/* m_qflags back to words: "uquota,gquota", "noquota". */
void xls_quota_words(uint16_t flags, char *buf, size_t size);
/*
 * The quota of the mount that recovers @g: @want when @set, else the
 * accounting and enforcement its superblock has on; *@reset when that
 * mount resets the superblock's flags ("resetting quota flags").  NULL, or
 * why the mount would do what replay does not model.
 */
const char *xls_quota_mount(const struct xls_geometry *g, const struct xls_quota_opts *q,
			    uint16_t *flags, bool *reset);

struct xls_recover_opts {
	/* keep the logged bytes of buffer items at this daddr (history) */
	bool		keep;
	int64_t		keep_blkno;
	/* ... and of every buffer item of these types (1 << XFS_BLFT_*) */
	uint32_t	keep_types;
	/* keep what every inode item logged (xls_ritem.inode) */
	bool		keep_inodes;
	/* keep the names and mappings of ATTRI and BUI items */
	bool		keep_intents;
	/* keep the extents of EFI, RUI, CUI and BUI items: pass 3 finishes them */
	bool		keep_pending;
	/* no one reads the detail sentences: do not write them */
	bool		quiet;
	/* the quota the filesystem is mounted with */
	struct xls_quota_opts quota;
	/*
	 * Pass 2 takes only the buffer items of these types (1 << XFS_BLFT_*),
	 * bmap btree blocks among the btree ones, and every cancel record;
	 * the others are neither decided nor shown, nor written back.  Each
	 * buffer's decisions depend only on its own items and the cancel
	 * table, so those taken are decided exactly; the summary, and whether
	 * recovery fails, cover only them.  0: every item.
	 */
	uint32_t	only_types;
	/*
	 * Walk the records before the tail instead (files --stale): the
	 * passes decode and decide them as recovery would, for the log's
	 * view of what they did -- no recovery, no refusal of the log, no
	 * verdict to trust.  Transactions end at every stale boundary.
	 */
	bool		stale;
	/*
	 * Bytes of an open transaction's records kept in memory before its
	 * temporary file takes the rest (0: XLS_RSTORE_MEM, 4 MiB): the tests
	 * make it small, so that bundled journals go through the file.
	 */
	uint64_t	store_mem;
};

/* What becomes of a buffer the write-back reaches. */
enum xls_rwrite_state {
	XLS_RW_WRITTEN,		/* written (its verifier stamps it first) */
	XLS_RW_FAILS,		/* its write verifier fails: recovery stops */
	XLS_RW_SHUT_DOWN,	/* after a failure: the kernel writes nothing more */
};

/* One buffer of a write-back, in the order the kernel writes them. */
struct xls_rwrite {
	int64_t			blkno;
	uint32_t		len;		/* 512-byte blocks */
	/* the LSN the write verifier stamps into the block, 0: none */
	uint64_t		stamp_lsn;
	enum xls_rwrite_state	state;
	/*
	 * XLS_RW_FAILS for a limit of the kernel's recovery, not damage: a
	 * segment of a multi-extent directory block verified as a whole block
	 */
	bool			limit;
};

struct xls_recover_sink {
	void	*ctx;
	/* after pass 1, once per cancel table entry, in blkno order */
	int	(*cancel)(void *ctx, const struct xls_rcancel *c);
	/* pass 2, every transaction that ends: committed or not */
	int	(*trans)(void *ctx, const struct xls_rtrans *rt);
	/* pass 2, each item of a committed transaction in recovery order */
	int	(*item)(void *ctx, const struct xls_rtrans *rt,
			const struct xls_ritem *ri);
	/* buffer items of discarded (uncommitted) transactions, for history */
	int	(*discarded_buf)(void *ctx, const struct xls_trans *t,
				 const struct xls_ritem *ri);
	/* a write-back with kernel warnings or a verifier failure */
	int	(*writeback)(void *ctx, const struct xls_rwriteback *wb);
	/* every buffer each write-back writes, in the kernel's order (replay) */
	int	(*write)(void *ctx, const struct xls_rwrite *w);
	/* each write-back done: the delwri list written, inode clusters too */
	int	(*flushed)(void *ctx);
	/* after pass 2, each intent left without its done item */
	int	(*intent)(void *ctx, const struct xls_rintent *in);
	/* opts.stale: each stale boundary of pass 2, where it is met */
	int	(*stale_gap)(void *ctx, const struct xls_stale_gap *g);
	/* findings of both scans, once; progress over both */
	const struct xls_report_sink *report;
};

struct xls_recover;

/*
 * An intent pass 2 leaves pending, with its extents (keep_pending): what
 * xlog_recover_process_intents finishes, in the order it finishes them,
 * the order of their commits.
 */
struct xls_pending_intent {
	uint16_t	type;		/* XFS_LI_EFI, _RUI, _CUI, _BUI, _XMI or an _RT kind */
	uint64_t	id;
	uint64_t	lsn;		/* its commit's */
	/* its extents in .ext; an XMI: its exchange in .xmi; an ATTRI: in .attr */
	uint32_t	first, count;
};

/* What an XMI asks: struct xfs_xmi_log_format's fields but its id, in host order. */
struct xls_map_exchange {
	uint64_t	inode1, inode2;
	uint64_t	startoff1, startoff2;
	uint64_t	blockcount;
	uint64_t	flags;		/* XFS_EXCHMAPS_* */
	uint64_t	isize1, isize2;
	uint32_t	igen1, igen2;
};

/*
 * What an ATTRI asks: struct xfs_attri_log_format's fields but its id, in
 * host order, and where its name, new name (PPTR_REPLACE), value and new
 * value (PPTR_REPLACE) are in xls_pending_intents.bytes, one after another.
 */
struct xls_map_attr {
	uint64_t	ino;
	uint32_t	igen;
	uint32_t	op_flags;	/* XFS_ATTRI_OP_FLAGS_* */
	uint32_t	attr_filter;
	uint32_t	name_len, new_name_len;
	uint32_t	value_len;	/* the new value's too */
	uint32_t	bytes;		/* the name's offset in the bytes */
};

/* EFI: startblock, len; CUI: startblock, len, flags; RUI, BUI: all of them. */
struct xls_pending_intents {
	struct xls_pending_intent *in;
	uint32_t		n, cap;
	struct xls_map_extent	*ext;
	uint32_t		next, capext;
	struct xls_map_exchange	*xmi;
	uint32_t		nxmi, capxmi;
	struct xls_map_attr	*attr;
	uint32_t		nattr, capattr;
	struct xls_pool		bytes;		/* the ATTRIs' names and values */
};

/*
 * The pending intents of @r's run, kept with keep_pending, moved to @out
 * (empty when none); -1 when memory runs out.  Free with
 * xls_pending_intents_free.
 */
int xls_recover_take_pending_intents(struct xls_recover *r, struct xls_pending_intents *out);
void xls_pending_intents_free(struct xls_pending_intents *p);

/*
 * A recovery run over @src's log, with the filesystem geometry of its
 * superblock.  NULL with @err set on failure.
 */
struct xls_recover *xls_recover_new(const struct xls_source *src,
				    const struct xls_recover_opts *o,
				    struct xls_error *err);
void xls_recover_free(struct xls_recover *r);

/*
 * Run both passes over tail..head, calling @sink.  Returns 0, -1 with
 * @err set, or the non-zero value a sink callback returned.
 */
int xls_recover_run(struct xls_recover *r, struct xls_log *log,
		    const struct xls_head_tail *ht,
		    const struct xls_recover_sink *sink, struct xls_error *err);

const struct xls_recover_summary *xls_recover_summary(const struct xls_recover *r);

/* "replay", "replay_always", "skip_cancelled", ... (JSON, CSV). */
const char *xls_rdecision_key(enum xls_rdecision d);
/* "replay", "replay: always (v4)", "skip: cancelled", ... (text). */
const char *xls_rdecision_text(const struct xls_ritem *ri);
/* "buffer", "item", "inode_buffer", "cancel". */
const char *xls_rlist_name(enum xls_rlist l);
/* "v4", "inode_buf", ... (the reason keys), NULL past the end. */
const char *xls_rreason_name(enum xls_rreason r);
/* The "reason" key of @ri: "lsn_older", "cancelled", "v4", ...; "" for none. */
const char *xls_ritem_reason(const struct xls_ritem *ri);

/* ---- what a replay writes, for the image of a buffer (replay/) ---- */

/*
 * Replay inode item @ri of a transaction at @lsn into the inode cluster
 * buffer image @buf of @len bytes (the buffer at ri->ino_blkno), as
 * xlog_recover_inode_commit_pass2() does: the log dinode converted to disk
 * order (xfs_log_dinode_to_disk, di_lsn set to @lsn, di_next_unlinked left
 * alone), the device number, the forks (a bmbt root converted to its
 * on-disk form), then the inode CRC unless @no_crc (a reader of the fields
 * only).  Returns 0, or -1 with *@why set when recovery would fail (bad
 * magic) or the item cannot be applied.
 */
int xls_recover_apply_inode(const struct xls_geometry *g, const struct xls_ritem *ri,
			    uint64_t lsn, uint8_t *buf, uint32_t len, bool no_crc,
			    const char **why);

/*
 * The same for one inode: what inode item @in logs, written into the
 * inode_size bytes at @dip (which must hold an inode), without its CRC.
 */
int xls_recover_apply_dinode(const struct xls_geometry *g, const struct xls_rinode *in,
			     uint64_t lsn, uint8_t *dip, const char **why);

/* Length of an inode cluster buffer in 512-byte blocks, 0 if unknown. */
uint32_t xls_recover_cluster_bb(const struct xls_geometry *g);

/*
 * The buffer of the inode cluster at @daddr (@bb 512-byte blocks long) into
 * *@buf: 1, or 0 to leave this cluster alone, or -1 to stop.
 */
typedef int (*xls_icreate_cluster_fn)(void *ctx, int64_t daddr, uint32_t bb, uint8_t **buf);

/*
 * xfs_ialloc_inode_init() for replayed icreate item @ri: each cluster
 * buffer it initialises, as @cluster gives it, written.  Returns how many
 * were, or -1 when @cluster said stop.
 */
int xls_recover_icreate_each(const struct xls_geometry *g, const struct xls_ritem *ri,
			     xls_icreate_cluster_fn cluster, void *ctx);

/*
 * When replayed icreate item @ri initialises the cluster buffer at @blkno,
 * write into @buf (@len bytes) what xfs_ialloc_inode_init() writes and
 * return true; else false.
 */
bool xls_recover_apply_icreate(const struct xls_geometry *g, const struct xls_ritem *ri,
			       int64_t blkno, uint8_t *buf, uint32_t len);

/*
 * What the write verifier of the v5 block in @buf (@len bytes, the buffer
 * written) does to it: @lsn (the LSN of the last replay, 0: none) into
 * its header's LSN, then its CRC, at that type's offsets; per block for
 * remote attr values.  Nothing for blocks whose verifier stamps nothing
 * (inodes, dquots), for v4, or for unknown blocks.
 */
void xls_recover_stamp(const struct xls_geometry *g, uint8_t *buf, uint32_t len, uint64_t lsn);

/*
 * The buffer type (XFS_BLFT_*) a block of @len bytes is logged with, as
 * its magic tells it: the one xlog_recover_validate_buf_type() attaches
 * its verifier for.  XFS_BLFT_UNKNOWN_BUF when the magic tells none.
 */
unsigned int xls_blk_log_type(const struct xls_geometry *g, const uint8_t *blk, uint32_t len);

/*
 * Recompute the CRC of the v3 inode in slot @slot of an inode buffer image
 * @buf of @len bytes, as xlog_recover_do_inode_buffer() does after
 * replaying its di_next_unlinked (xfs_dinode_calc_crc).
 */
void xls_recover_inode_crc(uint8_t *buf, uint32_t len, uint32_t inodesize,
			   uint32_t slot);

#endif /* XLS_RECOVER_H */
