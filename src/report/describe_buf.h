/*
 * Report stage: buffer items: regions, owners, directory entries, heat-map panels (describe_buf.c), as field tables
 * and text: the one place that decides what their fields are called.
 */
#ifndef XLS_DESCRIBE_BUF_H
#define XLS_DESCRIBE_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "items/item.h"
#include "items/buf_analysis.h"
#include "semantics/owner.h"
#include "semantics/dirent.h"
#include "report/emit.h"
#include "report/fields.h"

/* The fields of bufs: blkno, len, type, ..., log_cost, problems. */
void xls_describe_buf(const struct xls_buf_analysis *ba, struct xls_fieldset *fs);

/*
 * bufs -v: region_list, split_list, data_map and region_lens of @ba,
 * analysed from @it; both must live until @fs is written.
 */
void xls_describe_buf_regions(const struct xls_buf_analysis *ba,
			      const struct xls_item *it, struct xls_fieldset *fs);

/*
 * Who owns a buffer: JSON and CSV owner (kind), btree, agno, owner_ino,
 * ino_first, ino_last, owner_from; text one owner field ("dir 0x83").
 */
void xls_describe_owner(const struct xls_owner *o, bool text, struct xls_fieldset *fs);

/* An entry of a logged region, for a list field. */
struct xls_dirent_field {
	uint32_t	offset;
	uint64_t	ino;
	const char	*name;
};

/*
 * bufs -v: "dirents", the directory entries whole inside logged regions:
 * all of them, as a 64 KiB directory block holds at most 4096 (16 bytes is
 * the smallest entry, xfs_dir2_data_entsize).
 */
#define XLS_DIRENTS_LIST_MAX	4096
void xls_describe_dirents(const struct xls_dirent_field *e, uint32_t n,
			  struct xls_fieldset *fs);
/* bufs --svg: a buffer drawn, the @panel'th. */
struct xls_svg_panel {
	uint32_t	panel;
	int64_t		blkno;
	uint32_t	len;		/* bytes */
	const char	*type;
	uint32_t	appearances;
};
void xls_describe_svg_panel(const struct xls_svg_panel *p, struct xls_fieldset *fs);
void xls_print_svg_panel(struct xls_out *o, const struct xls_svg_panel *p);
/* bufs -v: the directory entries logged in a buffer, a line each, under its regions. */
void xls_print_dirents(struct xls_out *o, const struct xls_dirent_field *d, uint32_t n);

#endif /* XLS_DESCRIBE_BUF_H */
