/*
 * The writers: JSON escaping (RFC 8259), CSV quoting (RFC 4180), number
 * formatting, and the text forms of every field kind.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "items/item.h"
#include "report/emit.h"

/* The tests' own keys and kinds of record (report/keys.h). */
XLS_RECORD_LOCAL(t_t, "t");
XLS_RECORD_LOCAL(t_n, "n");
XLS_KEY_LOCAL(t_a, list, "a");
XLS_KEY_LOCAL(t_b, bool, "b");
XLS_KEY_LOCAL(t_blkno, hex, "blkno");
XLS_KEY_LOCAL(t_comma, str, "comma");
XLS_KEY_LOCAL(t_h, hex, "h");
XLS_KEY_LOCAL(t_i_int, int, "i");
XLS_KEY_LOCAL(t_l_lsn, lsn, "l");
XLS_KEY_LOCAL(t_i, uint, "i");
XLS_KEY_LOCAL(t_k, str, "k");
XLS_KEY_LOCAL(t_l, list, "l");
XLS_KEY_LOCAL(t_last, str, "last");
XLS_KEY_LOCAL(t_len, hex, "len");
XLS_KEY_LOCAL(t_long, str, "long");
XLS_KEY_LOCAL(t_lsn, lsn, "lsn");
XLS_KEY_LOCAL(t_missing, str, "missing");
XLS_KEY_LOCAL(t_name, str, "name");
XLS_KEY_LOCAL(t_next, uint, "next");
XLS_KEY_LOCAL(t_none, list, "none");
XLS_KEY_LOCAL(t_ok, bool, "ok");
XLS_KEY_LOCAL(t_pct, real, "pct");
XLS_KEY_LOCAL(t_plain, str, "plain");
XLS_KEY_LOCAL(t_quote, str, "quote");
XLS_KEY_LOCAL(t_r, real, "r");
XLS_KEY_LOCAL(t_s, str, "s");
XLS_KEY_LOCAL(t_start, uint, "start");
XLS_KEY_LOCAL(t_u, uint, "u");
XLS_KEY_LOCAL(t_x, list, "x");
XLS_KEY_LOCAL(t_z, uint, "z");

/* Run @fs through a writer of @fmt and return what it wrote (static). */
static const char *render(enum xls_format fmt, const struct xls_fieldset *fs)
{
	static char *out;
	static struct xls_out o;
	size_t size;
	FILE *f;

	free(out);
	out = NULL;
	f = open_memstream(&out, &size);
	if (!f)
		return "";
	xls_out_init(&o, f, fmt);
	xls_out_record(&o, XR(t_t), fs);
	xls_out_finish(&o);
	fclose(f);
	return out ? out : "";
}

static void test_emit__json_escapes(struct tap *t)
{
	struct xls_fieldset fs;
	const char *got;

	xls_fields_reset(&fs);
	xls_field_str(&fs, XK(t_s), "a\"b\\c\nd\te\001f\177g");
	got = render(XLS_FMT_JSON, &fs);
	tap_ok(t, strcmp(got, "{\"kind\":\"t\",\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001f\\u007fg\"}\n") == 0,
	       "JSON strings escape quote, backslash, newline, tab and controls");
}

static void test_emit__json_numbers(struct tap *t)
{
	static const struct xls_member bare[] = {
		XLS_MEMBER_SELF(uint, struct xls_region, len),
	};
	static const struct xls_list lens = {
		bare, 1, sizeof(struct xls_region), NULL, NULL, "1 2",
	};
	static const struct xls_region regs[2] = { { NULL, 1 }, { NULL, 2 } };
	struct xls_fieldset fs;
	const char *got;

	xls_fields_reset(&fs);
	xls_field_uint(&fs, XK(t_u), 18446744073709551615ull);
	xls_field_int(&fs, XK(t_i_int), -9223372036854775807ll - 1);
	xls_field_uint(&fs, XK(t_z), 0);
	xls_field_hex(&fs, XK(t_h), 0xabc);
	xls_field_lsn(&fs, XK(t_l_lsn), ((uint64_t)7 << 32) | 42);
	xls_field_bool(&fs, XK(t_b), true);
	xls_field_real(&fs, XK(t_r), 12.5);
	xls_field_list(&fs, XK(t_a), &lens, regs, 2);
	got = render(XLS_FMT_JSON, &fs);
	tap_ok(t, strcmp(got, "{\"kind\":\"t\",\"u\":18446744073709551615,"
			 "\"i\":-9223372036854775808,\"z\":0,\"h\":\"0xabc\","
			 "\"l\":\"7/42\",\"b\":true,\"r\":12.5000,\"a\":[1,2]}\n") == 0,
	       "JSON numbers, hex, LSN, bool, real and a list of numbers");
}

