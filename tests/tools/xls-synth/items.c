/*
 * xls-synth's items, in the byte order of the machine that wrote them:
 * buffer log items cut into regions as xfs_buf_item_format_segment() does,
 * an item of a type no kernel knows, the buffers and small checkpoints the
 * scenarios log, and the records and ops found again once written.
 */
#include "synth.h"

/* ------------------------------------------------------------------ */
/* items, in the byte order of the machine that wrote them */

void put_i16(const struct synth *s, uint8_t *p, uint16_t v)
{
	if (s->be)
		put_be16(p, v);
	else
		put_le16(p, v);
}
void put_i32(const struct synth *s, uint8_t *p, uint32_t v)
{
	if (s->be)
		put_be32(p, v);
	else
		put_le32(p, v);
}
static void put_i64(const struct synth *s, uint8_t *p, uint64_t v)
{
	if (s->be)
		put_be64(p, v);
	else
		put_le64(p, v);
}

void set_bits(struct buf_spec *b, uint32_t first, uint32_t n)
{
	for (uint32_t c = first; c < first + n; c++)
		b->map[c / 32] |= 1u << (c % 32);
}

static bool map_bit(const uint32_t *map, uint32_t words, uint32_t c)
{
	return c / 32 < words && (map[c / 32] >> (c % 32)) & 1;
}

uint16_t blft(uint16_t type)
{
	return (uint16_t)(type << XFS_BLFT_SHIFT);
}

const char *const blft_names[] = {
	"unknown", "udquot", "pdquot", "gdquot", "btree", "agf", "agfl", "agi",
	"dino", "symlink", "dir_block", "dir_data", "dir_free", "dir_leaf1",
	"dir_leafn", "da_node", "attr_leaf", "attr_rmt", "sb", "rtbitmap",
	"rtsummary",
};

/* Chunk contents: recognisable, different for every chunk and buffer. */
static void fill_chunk(uint8_t *p, int64_t blkno, uint32_t chunk)
{
	for (uint32_t i = 0; i < XFS_BLF_CHUNK; i++)
		p[i] = (uint8_t)(blkno * 31 + chunk * 7 + i);
}

/*
 * xfs_buf_item_format_segment: the format (offsetof(blf_data_map) +
 * map_size words), then one region per run of set bits, cut where the spec
 * says (a run crossing a page of an unmapped buffer, before Linux 6.15).
 */
struct item *buf_item(struct synth *s, const struct buf_spec *b)
{
	struct item *it = zalloc(sizeof(*it));
	struct binfo *bi = zalloc(sizeof(*bi));
	uint32_t chunks = (uint32_t)b->len_bb * BB / XFS_BLF_CHUNK;
	uint32_t need = (chunks + 31) / 32, map_size, words, flen, nreg = 0;
	uint32_t start[MAX_IOV], len[MAX_IOV];
	uint32_t reg_run[MAX_IOV], run = 0;
	uint8_t *f;

	map_size = b->set_map_size ? b->map_size : need;
	words = b->set_map_words ? b->map_words : map_size;
	if (words > MAP_WORDS)
		die("buffer spec: %u map words", words);

	/* regions: runs of the map, cut at the spec's cuts */
	for (uint32_t c = 0; c < need * 32; c++) {
		bool set = map_bit(b->map, need, c);
		bool prev = c > 0 && map_bit(b->map, need, c - 1);
		bool cut = false;

		for (uint32_t k = 0; k < b->ncuts; k++)
			cut |= b->cuts[k] == c;
		if (!set)
			continue;
		if (!prev)
			run++;
		if (!prev || cut) {
			if (nreg == MAX_IOV - 1)
				die("buffer spec: too many regions");
			start[nreg] = c;
			len[nreg] = 0;
			reg_run[nreg] = run;
			nreg++;
		}
		len[nreg - 1]++;
	}
	bi->runs = run;
	for (uint32_t r = 1, n = 1; r <= nreg; r++) {
		/* a run covered by more than one region is a split run */
		if (r < nreg && reg_run[r] == reg_run[r - 1]) {
			if (++n == 2)
				bi->split_runs++;
			bi->split_chunk[bi->nsplit++] = start[r];
		} else {
			n = 1;
		}
	}
	for (uint32_t c = 0; c < need * 32 && c < chunks; c++)
		bi->dirty_bytes += map_bit(b->map, need, c) ? XFS_BLF_CHUNK : 0;
	if (nreg < b->drop_regions)
		die("buffer spec: cannot drop %u of %u regions", b->drop_regions, nreg);
	nreg -= b->drop_regions;

