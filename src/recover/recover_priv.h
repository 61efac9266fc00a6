/*
 * Private to the recovery stage: the state of one recovery run, shared by
 * the files that split it as the kernel splits its recovery --
 *
 *   log_recover.c    passes, commit and reorder, delwri flushes, intents,
 *                    unlinked buckets, the cancel table's report, failure
 *                    (xfs_log_recover.c)
 *   buf_recover.c    buffer items: cancel table, LSN decision, replay into
 *                    the simulated block, multi-extent segments
 *                    (xfs_buf_item_recover.c)
 *   inode_recover.c  inode and icreate items (xfs_inode_item_recover.c,
 *                    xfs_icreate_item.c)
 *   capture.c        what each item of an open transaction leaves for its
 *                    commit, by family
 *   store.c          a store of those per open transaction
 *   block.c          what a block is by its magic, and which verifier
 *                    validate_buf_type attaches
 *   decision.c       the decisions' and reasons' names, and failure
 *
 * Calls go down that list (log_recover.c calls the others, decision.c
 * none of them), so the split makes no loop.  Nothing here is seen
 * outside recover/.
 */
#ifndef XLS_RECOVER_PRIV_H
#define XLS_RECOVER_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "base/bigmem.h"
#include "base/hashmap.h"
#include "base/inoidx.h"
#include "base/spillpool.h"
#include "base/inomap.h"
#include "base/vec.h"
#include "base/ondisk.h"
#include "items/buf_analysis.h"
#include "items/item.h"
#include "recover/recover.h"
#include "trans/trans.h"

/* Magics newer than the xfsprogs 6.1 headers (realtime groups, rt btrees). */
#ifndef XFS_RTBITMAP_MAGIC
#define XFS_RTBITMAP_MAGIC	0x424D505A	/* BMPZ */
#endif
#ifndef XFS_RTSUMMARY_MAGIC
#define XFS_RTSUMMARY_MAGIC	0x53554D59	/* SUMY */
#endif
#ifndef XFS_RTRMAP_CRC_MAGIC
#define XFS_RTRMAP_CRC_MAGIC	0x4d415052	/* MAPR */
#endif
#ifndef XFS_RTREFC_CRC_MAGIC
#define XFS_RTREFC_CRC_MAGIC	0x52434e54	/* RCNT */
#endif

#define HEAD_BYTES	512u		/* simulated bytes of each buffer */
#define HEAD_CHUNKS	(HEAD_BYTES >> XFS_BLF_SHIFT)
#define NULL_LSN	UINT64_MAX	/* NULLCOMMITLSN, (xfs_lsn_t)-1 */
#define NULL_AGINO	0xffffffffu

/* ------------------------------------------------------------------ */
/* capture: what each item of an open transaction needs at its commit */

/*
 * One captured item.  A checkpoint holds a record for each of its items,
 * by the hundred thousand, so the store keeps each without its tail where
 * that tail is as xls_rrec_init() leaves it (store.c): the fields are
 * ordered so that what most items set comes first -- inode items end
 * after their part, a buffer's map words past its last set one are not
 * kept.  A buffer's fields, and its format last, come last.
 */
struct rrec {
	uint16_t	type;
	uint32_t	index;		/* 1-based, as logged */
	bool		unknown_type;	/* no recovery ops: reorder fails */
	/* inode items */
	bool		has_ino;	/* a format recovery accepts */
	uint16_t	ldi_flushiter;
	uint32_t	ilf_fmt_len;
	uint64_t	ino;
	int64_t		iblkno;
	uint32_t	ilen, iboff;
	bool		kept_inode;	/* ino_keep and its forks in the pool */
	/* keep_intents: ATTRI names and BUI mappings (bytes in the pool) */
	bool		has_intent;
	/* quotaoff, icreate */
	bool		has_qoff;
	bool		has_icl;
	bool		has_dquot;	/* a struct rkept_dquot at kept_off */
	uint32_t	qoff_flags;
	struct xls_ricreate icl;
	/*
	 * kept_inode: a struct rkept_inode, has_intent: a struct rkept_intent,
	 * at this offset of the store's bytes.  Apart, since most items keep
	 * neither and a checkpoint of 100,000 items holds a record for each:
	 * inside, they made a record 640 bytes instead of 264.
	 */
	uint32_t	kept_off;
	/* intents and done items */
	bool		has_id;
	uint32_t	ext_off;	/* keep_pending: its xls_map_extents, an XMI's exchange */
	uint32_t	next;
	uint64_t	id;
	const char	*refused;	/* why the kernel's pass 2 refuses it, or NULL */
	const char	*refused_in;	/* ... the kernel function that says so */
	/* buffers: what is filled at commit before the format, always kept */
	bool		parsed;
	bool		bad_iovec;	/* xfs_buf_log_check_iovec fails */
	bool		unl_zero;	/* a logged di_next_unlinked of 0 */
	bool		seg_exact, block_start;	/* compound segment, filled at commit */
	uint8_t		patch_mask;	/* chunks 0..3 the patch covers */
	uint32_t	compound, seg, nseg;
	uint64_t	seg_offset;
	uint32_t	rlen_off;	/* region lengths (data regions) */
	uint32_t	nrlen;
	uint32_t	patch_off;	/* HEAD_BYTES of logged bytes, or UINT32_MAX */
	uint32_t	data_off;	/* kept bytes (history), or UINT32_MAX */
	uint32_t	data_len;
	uint32_t	unl_off;	/* struct xls_runlinked entries */
	uint32_t	nunl;
	struct xls_buf_format blf;
};

