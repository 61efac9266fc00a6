/*
 * Checkpoint statistics (ckptstats.h).  Sizes go into log-linear bins (16
 * a power of two); the series halves its resolution, merging neighbours,
 * whenever it runs out of bins, so memory never grows with the log.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/ckptstats.h"

#define LIN		32u		/* values below are their own bin */
#define SUB_LG		4u		/* 16 bins a power of two */
#define LOG_BINS	(LIN + (64 - 5) * (1u << SUB_LG))
#define PCT_BINS	101u

struct measure {
	uint64_t	n, min, max;
	double		sum;
	uint64_t	bins[LOG_BINS];
};

struct xls_ckpt_stats {
	struct measure		m[XLS_CKM_NMEASURES];
	uint64_t		count;
	struct xls_ckpt_bin	series[XLS_CKPT_SERIES_BINS];
	uint32_t		nbins;
	uint64_t		per_bin;	/* checkpoints a bin holds */
};

const char *xls_ckpt_measure_name(enum xls_ckpt_measure m)
{
	static const char *const names[XLS_CKM_NMEASURES] = {
		"log_bytes", "items", "buffers", "unchanged_pct",
	};

	return m < XLS_CKM_NMEASURES ? names[m] : "?";
}

struct xls_ckpt_stats *xls_ckpt_stats_new(void)
{
	struct xls_ckpt_stats *cs = calloc(1, sizeof(*cs));

	if (cs)
		cs->per_bin = 1;
	return cs;
}

void xls_ckpt_stats_free(struct xls_ckpt_stats *cs)
{
	free(cs);
}

static unsigned int log_bin(uint64_t v)
{
	unsigned int e;

	if (v < LIN)
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	return LIN + (e - 5) * (1u << SUB_LG) +
	       (unsigned int)((v >> (e - SUB_LG)) & ((1u << SUB_LG) - 1));
}

/* The largest value of bin @b. */
static uint64_t log_bin_top(unsigned int b)
{
	unsigned int e, sub;

	if (b < LIN)
		return b;
	e = (b - LIN) / (1u << SUB_LG) + 5;
	sub = (b - LIN) % (1u << SUB_LG);
	if (e == 63 && sub == (1u << SUB_LG) - 1)
		return UINT64_MAX;
	return (((uint64_t)(1u << SUB_LG) + sub + 1) << (e - SUB_LG)) - 1;
}

static void measure_add(struct measure *m, uint64_t v, unsigned int bin)
{
	if (!m->n || v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
	m->n++;
	m->sum += (double)v;
	m->bins[bin]++;
}

/* Fold bins pairwise when the series is full. */
static void series_halve(struct xls_ckpt_stats *cs)
{
	for (uint32_t i = 0; i < cs->nbins / 2; i++) {
		struct xls_ckpt_bin *a = &cs->series[2 * i], *b = &cs->series[2 * i + 1];
		struct xls_ckpt_bin *to = &cs->series[i];

		*to = *a;
		to->count += b->count;
		for (unsigned int c = 0; c < XLS_BYTES_NCATEGORIES; c++)
			to->bytes[c] += b->bytes[c];
		if (b->max_log_bytes > to->max_log_bytes)
			to->max_log_bytes = b->max_log_bytes;
		xls_relog_split_add(&to->buf, &b->buf);
		xls_relog_split_add(&to->inode, &b->inode);
	}
	cs->nbins /= 2;
	cs->per_bin *= 2;
}

static void series_add(struct xls_ckpt_stats *cs, const struct xls_ckpt *ck)
{
	struct xls_ckpt_bin *b;

	if (cs->nbins && cs->series[cs->nbins - 1].count < cs->per_bin) {
		b = &cs->series[cs->nbins - 1];
	} else {
		if (cs->nbins == XLS_CKPT_SERIES_BINS)
			series_halve(cs);
		b = &cs->series[cs->nbins++];
		memset(b, 0, sizeof(*b));
		b->first_seq = ck->seq;
	}
	b->count++;
	for (unsigned int c = 0; c < XLS_BYTES_NCATEGORIES; c++)
		b->bytes[c] += ck->bytes[c];
	if (ck->log_bytes > b->max_log_bytes)
		b->max_log_bytes = ck->log_bytes;
	xls_relog_split_add(&b->buf, &ck->buf);
	xls_relog_split_add(&b->inode, &ck->inode);
}

void xls_ckpt_stats_add(struct xls_ckpt_stats *cs, const struct xls_ckpt *ck)
{
	uint64_t relog = xls_relog_split_total(&ck->buf);

	cs->count++;
	measure_add(&cs->m[XLS_CKM_LOG_BYTES], ck->log_bytes, log_bin(ck->log_bytes));
	measure_add(&cs->m[XLS_CKM_ITEMS], ck->items, log_bin(ck->items));
	measure_add(&cs->m[XLS_CKM_BUFFERS], ck->buffers, log_bin(ck->buffers));
	if (relog) {
		uint64_t pct = ck->buf.unchanged * 100 / relog;

		measure_add(&cs->m[XLS_CKM_UNCHANGED_PCT], pct, (unsigned int)pct);
	}
	series_add(cs, ck);
}

uint64_t xls_ckpt_stats_count(const struct xls_ckpt_stats *cs)
{
	return cs->count;
}

static uint64_t quantile(const struct measure *m, double q, bool pct)
{
	uint64_t need = (uint64_t)((double)m->n * q + 0.999999), seen = 0;
	unsigned int nbins = pct ? PCT_BINS : LOG_BINS;

	for (unsigned int b = 0; b < nbins; b++) {
		seen += m->bins[b];
		if (seen >= need && seen) {
			uint64_t top = pct ? b : log_bin_top(b);

			return top < m->max ? top : m->max;
		}
	}
	return m->max;
}

void xls_ckpt_stats_dist(const struct xls_ckpt_stats *cs, enum xls_ckpt_measure m,
			 struct xls_dist *d)
{
	const struct measure *x = &cs->m[m];
	bool pct = m == XLS_CKM_UNCHANGED_PCT;

	memset(d, 0, sizeof(*d));
	if (!x->n)
		return;
	d->n = x->n;
	d->min = x->min;
	d->max = x->max;
	d->mean = x->sum / (double)x->n;
	d->p50 = quantile(x, 0.5, pct);
	d->p90 = quantile(x, 0.9, pct);
	d->p99 = quantile(x, 0.99, pct);
}

uint32_t xls_ckpt_stats_series(const struct xls_ckpt_stats *cs,
			       const struct xls_ckpt_bin **bins)
{
	*bins = cs->series;
	return cs->nbins;
}