	/* the format region */
	flen = BLF_FIXED + 4 * words;
	f = zalloc(flen);
	put_i16(s, f + BLF(blf_type), b->type ? b->type : XFS_LI_BUF);
	put_i16(s, f + BLF(blf_size), b->set_blf_size ? b->blf_size :
		(uint16_t)(1 + nreg + b->extra_regions));
	put_i16(s, f + BLF(blf_flags), b->flags);
	put_i16(s, f + BLF(blf_len), b->len_bb);
	put_i64(s, f + BLF(blf_blkno), (uint64_t)b->blkno);
	put_i32(s, f + BLF(blf_map_size), map_size);
	for (uint32_t w = 0; w < words; w++)
		put_i32(s, f + BLF_FIXED + 4 * w, w < MAP_WORDS ? b->map[w] : 0);
	it->lv.v[it->lv.n++] = (struct iov){ .p = f, .len = flen, .clientid = XFS_TRANSACTION };

	bi->blkno = b->blkno;
	bi->len_bb = b->len_bb;
	bi->flags = b->flags;
	bi->map_size = map_size;
	bi->log_cost = flen;
	for (uint32_t r = 0; r < nreg + b->extra_regions; r++) {
		uint32_t first = r < nreg ? start[r] : chunks + r;	/* extras: anything */
		uint32_t n = r < nreg ? len[r] : 1;
		uint8_t *d = zalloc((size_t)n * XFS_BLF_CHUNK);

		for (uint32_t c = 0; c < n; c++)
			fill_chunk(d + (size_t)c * XFS_BLF_CHUNK, b->blkno, first + c);
		it->lv.v[it->lv.n++] = (struct iov){
			.p = d, .len = n * XFS_BLF_CHUNK, .clientid = XFS_TRANSACTION };
		if (r < nreg && bi->nreg < MAX_IOV) {
			bi->reg_off[bi->nreg] = first * XFS_BLF_CHUNK;
			bi->reg_len[bi->nreg++] = n * XFS_BLF_CHUNK;
		}
		bi->data_bytes += (uint64_t)n * XFS_BLF_CHUNK;
		bi->log_cost += (uint64_t)n * XFS_BLF_CHUNK;
	}
	bi->regions = nreg + b->extra_regions;
	bi->blf_size = 1 + bi->regions;
	it->buf = bi;
	return it;
}

/* An item of a type no kernel knows: a 16-byte format and one data region. */
struct item *odd_item(struct synth *s, uint16_t type)
{
	struct item *it = zalloc(sizeof(*it));
	uint8_t *f = zalloc(16), *d = zalloc(64);

	put_i16(s, f, type);
	put_i16(s, f + 2, 2);
	put_i32(s, f + 4, 0x5a5a5a5a);
	for (int i = 0; i < 64; i++)
		d[i] = (uint8_t)i;
	it->lv.v[it->lv.n++] = (struct iov){ .p = f, .len = 16, .clientid = XFS_TRANSACTION };
	it->lv.v[it->lv.n++] = (struct iov){ .p = d, .len = 64, .clientid = XFS_TRANSACTION };
	return it;
}

/* ------------------------------------------------------------------ */
/* buffers the scenarios log */

/* A 16 KiB inode cluster buffer (512-byte inodes), unmapped: chunks 30..33
 * dirty, cut at the 4 KiB page boundary (chunk 32) as kernels before 6.15
 * logged it. */
