/*
 * Report stage: semantics: what lost and files find (describe_semantics.c), as field tables
 * and text: the one place that decides what their fields are called.
 */
#ifndef XLS_DESCRIBE_SEMANTICS_H
#define XLS_DESCRIBE_SEMANTICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "log/log.h"
#include "semantics/lost.h"
#include "files/files.h"
#include "report/emit.h"
#include "report/fields.h"

/* lost: the summary, each entry, inode and what is listed apart. */
void xls_describe_lost_summary(const struct xls_lost_summary *s, struct xls_fieldset *fs);
/* lost's text: the summary's sentences, then the verdict of a log in @state. */
void xls_print_lost_summary(struct xls_out *o, const struct xls_lost_summary *s,
			    enum xls_log_state state);
/* The parts of lost's text after the summary, each a table under its title. */
enum xls_lost_part {
	XLS_LOST_DIRENTS,
	XLS_LOST_INODES,
	XLS_LOST_FOUND,
	XLS_LOST_XATTRS,
	XLS_LOST_NPARTS
};
void xls_print_lost_heading(struct xls_out *o, enum xls_lost_part part);
void xls_print_lost_row(struct xls_out *o, enum xls_lost_part part, const struct xls_fieldset *fs);
/* The last part: what is listed apart, under its title when @first. */
void xls_print_lost_apart(struct xls_out *o, const struct xls_lost_apart *a, bool first);
void xls_describe_lost_dirent(const struct xls_lost_dirent *d, struct xls_fieldset *fs);
void xls_describe_lost_inode(const struct xls_lost_inode *in, struct xls_fieldset *fs);
void xls_describe_lost_xattr(const struct xls_lost_xattr *x, struct xls_fieldset *fs);
void xls_describe_lost_found(const struct xls_lost_found *f, struct xls_fieldset *fs);
void xls_describe_lost_apart(const struct xls_lost_apart *a, struct xls_fieldset *fs);

/*
 * files: one event of an inode; @path when known.  Text: a detail
 * sentence instead of the separate values.
 */
void xls_describe_file_event(const struct xls_file_event *e, const char *path, bool text,
			     struct xls_fieldset *fs);

/* files: an inode that had events, where recovery leaves it. */
void xls_describe_file_summary(const struct xls_file_summary *s, struct xls_fieldset *fs);

#endif /* XLS_DESCRIBE_SEMANTICS_H */