struct elem {
	uint64_t	start;
	uint32_t	len;
	bool		ok;
	const char	*name;		/* NULL: left out */
};

static void elem_text(const void *p, char *buf, size_t bufsz)
{
	const struct elem *e = p;

	snprintf(buf, bufsz, "0x%llx+%u", (unsigned long long)e->start, e->len);
}

static void test_emit__lists(struct tap *t)
{
	static const struct xls_member members[] = {
		XLS_MEMBER(t_start, uint, struct elem, start),
		XLS_MEMBER(t_len, hex, struct elem, len),
		XLS_MEMBER(t_ok, bool, struct elem, ok),
		XLS_MEMBER(t_name, str, struct elem, name),
	};
	static const struct xls_list list = {
		members, 4, sizeof(struct elem), elem_text, "; ", NULL,
	};
	struct xls_fieldset fs;
	struct elem *e;
	const char *got;
	char text[64];
	bool ok = true;

	xls_fields_reset(&fs);
	e = xls_fields_alloc(&fs, 2 * sizeof(*e));
	e[0] = (struct elem){ 18, 2, true, "a\"b" };
	e[1] = (struct elem){ 4096, 255, false, NULL };
	xls_field_list(&fs, XK(t_x), &list, e, 2);
	xls_field_list(&fs, XK(t_none), &list, e, 0);
	got = render(XLS_FMT_JSON, &fs);
	ok &= strcmp(got, "{\"kind\":\"t\",\"x\":[{\"start\":18,\"len\":\"0x2\","
		     "\"ok\":true,\"name\":\"a\\\"b\"},{\"start\":4096,"
		     "\"len\":\"0xff\",\"ok\":false}],\"none\":[]}\n") == 0;
	got = render(XLS_FMT_TEXT, &fs);
	ok &= strcmp(got, "t x=0x12+2; 0x1000+255 none=\n") == 0;
	got = render(XLS_FMT_CSV, &fs);
	ok &= strcmp(got, "x,none\n0x12+2; 0x1000+255,\n") == 0;
	xls_field_format(&fs.f[0], text, 12);
	ok &= strcmp(text, "0x12+2; 0x1") == 0;
	tap_ok(t, ok, "lists of objects: JSON arrays, optional members, text forms");
	ok = xls_fields_alloc(&fs, XLS_FIELDS_ELEMBUF) == NULL && fs.overflow;
	tap_ok(t, ok, "the set's element memory is bounded");
}

static void test_emit__csv_quoting(struct tap *t)
{
	struct xls_fieldset fs;
	const char *got;

	xls_fields_reset(&fs);
	xls_field_str(&fs, XK(t_plain), "abc");
	xls_field_str(&fs, XK(t_comma), "a,b");
	xls_field_str(&fs, XK(t_quote), "say \"hi\"");
	got = render(XLS_FMT_CSV, &fs);
	tap_ok(t, strcmp(got, "plain,comma,quote\nabc,\"a,b\",\"say \"\"hi\"\"\"\n") == 0,
	       "CSV header once, cells with commas or quotes quoted");
}

static void test_emit__text_pairs(struct tap *t)
{
	struct xls_fieldset fs;
	const char *got;

	xls_fields_reset(&fs);
	xls_field_hex(&fs, XK(t_blkno), 0x40);
	xls_field_lsn(&fs, XK(t_lsn), ((uint64_t)1 << 32) | 2);
	xls_field_real(&fs, XK(t_pct), 3.125);
	got = render(XLS_FMT_TEXT, &fs);
	tap_ok(t, strcmp(got, "t blkno=0x40 lsn=1/2 pct=3.12\n") == 0 ||
		  strcmp(got, "t blkno=0x40 lsn=1/2 pct=3.13\n") == 0,
	       "text: kind then key=value pairs");
}