/* What an inode item keeps when asked (keep_inodes; history's buffer). */
struct rkept_inode {
	struct xls_rinode ino;		/* fork pointers NULL: at the offsets */
	uint32_t	dfork_off, afork_off;
};

/* What an intent keeps when asked (keep_intents): files' ATTRI and BUI. */
struct rkept_intent {
	struct xls_rintent_data intent;	/* names NULL: at the offsets */
	uint32_t	name_off, new_name_off;
};

/* One open transaction's captured items and the bytes they keep. */
struct tstore {
	bool		used;
	uint32_t	tid;
	uint64_t	lsn;
	/*
	 * The records, each without its tail (xls_rstore_add), and what they
	 * keep: memory bounded, past XLS_RSTORE_MEM each in a temporary file.
	 */
	struct xls_spillpool recbytes;
	uint32_t	*recoff;	/* where each starts in recbytes */
	uint32_t	*reclen;	/* and its bytes there */
	uint32_t	nrecs, caprecoff, capreclen;
	uint32_t	*rlens;
	uint32_t	nrlens, caprlens;
	struct xls_spillpool bytes;
	struct xls_runlinked *unl;
	uint32_t	nunl, capunl;
};

/* ------------------------------------------------------------------ */
/* the simulated blocks */

/* The simulated head of one buffer (blkno, len). */
struct rstate {
	int64_t		blkno;
	uint64_t	stamp_lsn;
	/*
	 * HEAD_BYTES, from r->heads; NULL until needed for a cluster an
	 * icreate initialised (r->icreates[@icl], its cluster @icl_cluster):
	 * of 80,000 clusters a log of 2 million new inodes initialises,
	 * hardly any is read again, and their heads would be most of
	 * recovery's memory.
	 */
	uint8_t		*head;
	/*
	 * b_ops is attached (it stays once attached): the write verifier
	 * runs when the buffer is written.  Without one, v5 warns "no buf
	 * ops" instead.  @write_fail: what the verifier will find in the
	 * buffer as the last replay (in transaction @fail_tid) left it.
	 */
	const char	*write_fail;
	uint32_t	fail_tid;
	uint32_t	len;
	uint32_t	head_len;
	uint32_t	icl, icl_cluster;
	bool		readable;
	bool		absent;		/* not in the metadump: read as zeros */
	bool		replayed;	/* head changed by a replay */
	bool		queued;		/* on the delwri list */
	bool		has_ops;	/* a verifier is attached: it stamps */
	bool		verifier;
	bool		icreated;	/* initialised by an icreate replay */
};

/* A queued buffer and its place on the list: list_sort() is stable. */
struct rorder {
	int64_t		blkno;
	uint32_t	pos;
};

/* The fields of an inode on the device that recovery's decision reads. */
#define XLS_RECOVER_DISKINO_SLOTS	65536u	/* a power of two: 2 MiB */
struct rdisk_ino {
	int64_t		blkno;		/* where it was read: the item's cluster */
	uint32_t	boffset;	/* and offset */
	uint64_t	lsn;		/* di_lsn, v3 */
	uint16_t	flushiter;	/* di_flushiter, v2 */
	uint8_t		version;	/* di_version */
	bool		magic;		/* di_magic is XFS_DINODE_MAGIC */
	bool		used;		/* a slot holds one */
};

