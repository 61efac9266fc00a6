/*
 * Records sorted by a 64-bit key without holding them all: added in any
 * order into a batch of at most a given size; each full batch is sorted
 * and written, as a run, to an unlinked temporary file (base/fullio.h's
 * xls_tmpfile); read back, the runs and the last batch (kept in memory)
 * are merged in key order.  Records of one key come back in the order
 * they were added.  XLS_SORTSPILL_RUNS runs in the file are merged into
 * one, so that reading, which takes 64 KiB a run, never takes more than
 * 4 MiB besides the batch.
 *
 * For what is learnt in one order and wanted in another, once: a name per
 * inode learnt directory by directory, printed inode by inode.
 */
#ifndef XLS_SORTSPILL_H
#define XLS_SORTSPILL_H

#include <stdbool.h>
#include <stdint.h>

/* The largest record. */
#define XLS_SORTSPILL_REC_MAX	4096u
/* Runs in the file at most. */
#define XLS_SORTSPILL_RUNS	64u

struct xls_sortspill_ref {
	uint64_t	key;
	uint32_t	off;		/* of its bytes in the batch */
	uint32_t	len;
};

/* One run being read: a window of the file, or the batch in memory. */
struct xls_sortspill_src {
	uint64_t	off, end;	/* the file's bytes of the run not yet read */
	bool		batch;		/* the batch, in memory, not a run */
	uint8_t		*buf;
	uint32_t	pos, len;	/* the next record in buf, its bytes */
	uint32_t	ref;		/* the batch's next record */
	uint64_t	key;		/* of the record at hand */
	bool		done;
};

struct xls_sortspill {
	int		fd;		/* -1 until the first run */
	const char	*dir;		/* where it is, for messages */
	int		error;		/* errno of the first failure; 0 none */
	uint32_t	batch_bytes;	/* the batch's bound, records and refs */
	uint8_t		*batch;
	uint32_t	used, cap;
	struct xls_sortspill_ref *ref;
	uint32_t	nref, capref;
	uint64_t	run_end[XLS_SORTSPILL_RUNS];	/* where each run ends in the file */
	uint32_t	nrun;
	uint64_t	written;
	uint64_t	count;		/* records added */
	/* reading: after xls_sortspill_rewind, no more adding */
	bool		reading;
	struct xls_sortspill_src *src;	/* the runs, then the batch */
	uint32_t	*heap;		/* the sources not done, least record first */
	uint32_t	nheap;
	uint8_t		rec[XLS_SORTSPILL_REC_MAX];	/* the record handed out */
};

/* Empty, no memory yet, batches of at most @batch_bytes. */
void xls_sortspill_init(struct xls_sortspill *s, uint32_t batch_bytes);
void xls_sortspill_free(struct xls_sortspill *s);

/* Add a record of @len bytes (at most XLS_SORTSPILL_REC_MAX): 0, or -errno (s->error). */
int xls_sortspill_add(struct xls_sortspill *s, uint64_t key, const void *rec, uint32_t len);

/* Read from the first record, in key order: 0, or -errno (s->error). */
int xls_sortspill_rewind(struct xls_sortspill *s);

/* The key of the next record, false at the end (or after a failure, s->error). */
bool xls_sortspill_peek(const struct xls_sortspill *s, uint64_t *key);

/*
 * The next record, taken, valid until the next call; its key and length
 * in *@key and *@len.  NULL at the end or on a failure (s->error).
 */
const void *xls_sortspill_next(struct xls_sortspill *s, uint64_t *key, uint32_t *len);

#endif /* XLS_SORTSPILL_H */
