/*
 * Directory entries (semantics/dirent.c) on hand-made blocks and shortform
 * forks: good ones decoded exactly, hostile ones -- name lengths of 0,
 * entries past the block, tags that lie, free entries of bad lengths,
 * block tails whose count does not fit, shortform counts past the fork --
 * reported, never read past the bytes given, and walks always advance.
 * Random bytes too, under ASan in make check-asan.  The layouts are
 * written here by hand (xfs_da_format.h), not by the code under test.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "semantics/dirent.h"
#include "semantics/names.h"

static const struct xls_geometry G = { .has_ftype = true, .crc = true };

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)(v >> 16)); put16(p + 2, (uint16_t)v); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)(v >> 32)); put32(p + 4, (uint32_t)v); }

/* An entry at @off: inumber, namelen, name, ftype, tag; returns its size. */
static uint32_t entry(uint8_t *b, uint32_t off, uint64_t ino, const char *name)
{
	uint32_t n = (uint32_t)strlen(name), size = (8 + 1 + n + 1 + 2 + 7) & ~7u;

	put64(b + off, ino);
	b[off + 8] = (uint8_t)n;
	memcpy(b + off + 9, name, n);
	b[off + 9 + n] = 1;
	put16(b + off + size - 2, (uint16_t)off);
	return size;
}

static uint32_t unused(uint8_t *b, uint32_t off, uint32_t len)
{
	put16(b + off, 0xffff);
	put16(b + off + 2, (uint16_t)len);
	put16(b + off + len - 2, (uint16_t)off);
	return len;
}

struct seen {
	uint32_t	n;
	uint64_t	ino[16];
	char		name[16][32];
};

static int see(void *ctx, const struct xls_dirent *e)
{
	struct seen *s = ctx;

	if (s->n < 16) {
		uint32_t n = e->namelen < sizeof(s->name[0]) ? e->namelen : sizeof(s->name[0]) - 1;

		s->ino[s->n] = e->ino;
		memcpy(s->name[s->n], e->name, n);
		s->name[s->n][n] = '\0';
	}
	s->n++;
	return 0;
}

/* A 4 KiB XDD3 data block: header, ".", "..", two entries, free space. */
static void data_block(uint8_t *b)
{
	uint32_t off = 64;

	memset(b, 0, 4096);
	put32(b, 0x58444433);
	off += entry(b, off, 0x80, ".");
	off += entry(b, off, 0x80, "..");
	off += entry(b, off, 0x83, "alpha");
	off += entry(b, off, 0x40080, "a-longer-name-here");
	unused(b, off, 4096 - off);
}

static void good(struct tap *t)
{
	uint8_t *b = malloc(4096);
	struct seen s = { 0 };
	uint32_t p;

	data_block(b);
	p = xls_dir_block_walk(&G, b, 4096, see, &s);
	tap_ok(t, p == 0 && s.n == 4 && s.ino[2] == 0x83 && !strcmp(s.name[2], "alpha") &&
	       s.ino[3] == 0x40080 && !strcmp(s.name[3], "a-longer-name-here"),
	       "data block: every entry, in order, problems 0x%x", p);
	memset(&s, 0, sizeof(s));
	/* a logged region of chunk 0 only: the entries whole inside it */
	xls_dir_range_scan(&G, b, 4096, 0, 128, see, &s);
	tap_ok(t, s.n == 3, "range scan of bytes 0..128: the %u entries whole in it", s.n);
	memset(&s, 0, sizeof(s));
	xls_dir_range_scan(&G, b, 4096, 100, 4096, see, &s);
	tap_ok(t, s.n == 1 && s.ino[0] == 0x40080,
	       "range scan from byte 100: only the entry that starts after it (%u)", s.n);
	free(b);
}

