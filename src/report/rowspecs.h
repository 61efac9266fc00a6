/*
 * Report stage: the rows of every record kind (rowspecs.c): the columns of
 * each CSV stream, of each text table, and the sections of the reports made
 * of several tables.
 */
#ifndef XLS_ROWSPECS_H
#define XLS_ROWSPECS_H

#include <stddef.h>
#include "report/emit.h"

/* The columns of each CSV stream. */
extern const struct xls_csv_layout xls_csv_info, xls_csv_info_md, xls_csv_records,
	xls_csv_trans, xls_csv_bufs, xls_csv_bufs_stale, xls_csv_stats_types,
	xls_csv_stats_types_stale, xls_csv_ritem, xls_csv_rsummary, xls_csv_rsummary_md,
	xls_csv_appearance, xls_csv_appearance_stale, xls_csv_lost, xls_csv_files,
	xls_csv_files_stale, xls_csv_checkpoints, xls_csv_checkpoints_stale, xls_csv_compare;

/* The text table of each record kind a command prints as a table. */
extern const struct xls_table xls_text_records, xls_text_bufs, xls_text_bufs_stale,
	xls_text_ritem, xls_text_cancel, xls_text_files_events, xls_text_files_files,
	xls_text_checkpoints, xls_text_checkpoints_stale;

/* A report of several tables, each a section (struct xls_section, report/describe_stats.h). */
struct xls_section;
struct xls_sections {
	const struct xls_section	*secs;
	size_t				n;
};
extern const struct xls_sections xls_text_stats, xls_text_compare;

#endif /* XLS_ROWSPECS_H */
