/*
 * Unit tests for base/strfmt.c: xls_snprintf against the C library's
 * snprintf, on every conversion it does itself, on random values, widths
 * and flags, with buffers too short, and on what it hands to vsnprintf.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "base/strfmt.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A value of interesting size: small, a boundary, or anything. */
static uint64_t value(void)
{
	static const uint64_t edge[] = {
		0, 1, 9, 10, 99, 100, 255, 256, 4095, 4096, 65535, 65536,
		0x7fffffff, 0x80000000u, 0xffffffffu, 0x100000000ull,
		INT64_MAX, (uint64_t)INT64_MIN, UINT64_MAX,
	};

	switch (next() % 4) {
	case 0:	return edge[next() % (sizeof(edge) / sizeof(edge[0]))];
	case 1:	return next() % 1000;
	case 2:	return next() & 0xffffffffu;
	default: return next();
	}
}

static int same(struct tap *t, const char *what, const char *want, int wn,
		const char *got, int gn)
{
	if (wn == gn && strcmp(want, got) == 0)
		return 1;
	tap_diag("%s: snprintf '%s' (%d), xls_snprintf '%s' (%d)", what, want, wn, got, gn);
	(void)t;
	return 0;
}

#define CHECK(fmt, ...) do {						\
	char w_[256], g_[256];						\
	int wn_ = snprintf(w_, sizeof(w_), fmt, __VA_ARGS__);		\
	int gn_ = xls_snprintf(g_, sizeof(g_), fmt, __VA_ARGS__);	\
	ok &= same(t, fmt, w_, wn_, g_, gn_);				\
} while (0)

static void test_strfmt__conversions(struct tap *t)
{
	int ok = 1;

	CHECK("%s block LSN %s %s < %s", "XDD3", "1/234", "on disk", "1/300");
	CHECK("(0x%llx, %u) is cancelled later in the log: %u cancel record%s to come",
	      0x2000002ull, 8u, 1u, "");
	CHECK("%3u  daddr 0x%-10llx %6u bytes  %-10s %u appearances", 7u, 0x40ull, 4096u,
	      "dir_data", 3u);
	CHECK("trans 0x%08x  lsn %u/%u", 0xabcu, 1u, 2u);
	CHECK("%48s ! %s", "", "text");
	CHECK("%s%*s", " ", -10, "TYPE");
	CHECK("%s%*s", " ", 6, "LEN");
	CHECK("%#o %#o %#x %#x %#08x %#X", 0u, 0100644u, 0u, 255u, 0x1fu, 0xabu);
	CHECK("%d %i %ld %lld %hd %hhd", -5, INT32_MIN, -7L, LLONG_MIN, (short)-3, (signed char)-128);
	CHECK("%u %lu %llu %hu %hhu %zu", UINT32_MAX, 0UL, ULLONG_MAX, (unsigned short)65535,
	      (unsigned char)255, (size_t)12345);
	CHECK("%c%c%% 100%%", 'a', 'Z');
	CHECK("%-5d|%05d|%5s|%-5s|", -42, -42, "ab", "ab");
	CHECK("%s", (const char *)"");
	tap_ok(t, ok, "the conversions the tool's sentences use, as snprintf writes them");
}

static void test_strfmt__random(struct tap *t)
{
	static const char *const flags[] = { "", "-", "0", "#", "-#", "0#", "-0" };
	static const char *const lens[] = { "", "l", "ll", "h", "hh", "z" };
	static const char convs[] = "diuxXo";
	int ok = 1, n = 0;

	for (int i = 0; i < 100000 && ok; i++, n++) {
		char fmt[32], w[128], g[128];
		char c = convs[next() % 6];
		const char *len = lens[next() % 6];
		unsigned int width = next() % 4 ? 0 : (unsigned int)(next() % 25);
		uint64_t v = value();
		int wn, gn;

		if (width)
			snprintf(fmt, sizeof(fmt), "<%%%s%u%s%c>", flags[next() % 7], width, len, c);
		else
			snprintf(fmt, sizeof(fmt), "<%%%s%s%c>", flags[next() % 7], len, c);
		/* the C library's own printf parses the same format the same way */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat"
		if (!strcmp(len, "ll") || !strcmp(len, "l") || !strcmp(len, "z")) {
			wn = snprintf(w, sizeof(w), fmt, v);
			gn = xls_snprintf(g, sizeof(g), fmt, v);
		} else {
			wn = snprintf(w, sizeof(w), fmt, (unsigned int)v);
			gn = xls_snprintf(g, sizeof(g), fmt, (unsigned int)v);
		}
#pragma GCC diagnostic pop
		ok &= same(t, fmt, w, wn, g, gn);
	}
	tap_ok(t, ok, "%d random conversions, flags, widths and lengths agree", n);
}