struct item *b_icluster16(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 32,
			      .flags = XFS_BLF_INODE_BUF | blft(XFS_BLFT_DINO_BUF),
			      .cuts = { 32 }, .ncuts = 1 };

	set_bits(&b, 30, 4);
	return buf_item(s, &b);
}

/* A 32 KiB inode cluster: a lone chunk, a run 62..66 cut at 64 (8 KiB) and
 * a run 95..97 cut at 96 (12 KiB). */
struct item *b_icluster32(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 64,
			      .flags = XFS_BLF_INODE_BUF | blft(XFS_BLFT_DINO_BUF),
			      .cuts = { 64, 96 }, .ncuts = 2 };

	set_bits(&b, 0, 1);
	set_bits(&b, 62, 5);
	set_bits(&b, 95, 3);
	return buf_item(s, &b);
}

/* A 4 KiB directory data block: runs {0}, {5..7}, {31}. */
struct item *b_dir4k(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 8,
			      .flags = blft(XFS_BLFT_DIR_DATA_BUF) };

	set_bits(&b, 0, 1);
	set_bits(&b, 5, 3);
	set_bits(&b, 31, 1);
	return buf_item(s, &b);
}

/* A 64 KiB directory block: word 0 = 0xf0f0f0f0, word 15 = 0x80000001. */
struct item *b_dir64k(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 128,
			      .flags = blft(XFS_BLFT_DIR_BLOCK_BUF) };

	b.map[0] = 0xf0f0f0f0u;
	b.map[15] = 0x80000001u;
	return buf_item(s, &b);
}

/* An 8 KiB buffer with a run cut off a page boundary (chunk 12, 1536). */
struct item *b_oddcut(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 16,
			      .flags = blft(XFS_BLFT_ATTR_LEAF_BUF),
			      .cuts = { 12 }, .ncuts = 1 };

	set_bits(&b, 10, 4);
	return buf_item(s, &b);
}

/* An 8 KiB mapped buffer: run 30..33 across 4 KiB, one region (6.15+). */
struct item *b_nocut(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 16,
			      .flags = blft(XFS_BLFT_DA_NODE_BUF) };

	set_bits(&b, 30, 4);
	return buf_item(s, &b);
}

/* A whole buffer of @bb basic blocks, all dirty: one region. */
struct item *b_full(struct synth *s, int64_t blkno, uint16_t bb, uint16_t type)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = bb, .flags = blft(type) };

	set_bits(&b, 0, (uint32_t)bb * BB / XFS_BLF_CHUNK);
	return buf_item(s, &b);
}

/* One small checkpoint: an AGI-like sector and a btree block. */
uint32_t small_ckpt(struct synth *s, int64_t blkno)
{
	struct ckpt c = { 0 };
	struct buf_spec agi = { .blkno = 2, .len_bb = 1, .flags = blft(XFS_BLFT_AGI_BUF) };
	struct buf_spec bt = { .blkno = blkno, .len_bb = 8, .flags = blft(XFS_BLFT_BTREE_BUF) };

	set_bits(&agi, 0, 1);
	set_bits(&bt, 0, 1);
	set_bits(&bt, 3, 2);
	ck_add(&c, buf_item(s, &agi));
	ck_add(&c, buf_item(s, &bt));
	return w_ckpt(s, &c);
}

/* Twelve small checkpoints, one record each: the base of the corruptions. */
void twelve(struct synth *s)
{
	for (int i = 0; i < 12; i++) {
		small_ckpt(s, 0x1000 + 8 * i);
		ic_sync(s);
	}
}

/* The shown record number @n (0-based) in write order. */
struct rec *shown_rec(struct synth *s, uint32_t n)
{
	for (uint32_t i = 0; i < s->nrecs; i++)
		if (s->recs[i]->show && n-- == 0)
			return s->recs[i];
	die("no record %u", n);
}

/* Payload offset of op @k of record @r (walking the ops as written). */
uint32_t op_offset(const struct rec *r, uint32_t k)
{
	uint32_t off = 0;

	for (uint32_t i = 0; i < k; i++)
		off += OPHDR + get_be32(r->data + off + OH(oh_len));
	return off;
}
