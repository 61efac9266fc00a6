/*
 * The superblock geometry the kernel refuses (xfs_validate_sb_common):
 * a good superblock, as mkfs.xfs lays out a 512 MiB filesystem, then one
 * field at a time set to a value the kernel's check names, each refused,
 * and the edges it allows, each accepted.  The offsets are the on-disk
 * ones (xfs_ondisk.h), written here by hand, not taken from libxfs.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "source/source.h"

#define OFF_MAGIC	0	/* sb_magicnum */
#define OFF_BLOCKSIZE	4	/* sb_blocksize */
#define OFF_DBLOCKS	8	/* sb_dblocks */
#define OFF_AGBLOCKS	84	/* sb_agblocks */
#define OFF_AGCOUNT	88	/* sb_agcount */
#define OFF_SECTSIZE	102	/* sb_sectsize */
#define OFF_INODESIZE	104	/* sb_inodesize */
#define OFF_INOPBLOCK	106	/* sb_inopblock */
#define OFF_BLOCKLOG	120	/* sb_blocklog */
#define OFF_SECTLOG	121	/* sb_sectlog */
#define OFF_INODELOG	122	/* sb_inodelog */
#define OFF_INOPBLOG	123	/* sb_inopblog */

static void put(uint8_t *sb, size_t off, uint64_t v, unsigned int bytes)
{
	for (unsigned int i = 0; i < bytes; i++)
		sb[off + i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

/* 4 AGs of 32768 blocks of 4 KiB, 512-byte sectors and inodes: mkfs.xfs of 512 MiB */
static void good(uint8_t *sb)
{
	memset(sb, 0, 512);
	put(sb, OFF_MAGIC, 0x58465342, 4);
	put(sb, OFF_BLOCKSIZE, 4096, 4);
	put(sb, OFF_DBLOCKS, 131072, 8);
	put(sb, OFF_AGBLOCKS, 32768, 4);
	put(sb, OFF_AGCOUNT, 4, 4);
	put(sb, OFF_SECTSIZE, 512, 2);
	put(sb, OFF_INODESIZE, 512, 2);
	put(sb, OFF_INOPBLOCK, 8, 2);
	sb[OFF_BLOCKLOG] = 12;
	sb[OFF_SECTLOG] = 9;
	sb[OFF_INODELOG] = 9;
	sb[OFF_INOPBLOG] = 3;
}

struct u_case {
	const char	*what;
	size_t		off;
	uint64_t	v;
	unsigned int	bytes;
	bool		refused;
};

static const struct u_case cases[] = {
	{ "bad magic", OFF_MAGIC, 0x58465343, 4, true },
	{ "block size not a power of 2", OFF_BLOCKSIZE, 4095, 4, true },
	{ "block size 128 KiB", OFF_BLOCKSIZE, 131072, 4, true },
	{ "block log disagrees", OFF_BLOCKLOG, 13, 1, true },
	{ "sector size 256", OFF_SECTSIZE, 256, 2, true },
	{ "sector log disagrees", OFF_SECTLOG, 10, 1, true },
	{ "inode size 128", OFF_INODESIZE, 128, 2, true },
	{ "inode size 4096", OFF_INODESIZE, 4096, 2, true },
	{ "inode log disagrees", OFF_INODELOG, 10, 1, true },
	{ "inodes per block disagree", OFF_INOPBLOCK, 16, 2, true },
	{ "inodes-per-block log 167 (fuzz: a shift past 64 bits)", OFF_INOPBLOG, 167, 1, true },
	{ "AG of 8 MiB (under XFS_MIN_AG_BYTES)", OFF_AGBLOCKS, 2048, 4, true },
	{ "no AGs", OFF_AGCOUNT, 0, 4, true },
	{ "one AG fewer than the blocks need", OFF_AGCOUNT, 3, 4, true },
	{ "one AG more than the blocks fill", OFF_AGCOUNT, 5, 4, true },
	{ "2^32-1 AGs", OFF_AGCOUNT, 0xffffffff, 4, true },
	{ "no blocks", OFF_DBLOCKS, 0, 8, true },
	{ "the last AG under 64 blocks", OFF_DBLOCKS, 3 * 32768 + 63, 8, true },
	{ "the last AG of 64 blocks", OFF_DBLOCKS, 3 * 32768 + 64, 8, false },
	{ "the last AG full", OFF_DBLOCKS, 4 * 32768, 8, false },
	{ "one block past the AGs", OFF_DBLOCKS, 4 * 32768 + 1, 8, true },
	{ "AG of 16 MiB (XFS_MIN_AG_BYTES)", OFF_AGBLOCKS, 4096, 4, true /* dblocks then too many */ },
};

int main(void)
{
	struct tap t = { 0, 0 };
	uint8_t sb[512];

	good(sb);
	tap_ok(&t, xls_sb_geometry_refused(sb) == NULL, "mkfs.xfs's 512 MiB geometry is accepted");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct u_case *c = &cases[i];
		const char *why;

		good(sb);
		put(sb, c->off, c->v, c->bytes);
		why = xls_sb_geometry_refused(sb);
		tap_ok(&t, (why != NULL) == c->refused, "%s: %s%s%s", c->what,
		       c->refused ? "refused" : "accepted", why ? ", says: " : "", why ? why : "");
	}
	/* 16 MiB AGs, 32 of them: the smallest AG the kernel takes */
	good(sb);
	put(sb, OFF_AGBLOCKS, 4096, 4);
	put(sb, OFF_AGCOUNT, 32, 4);
	tap_ok(&t, xls_sb_geometry_refused(sb) == NULL, "32 AGs of 16 MiB accepted");
	/* 1 TiB AGs of 64 KiB blocks: the largest */
	good(sb);
	put(sb, OFF_BLOCKSIZE, 65536, 4);
	sb[OFF_BLOCKLOG] = 16;
	put(sb, OFF_INOPBLOCK, 128, 2);
	sb[OFF_INOPBLOG] = 7;
	put(sb, OFF_AGBLOCKS, 1u << 24, 4);
	put(sb, OFF_AGCOUNT, 2, 4);
	put(sb, OFF_DBLOCKS, 2ull << 24, 8);
	tap_ok(&t, xls_sb_geometry_refused(sb) == NULL, "2 AGs of 1 TiB accepted");
	put(sb, OFF_AGBLOCKS, (1u << 24) + 1, 4);
	tap_ok(&t, xls_sb_geometry_refused(sb) != NULL, "an AG one block over 1 TiB refused");
	printf("1..%u\n", t.n);
	return t.failed != 0;
}
