/*
 * xls-synth's private header: the geometry constants, the writer's state,
 * the item and checkpoint structures, and the functions the pieces of the
 * tool share (main.c says what the tool does).
 */
#ifndef XLS_SYNTH_H
#define XLS_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ondisk.h"

#define BB		512u
#define OPHDR		((uint32_t)sizeof(xlog_op_header_t))		/* 12 */
#define THDR		((uint32_t)sizeof(struct xfs_trans_header))	/* 16 */
#define CYCLE_WORDS	(XLOG_HEADER_CYCLE_SIZE / BB)			/* 64 */
#define BLF_FIXED	((uint32_t)offsetof(struct xfs_buf_log_format, blf_data_map))
#define MAP_WORDS	XFS_BLF_DATAMAP_SIZE				/* 17 */
#define MAX_IOV		320
#define MAX_ITEMS	64
#define MAX_TRANS	256
#define RH(f)		offsetof(xlog_rec_header_t, f)
#define XH(f)		offsetof(xlog_rec_ext_header_t, f)
#define OH(f)		offsetof(xlog_op_header_t, f)
#define BLF(f)		offsetof(struct xfs_buf_log_format, f)

/* Filesystem geometry of the image: 2 AGs of 16 MiB, 4 KiB blocks. */
#define FS_BLOCKSIZE	4096u
#define FS_BLOCKLOG	12u
#define FS_AGBLOCKS	4096u
#define FS_AGBLKLOG	12u
#define FS_AGCOUNT	2u
#define FS_LOGSTART	1024u		/* fsblock of the internal log (4 MiB) */

/* ------------------------------------------------------------------ */
/* state */

struct rec {
	uint32_t	blk, cycle;
	uint32_t	version, h_size, hblks;
	uint32_t	h_len;		/* as written */
	uint32_t	data_len;	/* payload bytes on disk: whole blocks */
	uint32_t	used;		/* bytes of ops (h_len - used is unused) */
	uint32_t	nops;
	uint32_t	fmt;
	uint32_t	prev_block;
	uint64_t	tail_lsn;
	uint8_t		*data;		/* data_len bytes, before cycle stamping */
	uint32_t	*stamp;		/* per-block cycle stamps, NULL: h_cycle */
	bool		crc_zero;	/* store 0 (mkfs) */
	uint32_t	crc_xor;	/* break the stored CRC */
	uint32_t	crc;		/* the CRC computed */
	bool		show;		/* the decoder walks it (tail .. head) */
	bool		wrapped;
	uint32_t	bad_stamps;	/* expected bad_cycle_blocks */
	bool		walk_set;	/* the op walk stops early: */
	uint32_t	walk_ops;	/*   ops walked */
	uint32_t	walk_used;	/*   bytes walked */
};

/* What one checkpoint wrote, for the manifest. */
struct tinfo {
	uint32_t	tid;
	uint64_t	lsn, commit_lsn;
	uint32_t	th_num_items, items, regions, records;
	uint64_t	last_rec_lsn;
	uint64_t	op_bytes;	/* every op header of the tid */
	uint64_t	region_bytes;
	const char	*state;		/* NULL: committed */
	bool		hide;		/* print nothing */
	bool		brief;		/* print tid, lsn and state only */
	bool		any_state;	/* print no state (the decoder may differ) */
};

/* What a buffer item is, for the manifest. */
struct binfo {
	uint32_t	tid, index;
	int64_t		blkno;
	uint32_t	len_bb, flags, map_size, blf_size;
	uint32_t	regions, runs, split_runs;
	uint64_t	dirty_bytes, data_bytes, log_cost;
	uint32_t	nreg;
	uint32_t	reg_off[MAX_IOV], reg_len[MAX_IOV];
	uint32_t	nsplit;
	uint32_t	split_chunk[MAX_IOV];
	bool		hide;
};

struct synth {
	/* options */
	bool		bare, be, unmount;
	int		sb_version, log_version;
	uint32_t	sunit, h_size, logsect, log_bytes, first_cycle;
	/* geometry */
	uint32_t	nblks, hblks, ic_size, roundoff;
	uint8_t		uuid[16];
	uint8_t		*log;
	/* the log head */
	uint32_t	cycle, blk, prev_blk;
	uint64_t	tail_lsn;
	/* the iclog being filled */
	bool		ic_open;
	uint8_t		*ic;
	uint32_t	off, nops, ic_blk, ic_cycle;
	/* what was written */
	struct rec	**recs;
	uint32_t	nrecs, caprecs;
	struct tinfo	trans[MAX_TRANS];
	uint32_t	ntrans;
	struct binfo	*bufs[MAX_TRANS * 4];
	uint32_t	nbufs;
	uint32_t	next_tid;
	uint32_t	nwritten;		/* records synced from iclogs */
	/* expectations the scenario adjusts */
	bool		torn_expected;
	uint32_t	head_override;		/* +1: head_blk expected */
	uint32_t	tail_moved;		/* +1: tail_blk expected */
	const char	*out;
};

