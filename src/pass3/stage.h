/*
 * Pass 3 stage: what pass 3 writes, staged.  Each write libxfs makes is
 * kept, in order, in a temporary file the caller gives, and not made on
 * the devices: the replay stage then logs it before it writes it (the
 * kernel's order: a pass-3 checkpoint in the log before the blocks it
 * covers), or writes nothing when pass 3 refuses its own result.  libxfs
 * reads through the stage and sees its own writes.
 *
 * The file: records, each a struct xls_stage_rec then its bytes, with the
 * pass-3 checkpoint whose LSN they were stamped with.  A block written
 * twice has two records, the last what pass 3 leaves.  Ranges the kernel
 * never writes (stale inode clusters) come as records of no bytes, ckpt
 * XLS_STAGE_STALE.
 */
#ifndef XLS_PASS3_STAGE_H
#define XLS_PASS3_STAGE_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "base/inomap.h"

enum { XLS_STAGE_DATA, XLS_STAGE_LOG };		/* the devices: data, external log */

#define XLS_STAGE_STALE	0xffu

struct xls_stage_rec {
	uint64_t	off;		/* byte offset on the device */
	uint64_t	len;		/* bytes that follow (none for a stale range) */
	uint8_t		dev;		/* XLS_STAGE_DATA or XLS_STAGE_LOG */
	uint8_t		ckpt;		/* the pass-3 checkpoint of its LSN (0, 1, ...), or XLS_STAGE_STALE */
	uint8_t		pad[6];
};

/* The stage, in the child that runs libxfs. */
struct xls_stage {
	int		fd;		/* the stage file */
	uint64_t	end;		/* its length */
	int		dev_fd[2];	/* the devices as the caller opened them (-1: none) */
	struct stat	st[2];		/* ... their identities: libxfs opens its own */
	struct xls_inomap sect;		/* (dev, 512-byte sector) -> where its last bytes are */
};

/* A stage into file @fd for the devices @data_fd and @log_fd (-1). 0, or -1 with errno. */
int xls_stage_init(struct xls_stage *st, int fd, int data_fd, int log_fd);
void xls_stage_release(struct xls_stage *st);

/* Which device @fd is (XLS_STAGE_DATA, XLS_STAGE_LOG), or -1 for neither. */
int xls_stage_dev(const struct xls_stage *st, int fd);

/*
 * @len bytes at @off of @dev staged, stamped with pass-3 checkpoint
 * @ckpt's LSN. 0, or -1 with errno (EINVAL: not in whole sectors).
 */
int xls_stage_write(struct xls_stage *st, int dev, uint64_t off, const void *buf, size_t len,
		    uint32_t ckpt);

/* What is staged of @dev's @len bytes at @off laid over @buf. 0, or -1 with errno. */
int xls_stage_overlay(const struct xls_stage *st, int dev, uint64_t off, void *buf, size_t len);

/* The data device's @len bytes at @off never to be written. 0, or -1 with errno. */
int xls_stage_stale(struct xls_stage *st, uint64_t off, uint64_t len);

#endif /* XLS_PASS3_STAGE_H */