struct rintent {
	uint16_t	type;
	bool		done;
	uint64_t	id;
	uint32_t	tid;
	uint64_t	lsn;
	uint32_t	first, count;	/* keep_pending: its extents in pext, exchange in pxmi */
};

struct xls_recover {
	const struct xls_source		*src;
	const struct xls_geometry	*g;
	bool				data_dev;	/* blocks can be read */
	struct xls_recover_opts		opt;
	const struct xls_recover_sink	*sink;
	int				pass;
	/* pass 1 */
	struct xls_hashmap		cancel;		/* (blkno, len) -> refs */
	uint32_t			quotaoffs;	/* XFS_DQTYPE_* turned off */
	/* pass 2 */
	/* the in-core sb_agcount: the superblock's, then each primary one replayed */
	uint32_t			sb_agcount;
	struct xls_hashmap		bufidx;		/* (blkno, len) -> states */
	struct xls_arena		heads;		/* of the states */
	struct rstate			*states;
	uint32_t			nstates, capstates;
	/* the icreates the states' clusters were initialised by, once each */
	struct xls_ricreate		*icreates;
	uint32_t			nicreates, capicreates;
	uint32_t			*queue;		/* delwri list */
	uint32_t			nqueue, capqueue;
	struct rorder			*order;		/* the list, sorted to be written */
	uint32_t			norder, caporder;
	struct xls_rbufid		*noops;		/* written without a verifier */
	uint32_t			nnoops, capnoops;
	uint64_t			recovery_lsn;	/* l_recovery_lsn */
	uint64_t			curr_lsn;	/* l_curr_cycle, l_curr_block */
	struct xls_hashmap		intidx;		/* (type, id) -> intents */
	struct rintent			*intents;
	uint32_t			nintents, capintents;
	struct xls_map_extent		*pext;		/* keep_pending */
	uint32_t			npext, cappext;
	struct xls_map_exchange		*pxmi;		/* ... the XMIs' */
	uint32_t			npxmi, cappxmi;
	struct xls_map_attr		*pattr;		/* ... the ATTRIs' */
	uint32_t			npattr, cappattr;
	struct xls_pool			pbytes;		/* ... their names and values */
	/*
	 * ino -> LSN of its last replay, as an index into @lsns: a log of
	 * millions of inode items has only as many LSNs as checkpoints.
	 */
	struct xls_inoidx		inolsn;
	uint64_t			*lsns;
	uint32_t			nlsns, caplsns;
	struct xls_hashmap		inobufs;	/* (blkno, len) -> read verdict */
	/*
	 * What the device says of an inode an item read it for and did not
	 * replay: an inode whose disk copy is newer is skipped item after
	 * item, and the device does not change while the log is read.  A
	 * slot per place, the last inode read there; NULL until needed.
	 */
	struct rdisk_ino		*diskinos;	/* XLS_RECOVER_DISKINO_SLOTS */
	uint32_t			seq;
	/* open transactions */
	struct xls_hashmap		storeidx;	/* (tid, lsn) -> stores[] */
	/* the last one found: a transaction's items come one after another */
	struct tstore			*last_store;
	struct tstore			*stores[XLS_MAX_OPEN_TRANS];
	uint32_t			nstores;
	bool				stores_full;
	/* scratch */
	struct xls_buf_analysis		*ba;
	struct xls_region_result	*res;
	struct xls_region		*regs;
	struct xls_recover_summary	sum;
	/* what pass 3 will find: the work left (pending.c); NULL until needed */
	struct xls_pending_state	*pend;
	/* the counts where the kernel stops, taken at the first failure */
	struct xls_rcounts		at_stop;
	/* the write-back at hand comes before the transaction whose LSN is new */
	bool				flush_before_trans;
	int				err;		/* -ENOMEM seen; -EIO: a store's file failed */
	int				spill_errno;	/* how it failed */
	const char			*spill_dir;	/* where it was */
	int				sink_rc;	/* what sink->write returned, if not 0 */
};

/* Deciding one item of a committed transaction. */
struct decide_ctx {
	struct xls_recover	*r;
	const struct xls_trans	*t;
	struct tstore		*ts;
	struct xls_rtrans	*rt;
	struct xls_rbuf		rb;
	struct xls_ritem	ri;
	struct xls_rinode	ino;
	struct xls_rintent_data	intent;
	struct xls_rdquot	dquot;
	/* no one will read ri.detail: history shows only the kept buffer */
	bool			quiet;
};

