/*
 * Source stage: xfs_metadump files, v1 ('XFSM' index blocks) and v2
 * ('XMD2' header, extent headers), indexed in one pass: plain ones read
 * in place, compressed ones through the spool (spool.h).
 */
#ifndef XLS_METADUMP_H
#define XLS_METADUMP_H

#include <stdbool.h>
#include <stdint.h>
#include "base/err.h"
#include "source/extmap.h"
#include "source/spool.h"

/* What a metadump says of itself and what it holds; info reports it. */
struct xls_metadump_info {
	uint32_t	version;	/* 1 or 2; 0: not a metadump */
	bool		flags_known;	/* v1 without XFS_METADUMP_INFO_FLAGS: false */
	bool		obfuscated;	/* names and attribute values obfuscated */
	bool		full_blocks;	/* -a: blocks copied whole, stale bytes kept */
	bool		dirty_log;	/* the log was dirty, so copied as it was */
	bool		external_log;	/* v2: the external log travels in the file */
	bool		rt_device;	/* v2: realtime device blocks too (not read) */
	bool		log_cleared;	/* a clean log xfs_metadump replaced by an empty one */
	uint64_t	extents;	/* of the index, adjacent ones merged */
	uint64_t	bytes;		/* bytes of blocks carried, every device */
	uint64_t	overlap_bytes;	/* bytes carried twice or more: the later copy is read */
};

struct xls_metadump {
	struct xls_metadump_info info;
	struct xls_extmap	*data;	/* the data device */
	struct xls_extmap	*log;	/* v2 with an external log, else NULL */
	uint64_t		data_bytes;	/* sb_dblocks * sb_blocksize */
	uint64_t		log_bytes;	/* external log: sb_logblocks * sb_blocksize */
};

/* Is @p (@n bytes) the start of a metadump?  Its version, or 0. */
unsigned int xls_metadump_magic(const uint8_t *p, size_t n);

/*
 * Index the metadump that is @fd (@size bytes) read in place, or, with
 * @zin, the one that stream decompresses to (spooled).  The maps read
 * from @fd, or from the spool once xls_zin_finish() hands it over.  0, or
 * -1 with @err set (one sentence naming @path and the byte offset).
 */
int xls_metadump_open(struct xls_metadump *md, int fd, uint64_t size,
		      struct xls_zin *zin, const char *path, struct xls_error *err);

/* Set the file the maps read (the spool's descriptor, after xls_zin_finish). */
void xls_metadump_set_fd(struct xls_metadump *md, int fd);

void xls_metadump_release(struct xls_metadump *md);

#endif /* XLS_METADUMP_H */
