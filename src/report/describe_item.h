/*
 * Report stage: log items, each decoded (describe_item.c), as field tables
 * and text: the one place that decides what their fields are called.
 */
#ifndef XLS_DESCRIBE_ITEM_H
#define XLS_DESCRIBE_ITEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "items/item.h"
#include "report/emit.h"
#include "report/fields.h"

/*
 * "item" (type name or "unknown"), "type_code", "size", "regions", the
 * family's fields, and "finding" when a check failed (then returns 1).
 */
int xls_describe_item(const struct xls_item_decoded *d, struct xls_fieldset *fs);
/* trans's text line of item @d, the @index'th of its transaction, @fs described. */
void xls_print_item(struct xls_out *o, uint32_t index, const struct xls_item_decoded *d,
		    const struct xls_fieldset *fs);

/* xls_item_decode(), then xls_describe_item(). */
int xls_describe_raw_item(const struct xls_item *it, struct xls_fieldset *fs);

#endif /* XLS_DESCRIBE_ITEM_H */
