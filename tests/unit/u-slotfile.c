/*
 * base/slotfile: images of four lengths put out, got back byte for byte,
 * dropped and put again at random, a few thousand times: the file grows
 * only to the most images of each length out at once (a place dropped is
 * taken by the next image of its length), and a length it has no class
 * for is refused.  Each image is a pattern of its number and its put.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "base/slotfile.h"

#define NIMG	200u

static uint32_t length_of(uint32_t n)
{
	static const uint32_t len[] = { 512, 4096, 16384, 65536 };

	return len[n % 4];
}

static void fill(uint8_t *buf, uint32_t n, uint32_t gen)
{
	for (uint32_t i = 0; i < length_of(n); i++)
		buf[i] = (uint8_t)((n * 2654435761u + gen * 97u + i * 40503u) >> 11);
}

static void test_slotfile__reuse(struct tap *t)
{
	static uint8_t img[65536], back[65536];
	struct xls_slotfile sf;
	uint64_t off[NIMG], seed = 99, most[4] = { 0 }, out_bytes[4] = { 0 };
	uint32_t gen[NIMG];
	bool out[NIMG], ok = true;

	memset(out, 0, sizeof(out));
	memset(gen, 0, sizeof(gen));
	xls_slotfile_init(&sf);
	for (uint32_t step = 0; step < 4000; step++) {
		uint32_t n = (uint32_t)(tap_rand(&seed) % NIMG);

		if (out[n]) {
			fill(img, n, gen[n]);
			ok &= xls_slotfile_get(&sf, off[n], back, length_of(n)) == 0 &&
			      memcmp(img, back, length_of(n)) == 0;
			xls_slotfile_drop(&sf, off[n], length_of(n));
			out[n] = false;
			out_bytes[n % 4] -= length_of(n);
		} else {
			fill(img, n, ++gen[n]);
			ok &= xls_slotfile_put(&sf, img, length_of(n), &off[n]) == 0;
			out[n] = true;
			out_bytes[n % 4] += length_of(n);
			if (out_bytes[n % 4] > most[n % 4])
				most[n % 4] = out_bytes[n % 4];
		}
	}
	tap_ok(t, ok, "every image back as it went out");
	tap_ok(t, sf.end == most[0] + most[1] + most[2] + most[3],
	       "the file as long as the most of each length out at once (%llu bytes)",
	       (unsigned long long)sf.end);
	tap_ok(t, xls_slotfile_put(&sf, img, 1000, &off[0]) != 0 && sf.error,
	       "a length of no class refused");
	xls_slotfile_release(&sf);
}

int main(void)
{
	struct tap t = { 0 };

	test_slotfile__reuse(&t);
	return tap_done(&t);
}