/*
 * A buffer recovery reads (a buffer item's, an inode item's cluster, an
 * icreate's clusters), @len 512-byte blocks at @daddr, that the data
 * device does not hold: xfs_buf_map_verify fails one that begins outside
 * the filesystem (EFSCORRUPTED), the read one that runs past the end of
 * the device (EIO).  Either fails the item and recovery; the buffer is
 * never read or written.  True when it does.
 */
bool xls_recover_daddr_out_of_range(struct decide_ctx *d, int64_t daddr, uint32_t len,
				    const char *what);

/* ------------------------------------------------------------------ */
/* pending.c: the work left for pass 3, counted */

struct xls_pending_state;

void xls_pending_intent(struct xls_recover *r, uint16_t type);
/* a replayed inode buffer item's di_next_unlinked fields */
void xls_pending_unlinked(struct xls_recover *r, const struct xls_rbuf *rb);
/* a replayed icreate: its clusters' inodes start with no next */
void xls_pending_icreate(struct xls_recover *r, const struct xls_ritem *ri);
/* a replayed refcount btree buffer item (its data kept) */
void xls_pending_refcount(struct xls_recover *r, const struct xls_rbuf *rb);
/* the census, once pass 2 is done: into r->sum.pending and pending_work */
void xls_pending_count(struct xls_recover *r);
void xls_pending_release(struct xls_recover *r);

/* ------------------------------------------------------------------ */
/* store.c */

/*
 * Bytes of records, and of what they keep, a store holds in memory;
 * past it, in a temporary file (base/spillpool.h), read back at the
 * commit in the order they came.
 */
/* -DXLS_RSTORE_MEM=... in CFLAGS: a build that spills all the time, to test it */
#ifndef XLS_RSTORE_MEM
#define XLS_RSTORE_MEM	(4u << 20)
#endif

/* Add @len bytes (from @src, or zeros) to the store; offset or UINT32_MAX. */
uint32_t xls_rstore_bytes(struct tstore *ts, const void *src, uint32_t len);
/* The same, zeros to be filled now, where they are (NULL: out of memory). */
uint8_t *xls_rstore_reserve(struct tstore *ts, uint32_t len, uint32_t *off);
/*
 * What a transaction's store kept at @off, or NULL: none kept (UINT32_MAX),
 * or only empty ones, which never made the pool (a name of 0 bytes).  The
 * whole of what one xls_rstore_bytes() kept, valid while the commit's
 * item is decided (base/spillpool.h: a few pages at once).
 */
const uint8_t *xls_rstore_at(struct tstore *ts, uint32_t off);
/* r->err -EIO, and where and how, when a store's temporary file failed. */
void xls_rstore_check_files(struct xls_recover *r);
/* @len bytes kept at @off into @to; zeros and r->err -EIO when the file fails. */
void xls_rstore_copy(struct xls_recover *r, struct tstore *ts, uint32_t off, void *to,
		     size_t len);

/* A record as capture starts it: zeros, and no patch or kept bytes. */
void xls_rrec_init(struct rrec *rec);
/* Keep @rec as the store's next record: 0, or -ENOMEM. */
int xls_rstore_add(struct tstore *ts, const struct rrec *rec);
/*
 * Record @i of the store, whole: in @scratch, valid until @scratch is
 * used again.  Changed, it goes back with xls_rstore_update().
 */
const struct rrec *xls_rstore_rec(struct tstore *ts, uint32_t i, struct rrec *scratch);
int xls_rstore_update(struct tstore *ts, uint32_t i, const struct rrec *rec);

/* The store of open transaction @t; created when @create.  NULL: none. */
struct tstore *xls_rstore_find(struct xls_recover *r, const struct xls_trans *t,
			       bool create);
void xls_rstore_release(struct xls_recover *r, struct tstore *ts);
/* Every store becomes free (a new pass). */
void xls_rstore_release_all(struct xls_recover *r);
void xls_rstore_free_all(struct xls_recover *r);

/* ------------------------------------------------------------------ */
/* the families: what recovery does with each, as xlog_recover_item_ops */