static void test_emit__full_field_set_fits_a_line(struct tap *t)
{
	static struct xls_fieldset fs;
	static char big[XLS_FIELDS_STRBUF];
	const char *got;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	xls_fields_reset(&fs);
	for (int i = 0; i < 8; i++)
		xls_field_str(&fs, XK(t_k), big);
	got = render(XLS_FMT_JSON, &fs);
	tap_ok(t, fs.overflow && strlen(got) < XLS_LINE_MAX &&
		  strcmp(got + strlen(got) - 2, "}\n") == 0,
	       "a field set filled to its limit is written whole (%zu bytes)", strlen(got));
}

static void test_fields__flags_to_str(struct tap *t)
{
	static const struct xls_flag_name names[] = {
		{ 0x1, "core" }, { 0x2, "ddata" }, { 0x0, "never" }, { 0x6, "both" },
	};
	static const struct xls_flag_table tab = XLS_FLAG_TABLE(names);
	char buf[64], small[8];
	bool ok = true;

	xls_flags_to_str(0x0, &tab, buf, sizeof(buf));
	ok &= strcmp(buf, "") == 0;
	xls_flags_to_str(0x1, &tab, buf, sizeof(buf));
	ok &= strcmp(buf, "core") == 0;
	xls_flags_to_str(0x7, &tab, buf, sizeof(buf));
	ok &= strcmp(buf, "core|ddata|both") == 0;
	xls_flags_to_str(0x31, &tab, buf, sizeof(buf));
	ok &= strcmp(buf, "core|UNKNOWN(0x30)") == 0;
	/* cut to the buffer, always terminated */
	xls_flags_to_str(0x7, &tab, small, sizeof(small));
	ok &= strcmp(small, "core|dd") == 0;
	xls_flags_to_str(0x1, &tab, small, 5);
	ok &= strcmp(small, "core") == 0;
	xls_flags_to_str(0x3, &tab, small, 5);
	ok &= strcmp(small, "core") == 0;
	xls_flags_to_str(0x3, &tab, small, 1);
	ok &= strcmp(small, "") == 0;
	tap_ok(t, ok, "flag names: joined by |, unknown bits in hex, cut to the buffer");
}

/* A table row against printf's "%s%*s" per column, which it replaced. */
static void test_emit__table_row_padding(struct tap *t)
{
	static const struct xls_column cols[] = {
		{ XKEY(t_u), "U", 6 }, { XKEY(t_s), "S", -5 }, { XKEY(t_missing), "M", 3 },
		{ XKEY(t_h), "H", 4 }, { XKEY(t_lsn), "LSN", -8 }, { XKEY(t_long), "L", 3 },
		{ XKEY(t_r), "R", 7 }, { XKEY(t_last), "Z", -1 },
	};
	static struct xls_out o;
	struct xls_fieldset fs;
	char want[256], *got = NULL;
	size_t size;
	FILE *f;

	xls_fields_reset(&fs);
	xls_field_uint(&fs, XK(t_u), 42);
	xls_field_str(&fs, XK(t_s), "ab");
	xls_field_hex(&fs, XK(t_h), 0x1234);
	xls_field_lsn(&fs, XK(t_lsn), (3ull << 32) | 77);
	xls_field_str(&fs, XK(t_long), "longer than its column");
	xls_field_real(&fs, XK(t_r), 12.345);
	xls_field_str(&fs, XK(t_last), "");
	/* as printf pads, but no line ends in spaces */
	snprintf(want, sizeof(want), "%*s %*s %*s %*s %*s %*s %*s\n",
		 6, "42", -5, "ab", 3, "-", 4, "0x1234", -8, "3/77",
		 3, "longer than its column", 7, "12.35");
	f = open_memstream(&got, &size);
	if (!f) {
		tap_ok(t, false, "open_memstream");
		return;
	}
	xls_out_init(&o, f, XLS_FMT_TEXT);
	xls_out_table_row(&o, cols, sizeof(cols) / sizeof(cols[0]), &fs);
	xls_out_finish(&o);
	fclose(f);
	tap_ok(t, got && strcmp(got, want) == 0,
	       "table rows pad right and left as printf does, '-' for a missing key, no trailing space");
	free(got);
}

