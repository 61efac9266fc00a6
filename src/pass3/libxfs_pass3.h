/*
 * Pass 3 stage: the work done with libxfs (libxfs_pass3.c, compiled with
 * libxfs's own headers -- the only file that is -- and so declared here
 * in plain C types, none of the tool's, whose XFS headers are the
 * system's older ones).
 */
#ifndef XLS_LIBXFS_PASS3_H
#define XLS_LIBXFS_PASS3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One extent of an intent: EFI startblock, len; CUI + flags; RUI, BUI all. */
struct xls_libxfs_extent {
	uint64_t	owner;
	uint64_t	startblock;
	uint64_t	startoff;
	uint32_t	len;
	uint32_t	flags;
};

/* What an XMI asks: struct xfs_xmi_log_format's fields but its id. */
struct xls_libxfs_exchange {
	uint64_t	inode1, inode2;
	uint64_t	startoff1, startoff2;
	uint64_t	blockcount;
	uint64_t	flags;
	uint64_t	isize1, isize2;
	uint32_t	igen1, igen2;
};

/* What an ATTRI asks: its format's fields, its names and values in xls_libxfs_job.bytes. */
struct xls_libxfs_attr {
	uint64_t	ino;
	uint32_t	igen;
	uint32_t	op_flags;
	uint32_t	attr_filter;
	uint32_t	name_len, new_name_len;
	uint32_t	value_len;
	uint32_t	bytes;
};

/* An intent left pending: XFS_LI_EFI, _RUI, _CUI, _BUI, _XMI or _ATTRI, its extents. */
struct xls_libxfs_intent {
	uint16_t	type;
	uint64_t	id;
	uint32_t	first, count;	/* in xls_libxfs_job.ext; an XMI's in .xmi, ATTRI's .attr */
};

/* What libxfs is to do, and where. */
struct xls_libxfs_job {
	const char	*data_path;	/* the filesystem: OUT */
	const char	*log_path;	/* its external log, or NULL */
	/* the intents, in the order of their commits (xlog_recover_process_intents) */
	const struct xls_libxfs_intent *intents;
	uint32_t	nintents;
	const struct xls_libxfs_extent *ext;
	const struct xls_libxfs_exchange *xmi;
	const struct xls_libxfs_attr *attr;
	const uint8_t	*bytes;		/* the ATTRIs' names and values */
	bool		cow;		/* CoW staging leftovers (xfs_reflink_recover_cow) */
	bool		iunlinks;	/* the unlinked inodes (xlog_recover_process_iunlinks) */
};

struct xls_ckpt_model;

/* What pass 3's work did, kind by kind (the tool's summary shows it as it is). */
struct xls_pass3_counts {
	uint64_t	cow_extents;	/* CoW staging extents freed */
	uint64_t	cow_blocks;	/* ... their blocks */
	uint64_t	inodes_freed;	/* unlinked inodes inactivated and freed */
	uint64_t	chunks_freed;	/* ... inode chunks freed with them */
	uint64_t	data_blocks;	/* ... blocks of their data and btrees freed */
	uint64_t	intents;	/* intents finished, what they deferred too */
	uint64_t	intent_extents;	/* ... the extents EFIs, RUIs, CUIs, BUIs named */
	uint64_t	exchanges;	/* ... XMIs: file mapping exchanges finished */
	uint64_t	parent_pointers;	/* ... ATTRIs: parent pointer updates made */
	uint64_t	freed_extents;	/* extents freed by all the work */
	uint64_t	freed_blocks;	/* ... their blocks */
};

/* What it did. */
struct xls_libxfs_done {
	struct xls_pass3_counts n;
	/* the work is of a kind this pass 3 does not do: nothing written, why */
	char		refused[160];
	/*
	 * The kernel's pass-3 checkpoints: how many ended before the last,
	 * the blocks each takes in the log, and which of them last logged
	 * each block and inode (xls_libxfs_ckpt_*).  The caller frees it
	 * (xls_libxfs_ckpt_free).
	 */
	struct xls_ckpt_model *ckpt;
	/* it failed on metadata libxfs found corrupt (EFSCORRUPTED, EFSBADCRC) */
	bool		corrupt;
	/*
	 * Byte ranges of the data device never to be written: a freed inode
	 * chunk's cluster buffers, stale in the kernel (xfs_ifree_cluster),
	 * which libxfs still writes back.  The caller frees it (xls_vec_free).
	 */
	struct xls_byte_range {
		uint64_t	off, len;
	}		*stale;
	uint32_t	nstale, capstale;
};


/* Pass-3 checkpoints followed at most (a log force past the last is refused). */
#define XLS_PASS3_CKPTS	200u

/* The checkpoints ended before the last; the log blocks checkpoint @k takes. */
uint32_t xls_libxfs_ckpt_count(const struct xls_ckpt_model *m);
uint64_t xls_libxfs_ckpt_blocks(const struct xls_ckpt_model *m, uint32_t k);

/* The checkpoint (0, 1, ...) that last logged the block at @daddr, the inode @ino. */
uint32_t xls_libxfs_ckpt_of_block(const struct xls_ckpt_model *m, uint64_t daddr);
uint32_t xls_libxfs_ckpt_of_inode(const struct xls_ckpt_model *m, uint64_t ino);
void xls_libxfs_ckpt_free(struct xls_ckpt_model *m);

/*
 * In the child: open the filesystem with libxfs, do the work, write every
 * buffer back.  0, or -1 with a sentence in @why.
 */
/*
 * A transaction that failed with @error (an errno) while it held changes:
 * the kernel cancels it and shuts the filesystem down, so that its pass 3
 * fails there (xfs_trans_cancel), where libxfs would abort.  The child
 * reports the failure as its result (corrupt metadata when @error says
 * so) and ends here (child.c); it does not return.
 */
void xls_pass3_child_stop(int error) __attribute__((noreturn));

int xls_pass3_libxfs(const struct xls_libxfs_job *job, struct xls_libxfs_done *done,
		     char *why, size_t whysz);

#endif /* XLS_LIBXFS_PASS3_H */