/*
 * One item family's recovery, in the shape of the kernel's
 * xlog_recover_item_ops, each defined in the family's file and listed
 * once, in capture.c.  Items stream past (the trans stage keeps none), so
 * a family keeps of each item, in its rrec, what its transaction's commit
 * needs: @capture1 in pass 1, @capture2 in pass 2.  @commit1 is pass 1 at
 * the commit (xlog_recover_commit_pass1): the cancel table, quotaoff;
 * @decide is pass 2 (commit_pass2): what the kernel does with the item,
 * into d->ri.  NULL: nothing; an item of a family with no @capture1 needs
 * no store in pass 1.
 */
struct xls_recover_ops {
	void	(*capture1)(struct xls_recover *r, struct tstore *ts,
			    struct rrec *rec, const struct xls_item *it);
	void	(*commit1)(struct xls_recover *r, const struct xls_trans *t,
			   const struct rrec *rec);
	void	(*capture2)(struct xls_recover *r, struct tstore *ts,
			    struct rrec *rec, const struct xls_item *it);
	void	(*decide)(struct decide_ctx *d, const struct rrec *rec);
	/* history: does @rec write the block kept (opt.keep_blkno)?  NULL: never */
	bool	(*writes_kept)(const struct xls_recover *r, const struct rrec *rec);
	/* opt.only_types: does pass 2 leave item @it out?  NULL: never */
	bool	(*left_out)(const struct xls_recover *r, const struct xls_item *it);
};

extern const struct xls_recover_ops xls_rbuf_ops;	/* buf_recover.c */
extern const struct xls_recover_ops xls_rinode_ops;	/* inode_recover.c */
extern const struct xls_recover_ops xls_ricreate_ops;	/* inode_recover.c */
extern const struct xls_recover_ops xls_rintent_ops;	/* intent_recover.c */
extern const struct xls_recover_ops xls_rquotaoff_ops;	/* quota_recover.c */
extern const struct xls_recover_ops xls_rdquot_ops;	/* quota_recover.c */

/* An intent's or done item's type name ("efi"), "?" for none. */
const char *xls_rintent_name(uint16_t type);

/* The ops of item type @type (XFS_LI_*); NULL: no family recovers it. */
const struct xls_recover_ops *xls_recover_ops_of(uint16_t type);

/* A damaged log found in pass 1: the kernel replays nothing. */
#define XLS_RFAIL_PASS1_LOG \
	((struct xls_rfail){ XLS_RSTOP_PASS1, XLS_RCAUSE_LOG, XLS_EFSCORRUPTED })

/* ------------------------------------------------------------------ */
/* capture.c */

/* The scan's item callback: capture @it for its transaction's commit. */
int xls_recover_capture(void *ctx, const struct xls_trans *t,
			const struct xls_item *it);

/* ------------------------------------------------------------------ */
/* buf_recover.c */

/* Group the segments of multi-extent directory blocks of a transaction. */
void xls_rbuf_find_compounds(struct xls_recover *r, struct tstore *ts);
/* The regions of @rec placed again, into d->rb. */
void xls_rbuf_fill(struct decide_ctx *d, const struct rrec *rec);

/* The simulated head of buffer (blkno, len): read from disk the first time. */
struct rstate *xls_rstate_get(struct xls_recover *r, int64_t blkno, uint32_t len);
/*
 * The state of a cluster icreate cluster @cluster of @icl initialises,
 * its head made only when xls_rstate_get() or xls_rstate_head() asks.
 */
struct rstate *xls_rstate_icreate(struct xls_recover *r, int64_t blkno, uint32_t len,
				  const struct xls_ricreate *icl, uint32_t cluster);
/*
 * xfs_ialloc_inode_init() for cluster buffer @index of @ic into @buf of
 * @len bytes: zeroed, then each inode's identity.  Only what @len holds
 * is written: the simulated head of a buffer is shorter than the buffer.
 */
void xls_recover_init_inodes(const struct xls_geometry *g, const struct xls_ricreate *ic,
			     uint32_t index, uint8_t *buf, uint32_t len);
/* @st's head, made if it had none yet; NULL when out of memory. */
uint8_t *xls_rstate_head(struct xls_recover *r, struct rstate *st);
/* Put @st on the delwri list. */
void xls_rstate_queue(struct xls_recover *r, struct rstate *st);
/*
 * Write the delwri list as xfs_buf_delwri_submit() does, into @wb: sorted
 * by daddr, each buffer's write verifier run (the LSN it stamps), "no buf
 * ops" for those without one, and nothing written after a verifier fails.
 */
