/*
 * CRC32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of
 * XFS log records.  The "update" functions work on the raw register, with
 * no inversion on entry or exit, so callers can chain them over the pieces
 * of a record (header with h_crc zeroed, extended headers, payload) the same
 * way the kernel's crc32c() is chained.
 */
#ifndef XLS_CRC32C_H
#define XLS_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Raw CRC32C update: no inversion on entry or exit (like kernel crc32c()). */
uint32_t xls_crc32c_update(uint32_t crc, const void *buf, size_t len);

/* Standard CRC32C of a buffer: ~xls_crc32c_update(~0U, buf, len). */
uint32_t xls_crc32c(const void *buf, size_t len);

/*
 * Portable and hardware versions, exposed for tests and benchmarks; the hw
 * one is only callable when xls_crc32c_have_hw() is true.  On builds for
 * other architectures the hw one is the portable one.
 */
uint32_t xls_crc32c_update_sw(uint32_t crc, const void *buf, size_t len);
uint32_t xls_crc32c_update_hw(uint32_t crc, const void *buf, size_t len);
bool xls_crc32c_have_hw(void);

#endif /* XLS_CRC32C_H */