/* JSON lines gather in the buffer and are all written, in order, by finish. */
static void test_emit__json_lines_gather(struct tap *t)
{
	static struct xls_out o;
	struct xls_fieldset fs;
	char *got = NULL, want[64];
	size_t size, pos = 0;
	bool ok = true;
	FILE *f = open_memstream(&got, &size);
	const int n = 20000;

	if (!f) {
		tap_ok(t, false, "open_memstream");
		return;
	}
	xls_out_init(&o, f, XLS_FMT_JSON);
	for (int i = 0; i < n; i++) {
		xls_fields_reset(&fs);
		xls_field_uint(&fs, XK(t_i), (uint64_t)i);
		xls_out_record(&o, XR(t_n), &fs);
	}
	ok &= xls_out_finish(&o) == 0;
	fclose(f);
	for (int i = 0; ok && i < n; i++) {
		int w = snprintf(want, sizeof(want), "{\"kind\":\"n\",\"i\":%d}\n", i);

		ok = got && pos + (size_t)w <= size && memcmp(got + pos, want, (size_t)w) == 0;
		pos += (size_t)w;
	}
	tap_ok(t, ok && pos == size, "%d JSON lines written whole and in order (%zu bytes)",
	       n, size);
	free(got);
}

enum { LONG_N = 60000 };

/* A JSON record of LONG_N numbers, longer than the buffer, then a short one. */
static void long_records(struct xls_out *o)
{
	static const struct xls_member bare[] = {
		{ NULL, XLS_FIELD_UINT, 0, sizeof(uint32_t) },
	};
	static const struct xls_list vals = {
		bare, 1, sizeof(uint32_t), NULL, NULL, "many",
	};
	static uint32_t v[LONG_N];
	struct xls_fieldset fs;

	for (uint32_t i = 0; i < LONG_N; i++)
		v[i] = i;
	xls_fields_reset(&fs);
	xls_field_list(&fs, XK(t_l), &vals, v, LONG_N);
	xls_out_record(o, XR(t_t), &fs);
	xls_fields_reset(&fs);
	xls_field_uint(&fs, XK(t_next), 1);
	xls_out_record(o, XR(t_t), &fs);
}

/* What long_records() writes, at @want (LONG_N * 8 + 64 bytes); how much. */
static size_t long_records_text(char *want)
{
	size_t w = (size_t)sprintf(want, "{\"kind\":\"t\",\"l\":[");

	for (uint32_t i = 0; i < LONG_N; i++)
		w += (size_t)sprintf(want + w, "%s%u", i ? "," : "", i);
	return w + (size_t)sprintf(want + w, "]}\n{\"kind\":\"t\",\"next\":1}\n");
}

/* A record longer than a line's XLS_LINE_MAX is written whole, then the next. */
static void test_emit__long_line_whole(struct tap *t)
{
	struct xls_out *o = malloc(sizeof(*o));
	char *got = NULL, *want = malloc((size_t)LONG_N * 8 + 64);
	size_t size = 0, w = 0;
	FILE *f = open_memstream(&got, &size);
	bool ok = o && want && f;

	if (ok) {
		xls_out_init(o, f, XLS_FMT_JSON);
		long_records(o);
		ok = xls_out_finish(o) == 0;
		fclose(f);
		w = long_records_text(want);
	}
	tap_ok(t, ok && w > XLS_OUT_BUF && size == w && memcmp(got, want, w) == 0,
	       "a %zu-byte JSON record is written whole, and the next after it", w);
	free(got);
	free(want);
	free(o);
}

/* Pack @fs, spoil it, unpack: what a writer on another thread gets. */
static const char *round_trip(struct xls_fieldset *fs, struct xls_fieldset *back)
{
	static uint64_t packed[(sizeof(struct xls_fieldset) + 7) / 8];
	size_t bytes = xls_fields_packed_size(fs);
	unsigned int n = fs->n;

	if (!bytes || bytes > sizeof(packed))
		return "";
	xls_fields_pack(fs, packed);
	/* the set is reused at once: nothing may point into it */
	memset(fs, 0x5a, sizeof(*fs));
	xls_fields_unpack(back, n, packed);
	return render(XLS_FMT_JSON, back);
}

