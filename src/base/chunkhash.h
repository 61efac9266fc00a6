/*
 * A 64-bit hash of a 128-byte chunk (XFS_BLF_CHUNK) of logged bytes, for
 * telling whether a chunk was logged with the same bytes as last time
 * without keeping the bytes.  Not cryptographic: the log is not an
 * adversary of its own statistics.
 *
 * Two implementations, picked per call: a chain of AES-NI rounds on x86-64
 * CPUs that have them, a multiply-xorshift chain elsewhere.  Both are
 * bijective in their running state, so a change confined to one 16-byte
 * block (AES) or one 8-byte word (portable) always changes the full state,
 * and spread it before the next block comes in, so that small changes of
 * several blocks do not cancel; what can make two different chunks agree is
 * the final fold to 64 bits, with a chance near 2^-64 per pair.  The value differs between the two
 * implementations; nothing outside one run may depend on it.
 */
#ifndef XLS_CHUNKHASH_H
#define XLS_CHUNKHASH_H

#include <stdbool.h>
#include <stdint.h>

#define XLS_CHUNK_BYTES	128u

/* Hash @nchunks consecutive 128-byte chunks at @p into @out[0 .. nchunks). */
void xls_chunk_hash_run(const uint8_t *p, uint32_t nchunks, uint64_t *out);

/*
 * Hash @len bytes (1 .. 128) at @p: a chunk shorter than 128 bytes, as the
 * last piece of an inode core or fork is.  The length is part of the hash,
 * so a short chunk never equals a full one that begins with its bytes.
 */
uint64_t xls_chunk_hash_bytes(const uint8_t *p, uint32_t len);

/* The portable version, for tests: the same contract, other values. */
void xls_chunk_hash_run_portable(const uint8_t *p, uint32_t nchunks, uint64_t *out);
bool xls_chunk_hash_have_aes(void);

#endif /* XLS_CHUNKHASH_H */
