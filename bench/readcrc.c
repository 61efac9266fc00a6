// SPDX-License-Identifier: GPL-2.0
/*
 * bench/readcrc.c - the read-and-check floor: what a reader that checks every
 * record's CRC, as the kernel's recovery does in each pass, must do at the
 * least.  Not part of "make check"; built and timed by bench/run (the
 * "readcrc" row), or by hand:
 *
 *   cc -std=c11 -O2 -Isrc -o /tmp/readcrc bench/readcrc.c build/libxls.a \
 *      -lblkid -luuid && /tmp/readcrc IMAGE OFFSET LENGTH [OFFSET2 LENGTH2]
 *
 * One thread reads the byte ranges given (the active part of the log: one
 * range, or two when it wraps) in 256 KiB preads, as the tool's reading
 * thread does, into a 4 MiB buffer used over and over (so no fresh page is
 * touched: the kernel's copy lands in cached memory, as dd's does), and
 * takes xls_crc32c_update of every byte read.  Nothing is decoded: the gap
 * between this and the dd floor is the CRC, and the gap between this and a
 * command is the command's own work.  It prints the CRC of all the bytes,
 * so that the work cannot be optimized away.
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/crc32c.h"

#define READ_BYTES	(256u << 10)
#define BUF_BYTES	(4u << 20)

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

/* Read and checksum [off, off + len) of @fd; 0, or -1 with a message. */
static int read_range(int fd, const char *path, uint8_t *buf, uint64_t off, uint64_t len,
		      uint32_t *crc)
{
	size_t pos = 0;

	while (len) {
		size_t n = len < READ_BYTES ? (size_t)len : READ_BYTES;
		ssize_t got;

		if (pos + n > BUF_BYTES)
			pos = 0;
		got = pread(fd, buf + pos, n, (off_t)off);
		if (got != (ssize_t)n) {
			fprintf(stderr, "readcrc: %s: %s at byte %" PRIu64 "\n", path,
				got < 0 ? strerror(errno) : "short read", off);
			return -1;
		}
		*crc = xls_crc32c_update(*crc, buf + pos, n);
		pos += n;
		off += n;
		len -= n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t off[2], len[2];
	uint32_t crc = ~0u;
	uint8_t *buf;
	int fd, nranges = (argc - 2) / 2;

	if (argc != 4 && argc != 6) {
		fprintf(stderr, "usage: readcrc IMAGE OFFSET LENGTH [OFFSET2 LENGTH2]\n");
		return 2;
	}
	for (int i = 0; i < nranges; i++) {
		char **arg = &argv[2 + 2 * i];

		if (parse_u64(arg[0], &off[i]) || parse_u64(arg[1], &len[i])) {
			fprintf(stderr, "readcrc: not a byte offset and length: %s %s\n",
				arg[0], arg[1]);
			return 2;
		}
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "readcrc: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	buf = malloc(BUF_BYTES);
	if (!buf) {
		fprintf(stderr, "readcrc: out of memory\n");
		return 1;
	}
	/* touched before the reads, as dd's buffer is by its first read */
	memset(buf, 0, BUF_BYTES);
	for (int i = 0; i < nranges; i++) {
		if (read_range(fd, argv[1], buf, off[i], len[i], &crc)) {
			free(buf);
			return 1;
		}
	}
	printf("crc32c 0x%08" PRIx32 "\n", ~crc);
	free(buf);
	close(fd);
	return 0;
}
