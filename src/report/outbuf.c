/*
 * Report stage: the writers' line buffer, what does not belong inline
 * (report/outbuf.h).
 */
#include <stdio.h>

#include "report/outbuf.h"

bool xls_outbuf_spill(struct xls_out *o)
{
	if (!o->f)
		return false;
	fwrite(o->line, 1, o->len, o->f);
	o->written += o->len;
	o->len = 0;
	o->line_start = 0;
	o->limit = XLS_LINE_MAX;
	return true;
}
