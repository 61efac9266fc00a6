/*
 * Report stage, SVG writer: heat maps of dirty 128-byte chunks.  One panel
 * per buffer: a column per chunk (across), a row per appearance of the
 * buffer in the log (down, in log order), a strip below counting how often
 * each chunk was dirty, axes in bytes and transactions, and a legend.
 * Self-contained SVG 1.1 with no script, so any browser renders it.
 */
#ifndef XLS_SVG_H
#define XLS_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "base/ondisk.h"

/* How a row is coloured: what recovery does with that appearance. */
enum xls_heat_kind {
	XLS_HEAT_DIRTY,		/* no decision drawn (bufs) */
	XLS_HEAT_REPLAY,	/* replayed, LSN checked */
	XLS_HEAT_ALWAYS,	/* replayed without an LSN check */
	XLS_HEAT_SKIP_LSN,	/* skipped: the block is newer */
	XLS_HEAT_CANCELLED,	/* skipped: cancelled later */
	XLS_HEAT_CANCEL,	/* a cancel record: the whole row is marked */
	XLS_HEAT_DISCARDED,	/* no commit record */
	XLS_HEAT_FAIL,		/* recovery fails on it */
	XLS_HEAT_NKINDS
};

struct xls_heat_row {
	uint64_t	lsn;
	uint32_t	tid;
	uint32_t	seq;		/* label: transaction number, 0 = none */
	uint8_t		kind;		/* enum xls_heat_kind */
	uint32_t	nchunks;	/* this appearance's length / 128 */
	uint32_t	map[XFS_BLF_DATAMAP_SIZE];	/* dirty chunk bits */
};

struct xls_heat_panel {
	char			title[160];
	uint32_t		nchunks;	/* columns: the buffer's length / 128 */
	uint32_t		nrows;
	const struct xls_heat_row *rows;
};

/* @s as XML character data (&, <, >, " escaped). */
void xls_svg_xml_text(FILE *f, const char *s);

/*
 * Write the heat map of @npanels panels to @f under @title.  @decisions
 * colours rows by kind and draws that legend; otherwise every dirty chunk
 * has one colour.  Returns 0, or -1 when writing failed.
 */
int xls_svg_heatmap(FILE *f, const char *title, const struct xls_heat_panel *panels,
		    unsigned int npanels, bool decisions);

#endif /* XLS_SVG_H */
