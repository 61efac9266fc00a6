/*
 * xls-synth: write XFS logs with chosen content, record by record the way
 * the kernel writes them, for the xfs_logscope tests.
 *
 *   xls-synth [options] SCENARIO OUTPUT   write OUTPUT, print its manifest
 *   xls-synth -C MANIFEST JSON [KINDS]    check decoder JSON against a manifest
 *   xls-synth -l                          list the scenarios
 *
 * OUTPUT is a small sparse filesystem image (a superblock at byte 0 that
 * libblkid and xfs_logscope accept, and the internal log at sb_logstart),
 * or with -f the bare log.  Options:
 *
 *   -f          write a bare log, no superblock
 *   -4          v4 superblock (v2 log: LOGV2BIT set); default v5
 *   -1          v1 log: v4 superblock without LOGV2BIT, h_version 1
 *   -u BYTES    log stripe unit (v2); records are rounded up to it
 *   -b BYTES    log buffer size, h_size (default 32 KiB, or the stripe unit)
 *   -S BYTES    log sector size (512 or 4096; 4096 implies -u 4096 at least)
 *   -E          written by a big-endian machine: h_fmt XLOG_FMT_LINUX_BE,
 *               transaction headers and item formats big-endian
 *   -L BYTES    log size (default 2 MiB)
 *   -c CYCLE    first cycle (default 1); above 1 the log is first formatted
 *               as libxfs_log_clear() does: an unmount record in CYCLE at
 *               block 0, every other block in records of CYCLE - 1
 *   -U          end with a clean unmount record
 *
 * Only CRC32C and the xfsprogs header constants and structure offsets are
 * shared with xfs_logscope: nothing here uses the decoder to make its input.
 *
 * The manifest printed on stdout says what the decoder must find, one line
 * per fact: "KIND FRAGMENT..." where every FRAGMENT is a "key":value pair
 * exactly as xfs_logscope --json prints it.  -C checks a JSON Lines file
 * against the manifest lines of the given kinds (comma-separated; all when
 * omitted; MANIFEST "-" is standard input, for expectations written in a
 * test): each line must match a JSON object of that kind holding all its
 * fragments, and "count KIND N" lines give the exact number of objects of
 * a kind.  Lines starting with '#' are not checked.
 *
 * The tool is in pieces that share synth.h: log.c writes records and
 * iclogs the way the kernel does, items.c builds the items, scenarios.c
 * holds the scenarios, manifest.c prints the manifest and checks decoder
 * JSON against one (-C); this file has the options, the memory, the output
 * image and main().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/crc32c.h"
#include "synth.h"

static const char *prog = "xls-synth";

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* ------------------------------------------------------------------ */
/* memory: everything lives until exit, then is freed (LeakSanitizer) */

static void **allocs;
static size_t nallocs, capallocs;

void *zalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	if (nallocs == capallocs) {
		size_t cap = capallocs ? capallocs * 2 : 256;
		void **a = realloc(allocs, cap * sizeof(*a));

		if (!a)
			die("out of memory");
		allocs = a;
		capallocs = cap;
	}
	allocs[nallocs++] = p;
	return p;
}

static void free_all(void)
{
	for (size_t i = 0; i < nallocs; i++)
		free(allocs[i]);
	free(allocs);
	allocs = NULL;
	nallocs = capallocs = 0;
}

/* ------------------------------------------------------------------ */
/* the output: an image with a superblock, or the bare log */