static void hostile(struct tap *t)
{
	uint8_t *b = malloc(4096);
	struct seen s = { 0 };
	uint32_t p;

	data_block(b);
	/* ".", ".." 16 bytes each from 64, "alpha" 24 at 96, the long one 32 at 120 */
	b[96 + 8] = 0;				/* alpha's namelen */
	p = xls_dir_block_walk(&G, b, 4096, see, &s);
	tap_ok(t, (p & XLS_DIRP_NAMELEN) && s.n == 2, "name length 0: reported, walk stops (%u)", s.n);

	data_block(b);
	b[96 + 8] = 250;			/* alpha's name past the end */
	memset(&s, 0, sizeof(s));
	p = xls_dir_block_walk(&G, b, 96 + 40, see, &s);
	tap_ok(t, (p & (XLS_DIRP_PAST_END | XLS_DIRP_TAG)) && s.n == 2,
	       "an entry past the block: reported (0x%x)", p);

	data_block(b);
	put16(b + 96 + 22, 1234);		/* alpha's tag: its last 2 bytes */
	memset(&s, 0, sizeof(s));
	p = xls_dir_block_walk(&G, b, 4096, see, &s);
	tap_ok(t, (p & XLS_DIRP_TAG) && s.n == 2, "a tag that is not the entry's offset: reported");

	data_block(b);
	put16(b + 152 + 2, 3);			/* the free entry: 3 bytes long */
	memset(&s, 0, sizeof(s));
	p = xls_dir_block_walk(&G, b, 4096, see, &s);
	tap_ok(t, (p & XLS_DIRP_UNUSED_LEN) && s.n == 4, "a free entry of a bad length: reported");

	data_block(b);
	put32(b, 0x58444233);			/* XDB3 block form, tail count huge */
	put32(b + 4096 - 8, 0x7fffffff);
	memset(&s, 0, sizeof(s));
	p = xls_dir_block_walk(&G, b, 4096, see, &s);
	tap_ok(t, (p & XLS_DIRP_TAIL) && s.n == 0, "block tail count past the block: reported");

	memset(b, 0, 4096);
	memset(&s, 0, sizeof(s));
	p = xls_dir_block_walk(&G, b, 4096, see, &s);
	tap_ok(t, p == XLS_DIRP_MAGIC && s.n == 0, "no magic: not a directory block");
	free(b);
}

static void shortform(struct tap *t)
{
	uint8_t f[64];
	struct seen s = { 0 };
	uint64_t parent;
	uint32_t p, off = 6;

	memset(f, 0, sizeof(f));
	f[0] = 2;				/* count, i8count 0: 4-byte inode numbers */
	put32(f + 2, 0x80);
	f[off] = 1; put16(f + off + 1, 0x60); f[off + 3] = 'a'; f[off + 4] = 1;
	put32(f + off + 5, 0x83);
	off += 9;
	f[off] = 2; put16(f + off + 1, 0x70); f[off + 3] = 'b'; f[off + 4] = 'c'; f[off + 5] = 2;
	put32(f + off + 6, 0x84);
	off += 10;
	p = xls_dir_sf_walk(&G, f, off, &parent, see, &s);
	tap_ok(t, p == 0 && parent == 0x80 && s.n == 2 && s.ino[0] == 0x83 &&
	       !strcmp(s.name[1], "bc") && s.ino[1] == 0x84, "shortform: parent and entries");
	memset(&s, 0, sizeof(s));
	f[0] = 200;
	p = xls_dir_sf_walk(&G, f, off, &parent, see, &s);
	tap_ok(t, (p & XLS_DIRP_SF_COUNT) && s.n == 2, "shortform count past the fork: reported");
	memset(&s, 0, sizeof(s));
	f[0] = 2;
	f[6 + 9] = 60;
	p = xls_dir_sf_walk(&G, f, off, &parent, see, &s);
	tap_ok(t, (p & XLS_DIRP_PAST_END) && s.n == 1, "shortform name past the fork: reported");
	p = xls_dir_sf_walk(&G, f, 3, &parent, see, &s);
	tap_ok(t, p == XLS_DIRP_SF_HDR, "shortform header past the fork: reported");
}

/* Random blocks and forks: never a crash, every walk ends. */
static void random_bytes(struct tap *t)
{
	uint8_t *b = malloc(4096);
	uint64_t parent;
	uint32_t seed = 12345, walks = 0;

	for (int round = 0; round < 20000; round++) {
		struct seen s = { 0 };
		uint32_t len = 8 + (seed % 4088);

		for (uint32_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			b[i] = (uint8_t)(seed >> 16);
		}
		if (round & 1)
			put32(b, (round & 2) ? 0x58444433 : 0x58444233);
		xls_dir_block_walk(&G, b, len, see, &s);
		xls_dir_range_scan(&G, b, len, seed % len, len, see, &s);
		xls_dir_sf_walk(&G, b, len % 512, &parent, see, &s);
		walks++;
	}
	tap_ok(t, walks == 20000, "20000 random blocks and forks walked without a fault");
	free(b);
}

