/*
 * Semantics stage: who owns a logged buffer.  From the block's own header
 * when the log holds it (magic, and on v5 the owner the header records:
 * xfs_dir3_blk_hdr.owner, xfs_da3_blkinfo.owner, bb_owner, sl_owner,
 * rm_owner), else from an earlier item of the same buffer, else -- with
 * the data device at hand -- from the block on disk (v4 blocks carry no
 * owner: their owner comes from the directory or inode that maps them,
 * see names.h), else from the buffer type and the daddr alone (AG
 * headers, inode clusters).
 */
#ifndef XLS_OWNER_H
#define XLS_OWNER_H

#include <stdbool.h>
#include <stdint.h>
#include "base/hashmap.h"
#include "source/source.h"

enum xls_owner_kind {
	XLS_OWN_UNKNOWN,
	XLS_OWN_SB,		/* a superblock (AG 0: the primary) */
	XLS_OWN_AGF,
	XLS_OWN_AGI,
	XLS_OWN_AGFL,
	XLS_OWN_BTREE,		/* btree names which */
	XLS_OWN_INODES,		/* an inode cluster: ino_first..ino_last */
	XLS_OWN_DIR,		/* a directory block of ino */
	XLS_OWN_DA_NODE,	/* a dir or attr da node block of ino */
	XLS_OWN_ATTR,		/* an attr leaf block of ino */
	XLS_OWN_ATTR_RMT,	/* a remote attr value block of ino */
	XLS_OWN_SYMLINK,	/* a remote symlink block of ino */
	XLS_OWN_DQUOT,
	XLS_OWN_COUNT
};

/* Where the owner was read. */
enum xls_owner_from {
	XLS_OWNER_FROM_NONE,
	XLS_OWNER_FROM_LOG,	/* this item logged the header */
	XLS_OWNER_FROM_EARLIER,	/* an earlier item of the buffer logged it */
	XLS_OWNER_FROM_DISK,	/* the block on the data device */
	XLS_OWNER_FROM_TYPE,	/* buffer type and daddr only */
};

struct xls_owner {
	enum xls_owner_kind	kind;
	enum xls_owner_from	from;
	const char		*btree;		/* "bnobt", ...; NULL if none */
	uint32_t		magic;		/* the header's, 0 if not read */
	bool			has_agno;
	uint32_t		agno;
	bool			has_ino;	/* the owning inode (v5 headers) */
	uint64_t		ino;
	uint64_t		ino_first;	/* XLS_OWN_INODES */
	uint64_t		ino_last;
};

/* "sb", "agf", ..., "btree", "inodes", "dir", ... (JSON owner values). */
const char *xls_owner_kind_name(enum xls_owner_kind k);
/* "log", "earlier", "disk", "type". */
const char *xls_owner_from_name(enum xls_owner_from f);

/*
 * Owners of the buffers of one walk of the log, and the headers seen so
 * far.  At most XLS_OWNER_CACHE_MAX buffers are remembered (about 10 MiB);
 * past that, a buffer whose header this item does not log is read from
 * the disk each time.
 */
#define XLS_OWNER_CACHE_MAX	(1u << 18)

struct xls_owner_map {
	const struct xls_source	*src;		/* NULL or no data device: no reads */
	struct xls_hashmap	idx;		/* (blkno, len) -> owners[] */
	struct xls_owner	*owners;
	uint32_t		n, cap;
	uint64_t		disk_reads;
};

void xls_owner_map_init(struct xls_owner_map *m, const struct xls_source *src);
void xls_owner_map_release(struct xls_owner_map *m);

/*
 * The owner of the buffer at @blkno of @len_bb blocks and type @blft, given
 * @head, its first @head_len bytes as this item leaves them (NULL when it
 * does not log chunk 0).  Never fails: an owner it cannot tell is
 * XLS_OWN_UNKNOWN.
 */
void xls_owner_of(struct xls_owner_map *m, int64_t blkno, uint32_t len_bb,
		  unsigned int blft, const uint8_t *head, uint32_t head_len,
		  struct xls_owner *out);

/*
 * Identify a block by its first @len bytes alone (no cache, no reads):
 * false when no known magic is there.
 */
bool xls_owner_from_header(const struct xls_geometry *g, int64_t blkno,
			   uint32_t len_bb, const uint8_t *head, uint32_t len,
			   struct xls_owner *out);

struct xls_item;
struct xls_buf_analysis;
/*
 * xls_owner_of() for buffer item @it as @ba analysed it: the head is
 * the logged region placed at offset 0, if any.
 */
void xls_owner_of_item(struct xls_owner_map *m, const struct xls_item *it,
		       const struct xls_buf_analysis *ba, struct xls_owner *out);

/* Remember the header @it logs, if any, without resolving an owner. */
void xls_owner_note_item(struct xls_owner_map *m, const struct xls_item *it,
			 const struct xls_buf_analysis *ba);

struct xls_item_decoded;
/*
 * Does item @d (decoded from @it) concern inode @ino: an inode item of it,
 * a buffer it owns or its cluster (@ba is scratch for the analysis), an
 * attr, bmap or exchange intent on it, a parent pointer naming it as the
 * parent, an icreate of its chunk?
 */
bool xls_item_concerns_ino(struct xls_owner_map *m, const struct xls_item *it,
			   const struct xls_item_decoded *d,
			   struct xls_buf_analysis *ba, uint64_t ino);

/* Does the buffer concern inode @ino (its owner, or the cluster holding it)? */
bool xls_owner_has_ino(const struct xls_owner *o, uint64_t ino);

/* The inode number of the first inode of the cluster buffer at @blkno. */
uint64_t xls_daddr_to_ino(const struct xls_geometry *g, int64_t blkno);
/* The daddr of the inode cluster buffer that holds @ino; -1 if unknown. */
int64_t xls_ino_cluster_daddr(const struct xls_geometry *g, uint64_t ino,
			      uint32_t *boffset);

/* "dir 0x83", "inodes 0x80-0x9f", "bnobt AG 1", "agf AG 0" into @buf. */
void xls_owner_str(const struct xls_owner *o, char *buf, size_t bufsz);

#endif /* XLS_OWNER_H */
