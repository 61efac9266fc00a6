/*
 * A small snprintf for the sentences this tool prints by the million (a
 * decision's detail for every item of the log, the lines of its text
 * tables): the conversions it uses -- %s %c %d %i %u %x %X %o with the
 * flags - 0 #, a width (or *) and the length modifiers h hh l ll z -- go
 * straight to the buffer, with none of stdio's string-stream set-up.
 * Anything else (a precision, a float) is handed to vsnprintf whole, so
 * the result is always snprintf's.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/strfmt.h"

struct sink {
	char	*buf;
	size_t	size;
	size_t	len;		/* would-be length, as snprintf counts */
};

static void put_mem(struct sink *s, const char *p, size_t n)
{
	if (s->len < s->size) {
		size_t room = s->size - s->len, k = n < room ? n : room;
		char *d = s->buf + s->len;

		/* many pieces are a few bytes: a call to memcpy costs more */
		if (k <= 8) {
			for (size_t i = 0; i < k; i++)
				d[i] = p[i];
		} else {
			memcpy(d, p, k);
		}
	}
	s->len += n;
}

static void put_pad(struct sink *s, char c, size_t n)
{
	for (; n; n--) {
		if (s->len < s->size)
			s->buf[s->len] = c;
		s->len++;
	}
}

struct spec {
	bool		left;		/* - */
	bool		zero;		/* 0 */
	bool		alt;		/* # */
	size_t		width;
	int		length;		/* 0, 'h', 'H' (hh), 'l', 'L' (ll), 'z' */
	char		conv;
};

/* Parse a conversion after '%'; false when it is not one of ours. */
static bool parse_spec(const char **pfmt, struct spec *sp, va_list *ap)
{
	const char *f = *pfmt;

	memset(sp, 0, sizeof(*sp));
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		int w = va_arg(*ap, int);

		if (w < 0) {
			sp->left = true;
			w = -w;
		}
		sp->width = (size_t)w;
		f++;
	} else {
		while (*f >= '0' && *f <= '9')
			sp->width = sp->width * 10 + (size_t)(*f++ - '0');
	}
	if (*f == '.')
		return false;
	if (*f == 'h') {
		sp->length = f[1] == 'h' ? 'H' : 'h';
		f += f[1] == 'h' ? 2 : 1;
	} else if (*f == 'l') {
		sp->length = f[1] == 'l' ? 'L' : 'l';
		f += f[1] == 'l' ? 2 : 1;
	} else if (*f == 'z') {
		sp->length = 'z';
		f++;
	}
	switch (*f) {
	case 's': case 'c': case 'd': case 'i': case 'u': case 'x': case 'X':
	case 'o':
		sp->conv = *f;
		*pfmt = f + 1;
		return true;
	}
	return false;
}

/* Text @p of @n bytes padded to the spec's width. */
static void put_field(struct sink *s, const struct spec *sp, const char *p, size_t n,
		      size_t prefix)
{
	size_t pad = sp->width > n ? sp->width - n : 0;

	if (sp->left) {
		put_mem(s, p, n);
		put_pad(s, ' ', pad);
	} else if (sp->zero && sp->conv != 's' && sp->conv != 'c') {
		/* zeros go after a sign or 0x */
		put_mem(s, p, prefix);
		put_pad(s, '0', pad);
		put_mem(s, p + prefix, n - prefix);
	} else {
		put_pad(s, ' ', pad);
		put_mem(s, p, n);
	}
}

static uint64_t arg_unsigned(const struct spec *sp, va_list *ap)
{
	switch (sp->length) {
	case 'H':	return (unsigned char)va_arg(*ap, unsigned int);
	case 'h':	return (unsigned short)va_arg(*ap, unsigned int);
	case 'l':	return va_arg(*ap, unsigned long);
	case 'L':	return va_arg(*ap, unsigned long long);
	case 'z':	return va_arg(*ap, size_t);
	default:	return va_arg(*ap, unsigned int);
	}
}

static int64_t arg_signed(const struct spec *sp, va_list *ap)
{
	switch (sp->length) {
	case 'H':	return (signed char)va_arg(*ap, int);
	case 'h':	return (short)va_arg(*ap, int);
	case 'l':	return va_arg(*ap, long);
	case 'L':	return va_arg(*ap, long long);
	case 'z':	return (int64_t)va_arg(*ap, size_t);
	default:	return va_arg(*ap, int);
	}
}

