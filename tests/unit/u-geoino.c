/*
 * Inode numbers as xfs_verify_ino takes them (xls_geo_ino_ok): the AG
 * they name, then xfs_agino_range -- the first inode in the first
 * inode-aligned block past the AGFL, the last at the end of the last
 * aligned chunk of the AG, the last AG shorter.  The geometry is the
 * bundled attri and xmi journals' (1 GiB: 4 AGs of 65536 4 KiB blocks,
 * 512-byte inodes, sb_inoalignmt 8, 512-byte sectors); inodes 0, 1 and
 * 0x7fffffff are the ones the kernel 6.18 refused in an ATTRI's pass 2,
 * 64, 127, 128 and 0x80088 ones it took (its pass 3 then found their
 * generations wrong), measured with the log patched.
 */
#include <string.h>

#include "tap.h"
#include "source/source.h"

int main(void)
{
	struct tap t = { 0, 0 };
	struct xls_geometry g;
	const uint64_t ag1 = 1ull << 19;	/* agblklog 16 + inopblog 3 */

	memset(&g, 0, sizeof(g));
	g.block_log = 12;
	g.blocksize = 4096;
	g.ag_blocks = 65536;
	g.ag_count = 4;
	g.ag_block_log = 16;
	g.inopb_log = 3;
	g.inode_align = 8;
	g.data_sect_bbs = 1;
	g.dblocks = 262144;

	tap_ok(&t, !xls_geo_ino_ok(&g, 0), "inode 0: before the first chunk");
	tap_ok(&t, !xls_geo_ino_ok(&g, 1), "inode 1: in the AG headers' block");
	tap_ok(&t, !xls_geo_ino_ok(&g, 63), "inode 63: the block before the first aligned one");
	tap_ok(&t, xls_geo_ino_ok(&g, 64), "inode 64: the first, block 8");
	tap_ok(&t, xls_geo_ino_ok(&g, 127) && xls_geo_ino_ok(&g, 128), "inodes 127, 128");
	tap_ok(&t, xls_geo_ino_ok(&g, ag1 - 1), "AG 0's last inode");
	tap_ok(&t, !xls_geo_ino_ok(&g, ag1), "AG 1's inode 0");
	tap_ok(&t, xls_geo_ino_ok(&g, ag1 + 64) && xls_geo_ino_ok(&g, 0x80088),
	       "AG 1's first inode, and 0x80088");
	tap_ok(&t, xls_geo_ino_ok(&g, 4 * ag1 - 1), "AG 3's last inode");
	tap_ok(&t, !xls_geo_ino_ok(&g, 4 * ag1 + 64), "AG 4: past the AGs");
	tap_ok(&t, !xls_geo_ino_ok(&g, 0x7fffffff), "0x7fffffff: AG 4095");

	/* the last AG 100 blocks short: its last chunk ends at block 65432 */
	g.dblocks = 262144 - 100;
	tap_ok(&t, xls_geo_ino_ok(&g, 3 * ag1 + 65432 * 8 - 1), "the short AG's last inode");
	tap_ok(&t, !xls_geo_ino_ok(&g, 3 * ag1 + 65432 * 8), "past the short AG's last chunk");
	tap_ok(&t, xls_geo_ino_ok(&g, 2 * ag1 + 65536 * 8 - 1), "the AG before it whole");

	/* 1 KiB sectors, no alignment: the AGFL is block 0, inodes from block 1 */
	g.dblocks = 262144;
	g.data_sect_bbs = 2;
	g.inode_align = 1;
	tap_ok(&t, !xls_geo_ino_ok(&g, 7) && xls_geo_ino_ok(&g, 8),
	       "unaligned: the first inode in block 1");
	g.data_sect_bbs = 8;
	tap_ok(&t, !xls_geo_ino_ok(&g, 31) && xls_geo_ino_ok(&g, 32),
	       "4 KiB sectors: the AGFL in block 3, the first inode in block 4");

	/* a geometry not read: nothing is an inode */
	memset(&g, 0, sizeof(g));
	tap_ok(&t, !xls_geo_ino_ok(&g, 64), "no geometry");
	printf("1..%u\n", t.n);
	return t.failed != 0;
}