void write_sb(const struct synth *s, uint8_t *sb)
{
	uint16_t ver;
	uint32_t logblocks = s->log_bytes / FS_BLOCKSIZE;
	bool v5 = s->sb_version == 5;
	uint32_t isize = v5 ? 512 : 256, ilog = v5 ? 9 : 8;

#define SBF(f)	(sb + offsetof(struct xfs_dsb, f))
	memset(sb, 0, BB);
	put_be32(SBF(sb_magicnum), XFS_SB_MAGIC);
	put_be32(SBF(sb_blocksize), FS_BLOCKSIZE);
	put_be64(SBF(sb_dblocks), (uint64_t)FS_AGBLOCKS * FS_AGCOUNT);
	memcpy(SBF(sb_uuid), s->uuid, 16);
	put_be64(SBF(sb_logstart), FS_LOGSTART);
	put_be64(SBF(sb_rootino), 128);
	put_be64(SBF(sb_rbmino), 129);
	put_be64(SBF(sb_rsumino), 130);
	put_be32(SBF(sb_rextsize), 1);
	put_be32(SBF(sb_agblocks), FS_AGBLOCKS);
	put_be32(SBF(sb_agcount), FS_AGCOUNT);
	put_be32(SBF(sb_logblocks), logblocks);
	if (v5)
		ver = XFS_SB_VERSION_5 | XFS_SB_VERSION_NLINKBIT | XFS_SB_VERSION_ALIGNBIT |
		      XFS_SB_VERSION_LOGV2BIT | XFS_SB_VERSION_EXTFLGBIT |
		      XFS_SB_VERSION_DIRV2BIT | XFS_SB_VERSION_MOREBITSBIT;
	else
		ver = XFS_SB_VERSION_4 | XFS_SB_VERSION_NLINKBIT | XFS_SB_VERSION_ALIGNBIT |
		      XFS_SB_VERSION_EXTFLGBIT | XFS_SB_VERSION_DIRV2BIT |
		      XFS_SB_VERSION_MOREBITSBIT |
		      (s->log_version == 2 ? XFS_SB_VERSION_LOGV2BIT : 0) |
		      (s->logsect > BB ? XFS_SB_VERSION_SECTORBIT : 0);
	put_be16(SBF(sb_versionnum), ver);
	put_be16(SBF(sb_sectsize), 512);
	put_be16(SBF(sb_inodesize), (uint16_t)isize);
	put_be16(SBF(sb_inopblock), (uint16_t)(FS_BLOCKSIZE / isize));
	memcpy(SBF(sb_fname), "synth", 5);
	*SBF(sb_blocklog) = FS_BLOCKLOG;
	*SBF(sb_sectlog) = 9;
	*SBF(sb_inodelog) = (uint8_t)ilog;
	*SBF(sb_inopblog) = (uint8_t)(FS_BLOCKLOG - ilog);
	*SBF(sb_agblklog) = FS_AGBLKLOG;
	*SBF(sb_imax_pct) = 25;
	put_be64(SBF(sb_icount), 64);
	put_be64(SBF(sb_ifree), 61);
	put_be64(SBF(sb_fdblocks), (uint64_t)FS_AGBLOCKS * FS_AGCOUNT - logblocks - 64);
	put_be64(SBF(sb_uquotino), ~0ull);
	put_be64(SBF(sb_gquotino), ~0ull);
	put_be32(SBF(sb_inoalignmt), v5 ? 4 : 2);
	if (v5 || s->logsect > BB) {
		uint8_t lg = 9;

		while ((1u << lg) < s->logsect)
			lg++;
		*SBF(sb_logsectlog) = lg;
		put_be16(SBF(sb_logsectsize), (uint16_t)s->logsect);
	}
	put_be32(SBF(sb_logsunit), s->log_version == 2 ? (s->sunit ? s->sunit : 1) : 0);
	put_be32(SBF(sb_features2), XFS_SB_VERSION2_LAZYSBCOUNTBIT | XFS_SB_VERSION2_ATTR2BIT |
		 XFS_SB_VERSION2_PROJID32BIT | (v5 ? XFS_SB_VERSION2_CRCBIT | XFS_SB_VERSION2_FTYPE : 0));
	memcpy(SBF(sb_bad_features2), SBF(sb_features2), 4);
	if (v5) {
		put_be32(SBF(sb_features_incompat), XFS_SB_FEAT_INCOMPAT_FTYPE);
		put_be64(SBF(sb_pquotino), ~0ull);
		put_le32(SBF(sb_crc), xls_crc32c(sb, BB));	/* sb_crc was zero */
	}
#undef SBF
}

static void write_output(struct synth *s, const char *path, uint64_t truncate_at)
{
	uint64_t log_off = s->bare ? 0 : (uint64_t)FS_LOGSTART * FS_BLOCKSIZE;
	uint64_t size = s->bare ? (uint64_t)s->nblks * BB :
			(uint64_t)FS_AGBLOCKS * FS_AGCOUNT * FS_BLOCKSIZE;
	const size_t chunk = 65536;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die("cannot create '%s': %s", path, strerror(errno));
	if (ftruncate(fd, (off_t)size) < 0)
		die("cannot size '%s': %s", path, strerror(errno));
	if (!s->bare) {
		uint8_t sb[BB];

		write_sb(s, sb);
		if (pwrite(fd, sb, BB, 0) != BB)
			die("cannot write '%s'", path);
	}
	/* the log, leaving holes where it is zero */
	for (size_t o = 0; o < (size_t)s->nblks * BB; o += chunk) {
		size_t n = (size_t)s->nblks * BB - o < chunk ? (size_t)s->nblks * BB - o : chunk;
		bool zero = true;

		for (size_t i = 0; i < n && zero; i++)
			zero = s->log[o + i] == 0;
		if (!zero && pwrite(fd, s->log + o, n, (off_t)(log_off + o)) != (ssize_t)n)
			die("cannot write '%s': %s", path, strerror(errno));
	}
	if (truncate_at && ftruncate(fd, (off_t)truncate_at) < 0)
		die("cannot truncate '%s': %s", path, strerror(errno));
	if (close(fd) < 0)
		die("cannot write '%s': %s", path, strerror(errno));
}

