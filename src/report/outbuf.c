/*
 * Report stage: the writers' line buffer, what does not belong inline
 * (report/outbuf.h).
 */
#include <stdio.h>

#include "report/outbuf.h"

bool xls_outbuf_spill(struct xls_out *o)
{
	if (o->f)
		fwrite(o->line, 1, o->len, o->f);
	else if (o->sink.bytes)
		o->sink.bytes(o->sink.ctx, o->line, o->len);
	else
		return false;
	o->written += o->len;
	o->len = 0;
	o->line_start = 0;
	o->limit = XLS_LINE_MAX;
	return true;
}