/* A loop in the parent chain: no path, and counted. */
static void loops(struct tap *t)
{
	struct xls_source src = { 0 };
	struct xls_fsview v = { .src = &src };
	struct xls_names m;
	char buf[256], tiny[4];
	size_t len = 7;
	uint64_t stuck = 1;
	bool ok;

	src.geo.root_ino = 0x80;
	src.data_fd = -1;
	xls_names_init(&m, &v);
	xls_names_learn(&m, 0x83, 0x84, (const uint8_t *)"a", 1);
	xls_names_learn(&m, 0x84, 0x83, (const uint8_t *)"b", 1);
	xls_names_learn(&m, 0x85, 0x80, (const uint8_t *)"top", 3);
	ok = xls_names_path(&m, 0x83, buf, sizeof(buf), &len);
	tap_ok(t, !ok && m.loops == 1 && !buf[0] && len == 0,
	       "a loop in the parent chain: no path, counted (%s, length %zu)", buf, len);
	ok = xls_names_path_part(&m, 0x83, NULL, 0, buf, sizeof(buf), &len, &stuck);
	tap_ok(t, !ok && !stuck, "a loop is never named: nothing to wait for");
	ok = xls_names_path(&m, 0x85, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/top") && len == 4, "a chain that reaches the root: %s", buf);
	ok = xls_names_path(&m, 0x85, tiny, sizeof(tiny), &len);
	tap_ok(t, ok && len == strlen(tiny) && len < sizeof(tiny),
	       "a path cut to its buffer: its length is what the buffer holds (%zu)", len);
	ok = xls_names_path(&m, 0x80, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/") && len == 1, "the root is /");
	xls_names_release(&m);
}

/*
 * Paths that stop at an inode with no name yet, entries' own paths, and
 * how sure a name is: an entry seen in place does not replace one the log
 * changed, but names an inode whose name was removed; a removed name is
 * the last one known, and no link where recovery leaves the inode.
 */
static void partial_paths(struct tap *t)
{
	struct xls_source src = { 0 };
	struct xls_fsview v = { .src = &src };
	struct xls_names m;
	char buf[256];
	size_t len;
	uint64_t stuck;
	bool ok;

	src.geo.root_ino = 0x80;
	src.data_fd = -1;
	xls_names_init(&m, &v);
	xls_names_learn(&m, 0x90, 0x85, (const uint8_t *)"f", 1);
	xls_names_learn(&m, 0x85, 0x84, (const uint8_t *)"d", 1);
	ok = xls_names_path_part(&m, 0x90, NULL, 0, buf, sizeof(buf), &len, &stuck);
	tap_ok(t, !ok && stuck == 0x84 && !strcmp(buf, "/d/f") && len == 4,
	       "stops at the unnamed 0x%llx, with what is below it: %s",
	       (unsigned long long)stuck, buf);
	ok = xls_names_path(&m, 0x90, buf, sizeof(buf), &len);
	tap_ok(t, !ok && !buf[0] && !len, "a path that stops is no path");
	ok = xls_names_entry_path(&m, 0x85, (const uint8_t *)"g", 1, buf, sizeof(buf), &len);
	tap_ok(t, !ok && !buf[0], "an entry of a directory not named: no path");
	xls_names_learn(&m, 0x84, 0x80, (const uint8_t *)"top", 3);
	ok = xls_names_entry_path(&m, 0x85, (const uint8_t *)"g", 1, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/top/d/g") && len == 8, "an entry's own path: %s", buf);
	ok = xls_names_entry_path(&m, 0x80, (const uint8_t *)"x", 1, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/x"), "an entry of the root: %s", buf);
	xls_names_learn_weak(&m, 0x90, 0x80, (const uint8_t *)"elsewhere", 9);
	ok = xls_names_path(&m, 0x90, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/top/d/f"), "an entry seen does not replace one the log added");
	/* a hard link: the link seen in place names it once the other goes */
	xls_names_removed(&m, 0x90, 0x85, (const uint8_t *)"f", 1);
	ok = xls_names_final_path(&m, 0x90, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/elsewhere") && len == 10,
	       "a link seen in place names an inode whose other name was removed: %s", buf);
	xls_names_learn_weak(&m, 0x90, 0x84, (const uint8_t *)"third", 5);
	ok = xls_names_path(&m, 0x90, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/elsewhere"), "the name it goes by stays: %s", buf);
	xls_names_removed(&m, 0x90, 0x80, (const uint8_t *)"elsewhere", 9);
	ok = xls_names_path(&m, 0x90, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/top/third"), "then the next link still there: %s", buf);
	xls_names_removed(&m, 0x90, 0x84, (const uint8_t *)"third", 5);
	ok = xls_names_path(&m, 0x90, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/top/third"), "the last link removed is the last known: %s",
	       buf);
	ok = xls_names_final_path(&m, 0x90, buf, sizeof(buf), &len);
	tap_ok(t, !ok, "a removed name is no link where recovery leaves it");
	/* links the log adds: removing the one it goes by leaves the other */
	xls_names_learn(&m, 0x91, 0x80, (const uint8_t *)"a", 1);
	xls_names_learn(&m, 0x91, 0x84, (const uint8_t *)"b", 1);
	ok = xls_names_path(&m, 0x91, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/top/b"), "the newest link added: %s", buf);
	xls_names_removed(&m, 0x91, 0x84, (const uint8_t *)"b", 1);
	ok = xls_names_final_path(&m, 0x91, buf, sizeof(buf), &len);
	tap_ok(t, ok && !strcmp(buf, "/a"), "its removal leaves the first: %s", buf);
	xls_names_release(&m);
}

int main(void)
{
	struct tap t = { 0, 0 };

	good(&t);
	hostile(&t);
	shortform(&t);
	random_bytes(&t);
	loops(&t);
	partial_paths(&t);
	return tap_done(&t);
}
