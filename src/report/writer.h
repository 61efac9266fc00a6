/*
 * Report stage: a command's output formatted on a thread of its own
 * (writer.c says why and when).  xls_writer_put() hands over field set
 * @fs, to be written by @fn with a copy of its @arg_len bytes of @arg;
 * xls_writer_out() is where the decoding thread writes anything else, in
 * order with what it handed over.  xls_writer_free() writes all first.
 */
#ifndef XLS_WRITER_H
#define XLS_WRITER_H

#include <stdint.h>
#include "report/emit.h"
#include "report/fields.h"

struct xls_writer;

typedef void (*xls_put_fn)(struct xls_out *o, const void *arg, const struct xls_fieldset *fs);

/* A writer to @out (text or JSON: a CSV stream's layout is its own); NULL out of memory. */
struct xls_writer *xls_writer_new(struct xls_out *out);
void xls_writer_free(struct xls_writer *w);
struct xls_out *xls_writer_out(struct xls_writer *w);
void xls_writer_put(struct xls_writer *w, xls_put_fn fn, const void *arg, uint32_t arg_len,
		    const struct xls_fieldset *fs);

#endif /* XLS_WRITER_H */
