/*
 * What the libFuzzer harnesses share: the input written to a memfd of
 * @len bytes (@len >= @size, zero-filled beyond the input), which the
 * source stage then opens as "/proc/self/fd/N" like any file.
 */
#ifndef XLS_FUZZ_MEMFD_H
#define XLS_FUZZ_MEMFD_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static inline void fuzz_memfd_load(int fd, const uint8_t *data, size_t size, size_t len)
{
	size_t off = 0;

	if (ftruncate(fd, 0) || ftruncate(fd, (off_t)len))
		abort();
	while (off < size) {
		ssize_t n = pwrite(fd, data + off, size - off, (off_t)off);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			abort();
		}
		off += (size_t)n;
	}
}

#endif /* XLS_FUZZ_MEMFD_H */
