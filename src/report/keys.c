/*
 * Report stage: the keys of report/keys.def, defined.
 */
#include <stddef.h>

#include "report/keys.h"

/* ,"name": must fit its array whole: C would only warn and cut it */
#define XLS_KEY(name, kind, unit, heading) \
	_Static_assert(sizeof(#name) + 3 <= XLS_KEY_TEXT, "key " #name " is too long"); \
	const struct xls_key_##kind XK_##name = \
		{ XLS_KEY_INIT(#name, XLS_UNIT_##unit, heading), 0 };
#define XLS_RECORD(name)	const struct xls_record_kind XR_##name = { #name };
#include "report/keys.def"
#undef XLS_KEY
#undef XLS_RECORD