static void put_number(struct sink *s, const struct spec *sp, va_list *ap)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	const char *digits = sp->conv == 'X' ? upper : lower;
	unsigned int base = sp->conv == 'o' ? 8 : (sp->conv == 'x' || sp->conv == 'X') ? 16 : 10;
	char buf[32];
	size_t i = sizeof(buf), prefix = 0;
	bool neg = false;
	uint64_t v;

	if (sp->conv == 'd' || sp->conv == 'i') {
		int64_t sv = arg_signed(sp, ap);

		neg = sv < 0;
		v = neg ? -(uint64_t)sv : (uint64_t)sv;
	} else {
		v = arg_unsigned(sp, ap);
	}
	/* constant divisors: a multiply or a shift per digit, not a divide */
	if (base == 10) {
		do {
			buf[--i] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
	} else {
		unsigned int shift = base == 16 ? 4 : 3;

		do {
			buf[--i] = digits[v & (base - 1)];
			v >>= shift;
		} while (v);
	}
	if (sp->alt && base == 8 && buf[i] != '0')
		buf[--i] = '0';
	if (sp->alt && base == 16 && !(i == sizeof(buf) - 1 && buf[i] == '0')) {
		buf[--i] = sp->conv;
		buf[--i] = '0';
		prefix = 2;
	}
	if (neg) {
		buf[--i] = '-';
		prefix = 1;
	}
	put_field(s, sp, buf + i, sizeof(buf) - i, prefix);
}

int xls_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = { buf, size, 0 };
	const char *f = fmt;
	va_list args;

	va_copy(args, ap);
	while (*f) {
		const char *run = f;
		struct spec sp;

		f = strchrnul(f, '%');
		put_mem(&s, run, (size_t)(f - run));
		if (!*f)
			break;
		f++;
		if (*f == '%') {
			put_mem(&s, "%", 1);
			f++;
			continue;
		}
		if (!parse_spec(&f, &sp, &args)) {
			va_end(args);
			return vsnprintf(buf, size, fmt, ap);
		}
		if (sp.conv == 's') {
			const char *str = va_arg(args, const char *);

			if (!str)
				str = "(null)";
			put_field(&s, &sp, str, strlen(str), 0);
		} else if (sp.conv == 'c') {
			char c = (char)va_arg(args, int);

			put_field(&s, &sp, &c, 1, 0);
		} else {
			put_number(&s, &sp, &args);
		}
	}
	va_end(args);
	if (size)
		buf[s.len < size ? s.len : size - 1] = '\0';
	return s.len > INT32_MAX ? -1 : (int)s.len;
}

int xls_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = xls_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Digits of @v, at least @width of them, at @p; how many. */
static size_t put_digits(char *p, uint64_t v, unsigned int width)
{
	char d[20];
	size_t k = 0, n = 0;

	do {
		d[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k < width)
		d[k++] = '0';
	while (k)
		p[n++] = d[--k];
	return n;
}

/*
 * Days since 1970-01-01 to a proleptic Gregorian date: the civil-from-days
 * algorithm, in 400-year eras of 146097 days (Howard Hinnant's public
 * domain derivation), exact for every int64 day count the callers give.
 */
static void civil_from_days(int64_t z, int64_t *y, unsigned int *m, unsigned int *d)
{
	int64_t era, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	yoe = z - era * 146097;
	yoe = (yoe - yoe / 1460 + yoe / 36524 - yoe / 146096) / 365;
	doy = z - era * 146097 - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

size_t xls_time_iso(int64_t ns, char *buf)
{
	int64_t sec = ns / 1000000000, frac = ns % 1000000000, days, rem, y;
	unsigned int m, d;
	size_t n = 0;

	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	days = sec / 86400;
	rem = sec % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	/* written by hand: a million events are a million of these */
	if (y < 0) {
		buf[n++] = '-';
		n += put_digits(buf + n, (uint64_t)-(y + 1) + 1, 4);
	} else {
		n += put_digits(buf + n, (uint64_t)y, 4);
	}
	buf[n++] = '-';
	n += put_digits(buf + n, m, 2);
	buf[n++] = '-';
	n += put_digits(buf + n, d, 2);
	buf[n++] = 'T';
	n += put_digits(buf + n, (uint64_t)(rem / 3600), 2);
	buf[n++] = ':';
	n += put_digits(buf + n, (uint64_t)(rem / 60 % 60), 2);
	buf[n++] = ':';
	n += put_digits(buf + n, (uint64_t)(rem % 60), 2);
	buf[n++] = '.';
	n += put_digits(buf + n, (uint64_t)frac, 9);
	buf[n++] = 'Z';
	buf[n] = '\0';
	return n;
}
