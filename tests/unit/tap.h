/*
 * Minimal TAP producer for C unit tests, prove-compatible.  Each test
 * program owns one struct tap; no global state.
 */
#ifndef XLS_TAP_H
#define XLS_TAP_H

#include <stdio.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

struct tap {
	unsigned int	n;
	unsigned int	failed;
};

static inline bool tap_ok(struct tap *t, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline bool tap_ok(struct tap *t, bool cond, const char *fmt, ...)
{
	va_list ap;

	t->n++;
	if (!cond)
		t->failed++;
	printf("%sok %u - ", cond ? "" : "not ", t->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return cond;
}

static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * Pseudo-random numbers (xorshift64) from a seed the test keeps in
 * *@state, never 0: the same seed gives the same sequence, so a failure
 * repeats.
 */
static inline uint64_t tap_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* Print the plan last (allowed by TAP) and return the exit status. */
static inline int tap_done(struct tap *t)
{
	printf("1..%u\n", t->n);
	return t->failed ? 1 : 0;
}

#endif /* XLS_TAP_H */
