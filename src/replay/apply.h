/*
 * Replay stage: what a replayed buffer item writes into the buffer, the
 * one place every writer of replayed blocks (history's image, the overlay
 * of lost and files, replay's output) takes it from.
 */
#ifndef XLS_APPLY_H
#define XLS_APPLY_H

#include <stdbool.h>
#include <stdint.h>
#include "recover/recover.h"
#include "source/source.h"

/*
 * Buffer item @rb replayed into @img (@bytes, the buffer from its daddr):
 * an inode buffer's di_next_unlinked fields and, on v5, those inodes'
 * CRCs (xlog_recover_do_inode_buffer); any other buffer's logged regions
 * where recovery places them (xlog_recover_do_reg_buffer), when @rb
 * carries its logged bytes.
 */
void xls_apply_buf(const struct xls_geometry *g, const struct xls_rbuf *rb, uint8_t *img,
		   uint64_t bytes);

#endif /* XLS_APPLY_H */
