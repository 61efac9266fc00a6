/*
 * Report stage: the keys of report/keys.def, defined.
 */
#include "report/keys.h"

#define XLS_KEY(name, kind)	const struct xls_key_##kind XK_##name = { { #name }, 0 };
#include "report/keys.def"
#undef XLS_KEY
