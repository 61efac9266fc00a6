/*
 * Whole reads and writes at an offset: pread and pwrite retried after a
 * short transfer or an interruption, so that a caller sees either all of
 * its bytes moved or the errno and the byte where they stopped.
 */
#ifndef XLS_FULLIO_H
#define XLS_FULLIO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Read @len bytes at @off into @buf: 0, or -errno (-ENODATA at the end of
 * the file).  *@done, when @done is not NULL, gets the bytes read either way.
 */
int xls_pread_fully(int fd, uint64_t off, void *buf, size_t len, size_t *done);

/*
 * Write @len bytes of @buf at @off: 0, or -errno (-ENOSPC for a write that
 * moves nothing and names no error).  *@done as for xls_pread_fully.
 */
int xls_pwrite_fully(int fd, uint64_t off, const void *buf, size_t len, size_t *done);

/*
 * An unlinked temporary file, open for reading and writing, in $TMPDIR
 * (or /tmp; its name in *@dir): under no name (O_TMPFILE), or under one
 * unlinked at once where the filesystem has no O_TMPFILE.  The fd, or -1
 * with errno set.
 */
int xls_tmpfile(const char **dir);

#endif
