/*
 * base/spillq: records of every length from 0 to the largest come back
 * in the order they went in, byte for byte, across the write buffer, the
 * file and the read buffer (several megabytes of them, so that records
 * straddle both buffers' ends), aligned to 8 bytes, with pushes and pops
 * interleaved; the file starts again once the queue is empty.  Each record's bytes are a
 * pattern of its number and position, so a lost, shifted or reordered
 * byte shows.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "base/spillq.h"

static uint8_t pattern(uint32_t rec, uint32_t i)
{
	return (uint8_t)((rec * 2654435761u + i * 40503u) >> 11);
}

static uint32_t length_of(uint32_t rec)
{
	/* short ones mostly, now and then one of the largest or an empty one */
	if (rec % 97 == 0)
		return XLS_SPILLQ_REC_MAX;
	if (rec % 89 == 0)
		return 0;
	return (rec * 7919u) % 3000u;
}

static bool push(struct xls_spillq *q, uint32_t rec)
{
	static uint8_t buf[XLS_SPILLQ_REC_MAX];
	uint32_t len = length_of(rec);

	for (uint32_t i = 0; i < len; i++)
		buf[i] = pattern(rec, i);
	return xls_spillq_push(q, buf, len) == 0;
}

static bool pop_is(struct xls_spillq *q, uint32_t rec)
{
	uint32_t len = UINT32_MAX;
	const uint8_t *p = xls_spillq_pop(q, &len);

	if (!p || len != length_of(rec) || ((uintptr_t)p & 7))
		return false;
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != pattern(rec, i))
			return false;
	return true;
}

static void test_spillq__order(struct tap *t)
{
	struct xls_spillq q;
	uint32_t in = 0, out = 0;
	bool ok = true;
	struct stat st;

	xls_spillq_init(&q);
	tap_ok(t, xls_spillq_empty(&q) && xls_spillq_pop(&q, &(uint32_t){ 0 }) == NULL,
	       "a new queue is empty, and pops nothing");
	/* 20,000 records in, 5,000 out, twice over, then everything out */
	for (int round = 0; round < 2 && ok; round++) {
		for (int i = 0; i < 20000 && ok; i++)
			ok = push(&q, in++);
		for (int i = 0; i < 5000 && ok; i++)
			ok = pop_is(&q, out++);
	}
	tap_ok(t, ok && q.written > (4u << 20), "megabytes of records: through the file");
	while (ok && out < in)
		ok = pop_is(&q, out++);
	tap_ok(t, ok, "every record back, in order, byte for byte");
	tap_ok(t, xls_spillq_empty(&q) && q.bytes == 0 && q.written == 0 &&
	       fstat(q.fd, &st) == 0 && st.st_size == 0,
	       "empty again: the file is emptied");
	ok = push(&q, 7) && push(&q, 8) && pop_is(&q, 7) && push(&q, 9) && pop_is(&q, 8) &&
	     pop_is(&q, 9) && xls_spillq_empty(&q);
	tap_ok(t, ok, "after it, pushes and pops one at a time");
	tap_ok(t, xls_spillq_push(&q, "", XLS_SPILLQ_REC_MAX + 1) != 0 && q.error,
	       "a record past the largest fails the queue");
	tap_ok(t, xls_spillq_push(&q, "x", 1) != 0 && xls_spillq_pop(&q, &(uint32_t){ 0 }) == NULL,
	       "a failed queue takes and gives nothing");
	xls_spillq_free(&q);
}

static void test_spillq__no_tmpdir(struct tap *t)
{
	struct xls_spillq q;
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;

	setenv("TMPDIR", "/nonexistent/xls-spillq", 1);
	xls_spillq_init(&q);
	tap_ok(t, xls_spillq_push(&q, "abc", 3) != 0 && q.error && q.dir &&
	       strcmp(q.dir, "/nonexistent/xls-spillq") == 0,
	       "no temporary file: the push fails, naming TMPDIR");
	xls_spillq_free(&q);
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

int main(void)
{
	struct tap t = { 0 };

	test_spillq__order(&t);
	test_spillq__no_tmpdir(&t);
	return tap_done(&t);
}
