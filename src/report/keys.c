/*
 * Report stage: the keys of report/keys.def, defined.
 */
#include <stddef.h>

#include "report/keys.h"

#define XLS_KEY(name, kind, heading) \
	const struct xls_key_##kind XK_##name = { { #name, heading }, 0 };
#include "report/keys.def"
#undef XLS_KEY