struct iov {
	const uint8_t	*p;
	uint32_t	len;		/* payload, a multiple of 4 */
	uint8_t		flags;		/* op flags (START, COMMIT, UNMOUNT) */
	uint8_t		clientid;
};

struct lv {
	uint32_t	n;
	struct iov	v[MAX_IOV];
	uint32_t	ops;		/* op headers written for it */
};

struct item {
	struct lv	lv;
	struct binfo	*buf;		/* buffer items: what the manifest says */
};

/* A buffer log item: which chunks are dirty and how runs are cut. */
struct buf_spec {
	int64_t		blkno;
	uint16_t	len_bb;		/* blf_len */
	uint16_t	flags;		/* blf_flags, buffer type included */
	uint32_t	map[MAP_WORDS];
	uint32_t	cuts[32];	/* chunks where a run is cut (page ends) */
	uint32_t	ncuts;
	/* corruptions */
	bool		set_map_size;
	uint32_t	map_size;	/* blf_map_size as logged */
	bool		set_map_words;
	uint32_t	map_words;	/* words of bitmap in the format region */
	bool		set_blf_size;
	uint16_t	blf_size;
	uint32_t	extra_regions;	/* regions after the map's last */
	uint32_t	drop_regions;	/* regions of the map left out */
	uint16_t	type;		/* 0: XFS_LI_BUF */
};

struct ckpt {
	uint32_t	nitems;
	struct item	*items[MAX_ITEMS];
	bool		no_commit;	/* leave it open */
};

struct scenario {
	const char	*name;
	void		(*run)(struct synth *s);
	const char	*help;
};

/* main.c: errors and memory (everything lives until exit) */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void *zalloc(size_t n);

/* log.c: byte order, records, the in-core log, checkpoints, formatting */
void put_be16(uint8_t *p, uint16_t v);
void put_be32(uint8_t *p, uint32_t v);
void put_be64(uint8_t *p, uint64_t v);
void put_le16(uint8_t *p, uint16_t v);
void put_le32(uint8_t *p, uint32_t v);
void put_le64(uint8_t *p, uint64_t v);
uint32_t get_be32(const uint8_t *p);
uint64_t mklsn(uint32_t cycle, uint32_t blk);
uint32_t rec_total(const struct rec *r);
void rec_emit(struct synth *s, struct rec *r);
uint32_t rec_recrc_phys(struct synth *s, uint32_t blk);
struct rec *ic_sync(struct synth *s);
struct tinfo *tinfo_get(struct synth *s, uint32_t tid);
void ck_add(struct ckpt *c, struct item *it);
void w_commit(struct synth *s, uint32_t tid);
uint32_t w_ckpt(struct synth *s, struct ckpt *c);
struct rec *w_unmount(struct synth *s);
uint32_t w_fill_to(struct synth *s, uint32_t room, int64_t blkno);
void fill_cycle(struct synth *s, uint32_t cycle, uint32_t from, uint32_t to);
void fill_exact(struct synth *s, uint32_t cycle, uint32_t from, uint32_t to);
void format_log(struct synth *s, uint32_t cycle);

/* items.c: items and the buffers the scenarios log */
void put_i16(const struct synth *s, uint8_t *p, uint16_t v);
void put_i32(const struct synth *s, uint8_t *p, uint32_t v);
void set_bits(struct buf_spec *b, uint32_t first, uint32_t n);
uint16_t blft(uint16_t type);
struct item *buf_item(struct synth *s, const struct buf_spec *b);
struct item *odd_item(struct synth *s, uint16_t type);
struct item *b_icluster16(struct synth *s, int64_t blkno);
struct item *b_icluster32(struct synth *s, int64_t blkno);
struct item *b_dir4k(struct synth *s, int64_t blkno);
struct item *b_dir64k(struct synth *s, int64_t blkno);
struct item *b_oddcut(struct synth *s, int64_t blkno);
struct item *b_nocut(struct synth *s, int64_t blkno);
struct item *b_full(struct synth *s, int64_t blkno, uint16_t bb, uint16_t type);
uint32_t small_ckpt(struct synth *s, int64_t blkno);
void twelve(struct synth *s);
struct rec *shown_rec(struct synth *s, uint32_t n);
uint32_t op_offset(const struct rec *r, uint32_t k);
extern const char *const blft_names[];

/* main.c: the image's superblock, as written at byte 0 (BB bytes) */
void write_sb(const struct synth *s, uint8_t *sb);

/* scenarios.c */
extern const struct scenario scenarios[];
extern const size_t nscenarios;

/* manifest.c: the manifest and -C */
void print_manifest(struct synth *s);
int check(const char *manifest, const char *json, const char *kinds);

#endif /* XLS_SYNTH_H */
