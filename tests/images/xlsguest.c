// SPDX-License-Identifier: GPL-2.0
/*
 * xlsguest - what busybox cannot do, for the workloads run under a foreign
 * kernel (tests/images/guest-journal.sh; mkbe.sh, mki386.sh): write
 * fragmented files, reflink, CoW-overwrite, and shut the filesystem down
 * (XFS_IOC_GOINGDOWN) while intents are in flight.  Built static for the
 * guest: s390x-linux-gnu-gcc -static, i686-linux-gnu-gcc -static.
 *
 *   xlsguest frag FILE MIB            4 KiB of 'q' at every 8 KiB up to MIB
 *                                     MiB (one extent per 4 KiB), fsync
 *   xlsguest pwrite FILE OFF LEN BYTE write LEN bytes of BYTE at OFF, fsync
 *                                     (OFF, LEN in bytes; k and m suffixes)
 *   xlsguest clone SRC DST            FICLONE SRC into DST (created), fsync
 *   xlsguest clonerange SRC DST SOFF LEN DOFF
 *                                     FICLONERANGE, fsync
 *   xlsguest truncate FILE LEN        ftruncate (no fsync)
 *   xlsguest fsync FILE...            open read-only and fsync each
 *   xlsguest msleep MS                sleep MS milliseconds
 *   xlsguest down MNT [FLAGS]         XFS_IOC_GOINGDOWN on MNT; FLAGS 1 =
 *                                     XFS_FSOP_GOING_FLAGS_LOGFLUSH (the
 *                                     default, as xfs_io's shutdown -f),
 *                                     2 = NOLOGFLUSH
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#ifndef FICLONE
#define FICLONE _IOW(0x94, 9, int)
#endif
#ifndef FICLONERANGE
struct file_clone_range {
	int64_t src_fd;
	uint64_t src_offset, src_length, dest_offset;
};
#define FICLONERANGE _IOW(0x94, 13, struct file_clone_range)
#endif
#define XFS_IOC_GOINGDOWN _IOR('X', 125, uint32_t)

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "xlsguest: %s %s: %s\n", what, arg ? arg : "", strerror(errno));
	exit(1);
}

static long long num(const char *s)
{
	char *e;
	long long v = strtoll(s, &e, 0);

	if (*e == 'k' || *e == 'K')
		v <<= 10;
	else if (*e == 'm' || *e == 'M')
		v <<= 20;
	return v;
}

static void wfsync(int fd, const char *name)
{
	if (fsync(fd))
		die("fsync", name);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int fd, sfd;

	if (!strcmp(cmd, "frag") && argc == 4) {
		static char buf[4096];
		long long end = num(argv[3]) << 20, o;

		memset(buf, 'q', sizeof(buf));
		fd = open(argv[2], O_WRONLY | O_CREAT, 0644);
		if (fd < 0)
			die("open", argv[2]);
		for (o = 0; o < end; o += 8192)
			if (pwrite(fd, buf, sizeof(buf), o) != sizeof(buf))
				die("pwrite", argv[2]);
		wfsync(fd, argv[2]);
	} else if (!strcmp(cmd, "pwrite") && argc == 6) {
		long long off = num(argv[3]), len = num(argv[4]);
		char *buf = malloc(len);

		if (!buf)
			die("malloc", NULL);
		memset(buf, (int)num(argv[5]), len);
		fd = open(argv[2], O_WRONLY | O_CREAT, 0644);
		if (fd < 0)
			die("open", argv[2]);
		if (pwrite(fd, buf, len, off) != len)
			die("pwrite", argv[2]);
		wfsync(fd, argv[2]);
	} else if (!strcmp(cmd, "clone") && argc == 4) {
		sfd = open(argv[2], O_RDONLY);
		fd = open(argv[3], O_WRONLY | O_CREAT, 0644);
		if (sfd < 0 || fd < 0)
			die("open", argv[sfd < 0 ? 2 : 3]);
		if (ioctl(fd, FICLONE, sfd))
			die("FICLONE", argv[3]);
		wfsync(fd, argv[3]);
	} else if (!strcmp(cmd, "clonerange") && argc == 7) {
		struct file_clone_range r;

		sfd = open(argv[2], O_RDONLY);
		fd = open(argv[3], O_WRONLY | O_CREAT, 0644);
		if (sfd < 0 || fd < 0)
			die("open", argv[sfd < 0 ? 2 : 3]);
		r.src_fd = sfd;
		r.src_offset = num(argv[4]);
		r.src_length = num(argv[5]);
		r.dest_offset = num(argv[6]);
		if (ioctl(fd, FICLONERANGE, &r))
			die("FICLONERANGE", argv[3]);
		wfsync(fd, argv[3]);
	} else if (!strcmp(cmd, "truncate") && argc == 4) {
		fd = open(argv[2], O_WRONLY);
		if (fd < 0)
			die("open", argv[2]);
		if (ftruncate(fd, num(argv[3])))
			die("ftruncate", argv[2]);
	} else if (!strcmp(cmd, "fsync") && argc > 2) {
		for (int i = 2; i < argc; i++) {
			fd = open(argv[i], O_RDONLY);
			if (fd < 0)
				die("open", argv[i]);
			wfsync(fd, argv[i]);
			close(fd);
		}
	} else if (!strcmp(cmd, "msleep") && argc == 3) {
		long long ms = num(argv[2]);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

		nanosleep(&ts, NULL);
	} else if (!strcmp(cmd, "down") && (argc == 3 || argc == 4)) {
		uint32_t flags = argc == 4 ? (uint32_t)num(argv[3]) : 1;

		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			die("open", argv[2]);
		if (ioctl(fd, XFS_IOC_GOINGDOWN, &flags))
			die("XFS_IOC_GOINGDOWN", argv[2]);
		printf("xlsguest: %s shut down (flags %u)\n", argv[2], flags);
	} else {
		fprintf(stderr, "usage: xlsguest frag|pwrite|clone|clonerange|truncate|fsync|msleep|down ...\n");
		return 2;
	}
	return 0;
}
