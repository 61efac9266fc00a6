#include <errno.h>
#include <string.h>

#include "semantics/lostlist.h"

/* A list's record: the fixed part, then its bytes, 8-aligned. */
struct kept_dirent {
	uint64_t	dir, ino;
	uint32_t	len;		/* of the name, a NUL after it */
	bool		add;
};

struct kept_inode {
	uint64_t	ino;
	uint16_t	mode, fields;
	uint32_t	nchanges;
	uint8_t		what;		/* enum xls_lost_what */
	bool		dzero;		/* no disk values: all 0 */
};

static const char *const what_names[] = {
	[XLS_LOST_CHANGED] = "changed", [XLS_LOST_CREATED] = "created", [XLS_LOST_FREED] = "freed",
};

static uint32_t round8(uint64_t n)
{
	return (uint32_t)((n + 7u) & ~(uint64_t)7u);
}

void xls_lost_lists_init(struct xls_lost_lists *ll)
{
	memset(ll, 0, sizeof(*ll));
	xls_spillpool_init(&ll->dirents, XLS_LOST_LIST_MEM);
	xls_spillpool_init(&ll->inodes, XLS_LOST_LIST_MEM);
}

void xls_lost_lists_free(struct xls_lost_lists *ll)
{
	xls_spillpool_free(&ll->dirents);
	xls_spillpool_free(&ll->inodes);
}

int xls_lost_lists_add_dirent(struct xls_lost_lists *ll, uint64_t dir, uint64_t ino,
			      const uint8_t *name, uint32_t len, bool add)
{
	struct kept_dirent kd = { .dir = dir, .ino = ino, .len = len, .add = add };
	uint32_t off;
	uint8_t *p = len < UINT32_MAX / 2 ?
		     xls_spillpool_add(&ll->dirents, NULL, round8(sizeof(kd) + (uint64_t)len + 1),
				       &off) : NULL;

	if (!p)
		return -ENOMEM;
	memcpy(p, &kd, sizeof(kd));
	memcpy(p + sizeof(kd), name, len);
	ll->ndirents++;
	return 0;
}

int xls_lost_lists_add_inode(struct xls_lost_lists *ll, uint64_t ino, uint16_t mode,
			     uint16_t fields, uint32_t n, enum xls_lost_what what,
			     const uint64_t *disk, const uint64_t *recovered)
{
	struct kept_inode ki = {
		.ino = ino, .mode = mode, .fields = fields, .nchanges = n, .what = (uint8_t)what,
		.dzero = !disk,
	};
	size_t values = sizeof(uint64_t) * n;
	uint32_t off;
	uint8_t *p = n <= 64 ? xls_spillpool_add(&ll->inodes, NULL, (uint32_t)(sizeof(ki) +
					values * (disk ? 2u : 1u)), &off) : NULL;

	if (!p)
		return -ENOMEM;
	memcpy(p, &ki, sizeof(ki));
	p += sizeof(ki);
	if (disk) {
		memcpy(p, disk, values);
		p += values;
	}
	memcpy(p, recovered, values);
	ll->ninodes++;
	return 0;
}

bool xls_lost_lists_next_dirent(struct xls_lost_lists *ll, struct xls_lost_cursor *c,
				struct xls_lost_dirent *d)
{
	struct kept_dirent kd;
	const uint8_t *p;

	if (c->i >= ll->ndirents)
		return false;
	p = xls_spillpool_at(&ll->dirents, c->off, sizeof(kd));
	if (!p) {
		ll->read_failed = true;
		return false;
	}
	memcpy(&kd, p, sizeof(kd));
	*d = (struct xls_lost_dirent){
		.dir = kd.dir, .ino = kd.ino, .add = kd.add,
		.name = (const char *)p + sizeof(kd), .dir_path = NULL,
	};
	c->off += round8(sizeof(kd) + (uint64_t)kd.len + 1);
	c->i++;
	return true;
}

bool xls_lost_lists_next_inode(struct xls_lost_lists *ll, struct xls_lost_cursor *c,
			       struct xls_lost_inode *in)
{
	struct kept_inode ki;
	const uint64_t *values;
	const uint8_t *p;

	if (c->i >= ll->ninodes)
		return false;
	p = xls_spillpool_at(&ll->inodes, c->off, sizeof(ki));
	if (!p) {
		ll->read_failed = true;
		return false;
	}
	memcpy(&ki, p, sizeof(ki));
	/* the pool's adds are 8-aligned, and so is what follows the fixed part */
	values = (const uint64_t *)(p + sizeof(ki));
	*in = (struct xls_lost_inode){
		.ino = ki.ino, .what = what_names[ki.what % 3], .path = NULL, .mode = ki.mode,
		.fields = ki.fields, .nchanges = ki.nchanges,
		.disk = ki.dzero ? NULL : values,
		.recovered = values + (ki.dzero ? 0 : ki.nchanges),
	};
	c->off += (uint32_t)(sizeof(ki) + sizeof(uint64_t) * ki.nchanges * (ki.dzero ? 1u : 2u));
	c->i++;
	return true;
}

int xls_lost_lists_error(const struct xls_lost_lists *ll, struct xls_error *err)
{
	const struct xls_spillpool *sp = ll->dirents.error ? &ll->dirents : &ll->inodes;

	if (!ll->read_failed)
		return 0;
	return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot read back the entries and inodes "
			     "kept in a temporary file in %s: %s", sp->dir ? sp->dir : "$TMPDIR",
			     strerror(sp->error ? sp->error : EIO));
}