static void test_strfmt__short_buffers(struct tap *t)
{
	int ok = 1;

	for (size_t size = 0; size < 40; size++) {
		char w[40], g[40];
		int wn, gn;

		memset(w, 'x', sizeof(w));
		memset(g, 'x', sizeof(g));
		wn = snprintf(w, size, "0x%llx is %-8s%5u", 0xdeadbeefull, "cut", 77u);
		gn = xls_snprintf(g, size, "0x%llx is %-8s%5u", 0xdeadbeefull, "cut", 77u);
		ok &= wn == gn && memcmp(w, g, sizeof(w)) == 0;
	}
	tap_ok(t, ok, "a short buffer: cut and terminated as snprintf does, the full length returned");
}

static void test_strfmt__fallback(struct tap *t)
{
	int ok = 1;

	CHECK("%.2f %s", 3.14159, "pi");
	CHECK("%+d % d %.3s", 5, 6, "abcdef");
	CHECK("%5.1f|%p", 2.25, (void *)0);
	tap_ok(t, ok, "precisions and floats go to vsnprintf, with the same result");
}

/* ISO 8601 against the C library's gmtime_r and strftime, which share no code with it. */
static void test_strfmt__iso(struct tap *t)
{
	static const struct { int64_t ns; const char *want; } known[] = {
		{ 0, "1970-01-01T00:00:00.000000000Z" },
		{ -1, "1969-12-31T23:59:59.999999999Z" },
		{ -2147483648ll * 1000000000, "1901-12-13T20:45:52.000000000Z" },
		{ 1795989776238631875ll, "2026-11-29T22:02:56.238631875Z" },
		{ 951782400ll * 1000000000, "2000-02-29T00:00:00.000000000Z" },
		{ INT64_MAX, "2262-04-11T23:47:16.854775807Z" },
	};
	char buf[XLS_TIME_ISO_MAX], want[64];
	uint64_t x = 88172645463325252ull;
	int ok = 1;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t n = xls_time_iso(known[i].ns, buf);

		if (strcmp(buf, known[i].want) || n != strlen(buf)) {
			tap_diag("%lld: %s, not %s", (long long)known[i].ns, buf, known[i].want);
			ok = 0;
		}
	}
	for (int i = 0; i < 200000; i++) {
		/* every second from 1684 to 2255, and any nanoseconds */
		int64_t sec, ns;
		time_t tt;
		struct tm tm;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sec = (int64_t)(x % 18000000000ull) - 9000000000ll;
		ns = sec * 1000000000 + (int64_t)(x >> 40) % 1000000000;
		tt = (time_t)sec;
		if (!gmtime_r(&tt, &tm))
			continue;
		strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(want + strlen(want), sizeof(want) - strlen(want), ".%09lldZ",
			 (long long)((ns % 1000000000 + 1000000000) % 1000000000));
		xls_time_iso(ns, buf);
		if (strcmp(buf, want)) {
			if (ok)
				tap_diag("%lld: %s, not %s", (long long)ns, buf, want);
			ok = 0;
		}
	}
	tap_ok(t, ok, "ISO 8601 times: known dates, and 200000 random ones as gmtime_r gives them");
}

int main(void)
{
	struct tap t = { 0 };

	test_strfmt__iso(&t);
	test_strfmt__conversions(&t);
	test_strfmt__random(&t);
	test_strfmt__short_buffers(&t);
	test_strfmt__fallback(&t);
	return tap_done(&t);
}
