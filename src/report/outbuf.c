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

bool xls_outbuf_render_key(struct xls_key_slot *k, bool json)
{
	size_t n = strlen(k->key);
	char *p = k->text;

	memset(k->text, 0, sizeof(k->text));
	k->json = json;
	if (n + (json ? 4 : 1) > sizeof(k->text)) {
		k->len = 255;
		return false;
	}
	if (json) {
		*p++ = ',';
		*p++ = '"';
	}
	memcpy(p, k->key, n);
	p += n;
	if (json)
		*p++ = '"';
	*p++ = json ? ':' : '=';
	k->len = (uint8_t)(p - k->text);
	return true;
}
