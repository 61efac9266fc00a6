/*
 * Analysis stage: where the bytes of the log records go, the categories
 * stats sums over the log and checkpoints over each checkpoint.  They add
 * up to the records' blocks, headers included.
 */
#ifndef XLS_LOGBYTES_H
#define XLS_LOGBYTES_H

enum xls_byte_category {
	XLS_BYTES_RECORD_HEADERS,
	XLS_BYTES_EXT_HEADERS,
	XLS_BYTES_OP_HEADERS,
	XLS_BYTES_TRANS_HEADERS,
	XLS_BYTES_ITEM_FORMATS,
	XLS_BYTES_BUFFER_DATA,
	XLS_BYTES_OTHER_ITEM_DATA,
	XLS_BYTES_UNMOUNT_UNTRACKED,
	XLS_BYTES_UNUSED,
	XLS_BYTES_PADDING,
	XLS_BYTES_NCATEGORIES
};

/* "record_headers", ... (stats.c) */
const char *xls_byte_category_name(enum xls_byte_category c);

#endif /* XLS_LOGBYTES_H */