/* ------------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-f] [-1|-4] [-u SUNIT] [-b HSIZE] [-S SECTSIZE] [-E] [-L LOGBYTES]\n"
		"          [-c CYCLE] [-U] SCENARIO OUTPUT\n"
		"       %s -C MANIFEST|- JSON [KIND[,KIND...]]\n"
		"       %s -l\n", prog, prog, prog);
	exit(2);
}

static uint32_t num(const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		die("bad number '%s'", arg);
	return (uint32_t)v;
}

int main(int argc, char **argv)
{
	struct synth *s = zalloc(sizeof(*s));
	const struct scenario *sc = NULL;
	uint64_t truncate_at = 0;
	int opt;

	s->sb_version = 5;
	s->log_version = 2;
	s->logsect = BB;
	s->log_bytes = 2u << 20;
	s->first_cycle = 1;
	while ((opt = getopt(argc, argv, "f14u:b:S:EL:c:UC:lh")) != -1) {
		switch (opt) {
		case 'f': s->bare = true; break;
		case '1': s->log_version = 1; s->sb_version = 4; break;
		case '4': s->sb_version = 4; break;
		case 'u': s->sunit = num(optarg); break;
		case 'b': s->h_size = num(optarg); break;
		case 'S': s->logsect = num(optarg); break;
		case 'E': s->be = true; break;
		case 'L': s->log_bytes = num(optarg); break;
		case 'c': s->first_cycle = num(optarg); break;
		case 'U': s->unmount = true; break;
		case 'C':
			if (optind + 1 != argc && optind + 2 != argc)
				usage();
			opt = check(optarg, argv[optind], optind + 2 == argc ? argv[optind + 1] : NULL);
			free_all();
			return opt;
		case 'l':
			for (size_t i = 0; i < nscenarios; i++)
				printf("%-14s %s\n", scenarios[i].name, scenarios[i].help);
			free_all();
			return 0;
		default:
			usage();
		}
	}
	if (optind + 2 != argc)
		usage();
	for (size_t i = 0; i < nscenarios; i++)
		if (!strcmp(argv[optind], scenarios[i].name))
			sc = &scenarios[i];
	if (!sc)
		die("unknown scenario '%s' (-l lists them)", argv[optind]);
	s->out = argv[optind + 1];

	/* geometry, checked as mkfs and mount would */
	if (s->logsect != 512 && s->logsect != 4096)
		die("log sector size must be 512 or 4096");
	if (s->logsect > BB && s->sunit < s->logsect)
		s->sunit = s->logsect;		/* mkfs: lsunit = log sector size */
	if (s->log_version == 1 && (s->sunit || s->logsect > BB))
		die("a v1 log has no stripe unit and 512-byte sectors");
	if (s->sunit && (s->sunit % BB || s->sunit > XLOG_MAX_RECORD_BSIZE))
		die("bad log stripe unit %u", s->sunit);
	if (!s->h_size)
		s->h_size = s->sunit > XLOG_BIG_RECORD_BSIZE ? s->sunit : XLOG_BIG_RECORD_BSIZE;
	if (s->h_size < XLOG_MIN_RECORD_BSIZE || s->h_size > XLOG_MAX_RECORD_BSIZE ||
	    (s->h_size & (s->h_size - 1)) || (s->log_version == 1 && s->h_size > XLOG_BIG_RECORD_BSIZE))
		die("bad log buffer size %u", s->h_size);
	if (s->sunit > s->h_size)
		die("the log buffer size must be at least the stripe unit");
	if (s->log_bytes % FS_BLOCKSIZE || s->log_bytes < (64u << 10) ||
	    s->log_bytes > (FS_AGBLOCKS - FS_LOGSTART) * FS_BLOCKSIZE)
		die("bad log size %u", s->log_bytes);
	if (!s->first_cycle || s->first_cycle >= XLOG_HEADER_MAGIC_NUM)
		die("bad cycle");
	s->nblks = s->log_bytes / BB;
	s->hblks = s->log_version == 2 && s->h_size > XLOG_HEADER_CYCLE_SIZE ?
		   s->h_size / XLOG_HEADER_CYCLE_SIZE : 1;
	s->ic_size = s->h_size - s->hblks * BB;
	s->roundoff = s->log_version == 2 && s->sunit > 1 ? s->sunit : BB;
	s->log = zalloc((size_t)s->nblks * BB);
	s->ic = zalloc(s->ic_size);
	s->next_tid = 0x0c0ffee0;
	for (int i = 0; i < 16; i++)
		s->uuid[i] = (uint8_t)(0x5e + i * 0x11);

	if (strcmp(sc->name, "zeroed") != 0 && strncmp(sc->name, "wrap", 4) != 0)
		format_log(s, s->first_cycle);
	sc->run(s);
	if (s->unmount)
		w_unmount(s);
	ic_sync(s);
	if (s->unmount) {
		/* clean: the tail is the head, nothing is walked */
		for (uint32_t i = 0; i < s->nrecs; i++)
			s->recs[i]->show = false;
		for (uint32_t i = 0; i < s->ntrans; i++)
			s->trans[i].hide = true;
	}
	if (!strcmp(sc->name, "truncated")) {
		if (s->bare)
			die("truncated: an image, not -f");
		truncate_at = (uint64_t)FS_LOGSTART * FS_BLOCKSIZE + s->log_bytes / 2;
	}
	write_output(s, s->out, truncate_at);
	if (strcmp(sc->name, "zeroed") && strcmp(sc->name, "truncated"))
		print_manifest(s);
	if (fflush(stdout) || ferror(stdout))
		die("write error on standard output");
	free_all();
	return 0;
}