static void test_fields__pack_round_trip(struct tap *t)
{
	static const struct xls_member bare[] = {
		XLS_MEMBER_SELF(uint, struct xls_region, len),
	};
	static const struct xls_list lens = {
		bare, 1, sizeof(struct xls_region), NULL, NULL, "1",
	};
	static const struct xls_region regs[1] = { { NULL, 1 } };
	static struct xls_fieldset fs, back;
	static char big[XLS_FIELDS_STRBUF];
	char want[4096];
	const char *got;

	xls_fields_reset(&fs);
	xls_field_uint(&fs, XK(t_u), 18446744073709551615ull);
	xls_field_int(&fs, XK(t_i_int), -5);
	xls_field_hex(&fs, XK(t_h), 0xabc);
	xls_field_str(&fs, XK(t_s), "replay");
	xls_field_lsn(&fs, XK(t_l_lsn), ((uint64_t)7 << 32) | 42);
	xls_field_str(&fs, XK(t_k), "");
	xls_field_bool(&fs, XK(t_b), true);
	xls_field_real(&fs, XK(t_r), 12.5);
	xls_field_str(&fs, XK(t_quote), "XAGI block LSN 1/2 < 1/88 \"q\"");
	snprintf(want, sizeof(want), "%s", render(XLS_FMT_JSON, &fs));
	got = round_trip(&fs, &back);
	tap_ok(t, strcmp(got, want) == 0 && back.n == 9,
	       "a packed set of every scalar kind and strings unpacks to the same record");

	/* a string cut for want of room is "", outside the buffer: copied alone */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	xls_fields_reset(&fs);
	xls_field_str(&fs, XK(t_s), "first");
	xls_field_str(&fs, XK(t_long), big);
	xls_field_str(&fs, XK(t_last), "after the buffer is full");
	xls_field_uint(&fs, XK(t_z), 3);
	snprintf(want, sizeof(want), "%.40s", render(XLS_FMT_JSON, &fs));
	got = round_trip(&fs, &back);
	tap_ok(t, strncmp(got, want, 40) == 0 && back.n == 4 &&
		  strcmp(back.f[2].v.s, "") == 0 && strlen(back.f[1].v.s) == sizeof(big) - 7,
	       "strings past the full buffer pack one by one");

	xls_fields_reset(&fs);
	xls_field_uint(&fs, XK(t_u), 1);
	xls_field_list(&fs, XK(t_a), &lens, regs, 1);
	tap_ok(t, xls_fields_packed_size(&fs) == 0, "a set with a list is not packed");
}

struct collect {
	char	*buf;
	size_t	len, cap;
	int	calls;
};

static void collect_bytes(void *ctx, const char *p, size_t n)
{
	struct collect *c = ctx;

	c->calls++;
	if (c->len + n > c->cap)
		return;
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static void test_emit__sink_gets_every_byte(struct tap *t)
{
	static const char first[] = "trans 0x00001234  lsn 1/2\n";
	static struct xls_out o;
	static struct collect got;
	static char want[(size_t)LONG_N * 8 + 128];
	size_t n;

	got.cap = sizeof(want);
	got.buf = malloc(got.cap);
	if (!got.buf)
		return;
	xls_out_init_sink(&o, XLS_FMT_JSON, &(struct xls_out_sink){ &got, collect_bytes });
	xls_out_printf(&o, "trans 0x%08x  lsn %u/%u\n", 0x1234u, 1u, 2u);
	xls_out_flush(&o);
	tap_ok(t, got.len == 26 && memcmp(got.buf, first, 26) == 0 && got.calls == 1,
	       "a flush gives the sink what was formatted");
	xls_out_flush(&o);
	tap_ok(t, got.calls == 1, "an empty flush gives nothing");

	/* a record longer than the buffer comes in pieces, every byte */
	long_records(&o);
	xls_out_finish(&o);
	memcpy(want, first, 26);
	n = 26 + long_records_text(want + 26);
	tap_ok(t, n > XLS_OUT_BUF && got.len == n && memcmp(got.buf, want, n) == 0 &&
		  got.calls > 2,
	       "a %zu-byte record reaches the sink whole, in pieces (%d)", n, got.calls - 1);
	free(got.buf);
}

int main(void)
{
	struct tap t = { 0 };

	test_emit__json_escapes(&t);
	test_emit__json_numbers(&t);
	test_emit__lists(&t);
	test_emit__json_lines_gather(&t);
	test_emit__long_line_whole(&t);
	test_emit__csv_quoting(&t);
	test_emit__text_pairs(&t);
	test_emit__full_field_set_fits_a_line(&t);
	test_fields__flags_to_str(&t);
	test_emit__table_row_padding(&t);
	test_fields__pack_round_trip(&t);
	test_emit__sink_gets_every_byte(&t);
	return tap_done(&t);
}