void xls_rstate_flush(struct xls_recover *r, struct xls_rwriteback *wb);

/*
 * The write failure of a segment of a multi-extent directory block read
 * as a buffer of its own: a limit of the kernel's recovery, not damage
 * (st->write_fail points at it).
 */
extern const char xls_short_dir_fail[];

/* ------------------------------------------------------------------ */
/* inode_recover.c */

/* Is buffer (blkno, len) initialised by an icreate replayed earlier? */
bool xls_rstate_icreated(struct xls_recover *r, int64_t blkno, uint32_t len);

/* ------------------------------------------------------------------ */
/* block.c */

enum blk_kind {
	BLK_LSN,		/* has an LSN and a UUID at lsn_off, uuid_off */
	BLK_ATTR_RMT,		/* recovered immediately */
	BLK_DQUOT,
	BLK_DINODE,
	BLK_UNKNOWN,
};

/* The kernel's names for a block's verifier (block.c); ops NULL: none. */
struct xls_blk_verifier {
	const char	*ops, *read_fn, *verify_fn;
};

struct blk_id {
	enum blk_kind	kind;
	uint32_t	magic;
	const char	*name;
	const struct xls_blk_verifier *verifier;
	uint32_t	lsn_off;
	uint32_t	uuid_off;
	uint32_t	crc_off;	/* where the read verifier finds the CRC */
	uint32_t	blkno_off;	/* the block's own daddr, 0 if none */
};

/* xlog_recover_get_buf_lsn(): identify the block whose first bytes are @blk. */
void xls_blk_identify(const struct xls_geometry *g, const uint8_t *blk,
		      uint32_t len, struct blk_id *id);
/*
 * What the kernel logs when the block's verifier fails (xfs_verifier_error,
 * code addresses left out): @crc, a bad CRC found by the read verifier;
 * else corruption found by the structure check.
 */
void xls_blk_verifier_says(const struct blk_id *id, int64_t blkno, bool crc, char *buf,
			   size_t size);

/* What xlog_recover_validate_buf_type() makes of a buffer's type and magic. */
enum xls_blk_type_check {
	XLS_BLK_TYPE_OPS,	/* the magic fits: a verifier is attached, it stamps the LSN */
	XLS_BLK_TYPE_BAD_MAGIC,	/* "Bad ... magic!": no verifier */
	XLS_BLK_TYPE_UNKNOWN,	/* "Unknown buffer type!": no verifier */
};

/*
 * xlog_recover_validate_buf_type() on buffer type @blft and the block's
 * first @len bytes; *@warn the kernel's message, or NULL with
 * XLS_BLK_TYPE_OPS.
 */
enum xls_blk_type_check xls_blk_validate_type(const struct xls_geometry *g, unsigned int blft,
					      const uint8_t *blk, uint32_t len,
					      const char **warn);

/* The daddr a v5 dir3 or da3 block header records, at its own place. */
uint64_t xls_blk_header_daddr(unsigned int blft, const uint8_t *head);

/* ------------------------------------------------------------------ */
/* decision.c */

/*
 * Recovery stops at the first of these; later ones are still shown.  @how
 * says where the kernel stops, why and with which error; @says, what it
 * logs (NULL: only the mount's "log mount/recovery failed").  The counts
 * at this moment are the kernel's.  True when this is the failure: the
 * first one.
 */
struct xls_rfail {
	enum xls_rstop	stop;
	enum xls_rcause	cause;
	int		error;		/* as the kernel returns it: -117, ... */
};
bool xls_recover_fail(struct xls_recover *r, uint64_t lsn, struct xls_rfail how,
		      const char *says, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* At the end of the run: the summary's counts as far as the kernel gets. */
void xls_recover_stop_counts(struct xls_recover *r);

#define XLS_EFSCORRUPTED	(-117)
#define XLS_EFSBADCRC		(-74)
#define XLS_EINVAL		(-22)
#define XLS_EIO			(-5)

/* The detail sentence of the item being decided, unless d->quiet. */
void xls_rdetail(struct decide_ctx *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* ... and a phrase added to it, or formatted text. */
void xls_rdetail_append(struct decide_ctx *d, const char *s);
void xls_rdetail_appendf(struct decide_ctx *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Decide REPLAY_ALWAYS for @reason, with a printf-style detail. */
void xls_decide_always(struct decide_ctx *d, enum xls_rreason reason,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* XLS_RECOVER_PRIV_H */
