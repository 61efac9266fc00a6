/*
 * SVG charts (svgchart.h).  Each chart is a panel of whole-pixel layout: a
 * title, a plot with gridlines and labelled axes, a legend; every bar has a
 * hover title with its numbers.  Bars of a series over the log are one per
 * bin of consecutive checkpoints (analysis/ckptstats.h), so a picture
 * stays small whatever the log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"
#include "report/svgchart.h"

#define WIDTH		1120.0
#define LEFT		110.0	/* y labels */
#define RIGHT		30.0
#define PLOT_W		(WIDTH - LEFT - RIGHT)
#define PLOT_H		190.0
#define PANEL_GAP	70.0	/* title above, axis labels and legend below */
#define ROW_H		22.0
#define FONT		"font-family=\"DejaVu Sans,Helvetica,Arial,sans-serif\""
#define NCAT		XLS_BYTES_NCATEGORIES
#define MAX_TYPE_ROWS	12u

/* Tableau 10, for the byte categories. */
static const char *const cat_colour[NCAT] = {
	"#4e79a7", "#a0cbe8", "#f28e2b", "#ffbe7d", "#59a14f",
	"#e15759", "#b07aa1", "#9c755f", "#bab0ac", "#76b7b2",
};

static const char *const cat_label[NCAT] = {
	"record headers", "extended headers", "op headers", "trans headers",
	"item formats", "buffer data", "other item data", "unmount, untracked",
	"unused record space", "padding",
};

/* The relog split: new, changed since last logged, the same again. */
static const char *const relog_colour[3] = { "#59a14f", "#f28e2b", "#d62728" };
static const char *const relog_label[3] = {
	"first (new address)", "changed", "unchanged (relogged as it was)",
};

/* Bytes as "512", "64K", "1.5M", "2G" (powers of 1024). */
static void human(double v, char *buf, size_t bufsz)
{
	static const char unit[] = "KMGT";
	int u = -1;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, bufsz, "%.0f", v);
	else
		snprintf(buf, bufsz, v < 10 && v != (double)(long long)v ? "%.1f%c" : "%.0f%c",
			 v, unit[u]);
}

/* A step of 1, 2 or 5 times a power of 10 (of 2 for bytes) giving ~5 ticks. */
static double nice_step(double max, int bytes)
{
	double step = 1, base = bytes ? 2 : 10;

	if (max <= 0)
		return 1;
	if (bytes) {
		while (step * 6 < max)
			step *= base;
		return step;
	}
	for (;;) {
		for (int m = 1; m <= 5; m += m == 2 ? 3 : 1)
			if (step * m * 6 >= max)
				return step * m;
		step *= 10;
	}
}

static void rect(FILE *f, double x, double y, double w, double h, const char *fill)
{
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>",
		x, y, w > 0 ? w : 0, h > 0 ? h : 0, fill);
}

/* A rectangle with a hover title; @tip is printf-style. */
static void rect_tip(FILE *f, double x, double y, double w, double h, const char *fill,
		     const char *tip)
{
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
		"<title>", x, y, w > 0 ? w : 0, h > 0 ? h : 0, fill);
	xls_svg_xml_text(f, tip);
	fputs("</title></rect>\n", f);
}

static void text(FILE *f, double x, double y, const char *anchor, const char *cls,
		 const char *s)
{
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" class=\"%s\" %s>", x, y,
		anchor, cls, FONT);
	xls_svg_xml_text(f, s);
	fputs("</text>\n", f);
}

static void panel_title(FILE *f, double y, const char *title, const char *sub)
{
	text(f, 10, y + 16, "start", "pt", title);
	if (sub)
		text(f, 10, y + 32, "start", "sm", sub);
}

/* A y axis from 0 to @max over a plot at @py of height @h, gridlines across. */
static void y_axis(FILE *f, double py, double h, double max, int bytes, const char *unit)
{
	double step = nice_step(max, bytes);
	char lab[32];

	for (double v = 0; v <= max * 1.0001; v += step) {
		double y = py + h - v / max * h;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" class=\"grid\"/>",
			LEFT, y, LEFT + PLOT_W, y);
		if (bytes)
			human(v, lab, sizeof(lab));
		else
			snprintf(lab, sizeof(lab), "%g%s", v, unit);
		text(f, LEFT - 6, y + 4, "end", "sm", lab);
	}
}

/* Checkpoint numbers under a plot of @n bins. */
static void x_seq_axis(FILE *f, const struct xls_chart_log *l, double y)
{
	unsigned int every = l->nbins > 8 ? (l->nbins + 7) / 8 : 1;
	char lab[32];

	for (uint32_t i = 0; i < l->nbins; i += every) {
		double x = LEFT + (double)i * PLOT_W / l->nbins;

		snprintf(lab, sizeof(lab), "%llu", (unsigned long long)l->bins[i].first_seq);
		fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#555\"/>",
			x, y, x, y + 4);
		text(f, x, y + 15, "middle", "sm", lab);
	}
	text(f, LEFT + PLOT_W, y + 30, "end", "sm",
	     "checkpoint number, in commit order (each bar: consecutive checkpoints)");
}

static void legend(FILE *f, double y, const char *const *colour, const char *const *label,
		   unsigned int n, const uint64_t *shown)
{
	double x = LEFT;

	for (unsigned int i = 0; i < n; i++) {
		if (shown && !shown[i])
			continue;
		rect(f, x, y, 11, 11, colour[i]);
		text(f, x + 15, y + 10, "start", "t", label[i]);
		x += 30 + 6.5 * (double)strlen(label[i]);
		if (x > WIDTH - 180) {
			x = LEFT;
			y += 16;
		}
	}
}

/* A bar of a slot @bw wide: a pixel apart from the next when there is room. */
static double bar_w(double bw)
{
	return bw >= 4 ? bw - 1 : bw;
}

static void plot_box(FILE *f, double py, double h)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"bg\"/>\n",
		LEFT, py, PLOT_W, h);
}

static uint64_t bin_bytes(const struct xls_ckpt_bin *b)
{
	uint64_t n = 0;

	for (unsigned int c = 0; c < NCAT; c++)
		n += b->bytes[c];
	return n;
}

/*
 * log2 of @v > 0 to a pixel's precision, without libm: the exponent, and
 * the mantissa's by the series of atanh.
 */
static double log2_of(double v)
{
	uint64_t bits;
	double m, t, t2;
	int e;

	memcpy(&bits, &v, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ff) - 1023;
	bits = (bits & ((1ull << 52) - 1)) | (1023ull << 52);
	memcpy(&m, &bits, sizeof(m));
	t = (m - 1) / (m + 1);
	t2 = t * t;
	return e + 2 * t * (1 + t2 / 3 + t2 * t2 / 5 + t2 * t2 * t2 / 7) / 0.6931471805599453;
}

/* The height of @v on a log scale from @lo to @hi over @h pixels. */
static double log_h(double v, double lo, double hi, double h)
{
	if (v <= lo)
		return 0;
	return h * log2_of(v / lo) / log2_of(hi / lo);
}

/*
 * Checkpoint size, on a log scale so that the mean of each bin (a bar) and
 * its largest checkpoint (a tick) both show however far apart they are.
 */
static double chart_size(FILE *f, const struct xls_chart_log *l, double y)
{
	double py = y + 40, bw = PLOT_W / (l->nbins ? l->nbins : 1), lo = 0, hi = 1;
	char tip[160], a[32], b[32];

	for (uint32_t i = 0; i < l->nbins; i++) {
		const struct xls_ckpt_bin *bn = &l->bins[i];
		double mean = bn->count ? (double)bin_bytes(bn) / (double)bn->count : 0;

		if ((double)bn->max_log_bytes > hi)
			hi = (double)bn->max_log_bytes;
		if (mean > 0 && (lo == 0 || mean < lo))
			lo = mean;
	}
	/* from a power of two below the smallest mean to one above the largest */
	for (double p = 1; ; p *= 2)
		if (p * 2 > lo || p >= hi) {
			lo = p / 2 > 0 ? p / 2 : 1;
			break;
		}
	for (double p = 1; ; p *= 2)
		if (p >= hi) {
			hi = p;
			break;
		}
	if (hi <= lo)
		hi = lo * 2;
	panel_title(f, y, "Checkpoint size over the log",
		    "log bytes of each checkpoint, record overhead shared in, on a log scale: "
		    "bar = mean of the bin, tick = its largest");
	plot_box(f, py, PLOT_H);
	for (double v = lo; v <= hi * 1.0001; v *= (hi / lo > 1024 ? 4 : 2)) {
		double gy = py + PLOT_H - log_h(v, lo, hi, PLOT_H);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" class=\"grid\"/>",
			LEFT, gy, LEFT + PLOT_W, gy);
		human(v, a, sizeof(a));
		text(f, LEFT - 6, gy + 4, "end", "sm", a);
	}
	for (uint32_t i = 0; i < l->nbins; i++) {
		const struct xls_ckpt_bin *bn = &l->bins[i];
		double mean = bn->count ? (double)bin_bytes(bn) / (double)bn->count : 0;
		double x = LEFT + i * bw, h = log_h(mean, lo, hi, PLOT_H);
		double hm = log_h((double)bn->max_log_bytes, lo, hi, PLOT_H);

		human(mean, a, sizeof(a));
		human((double)bn->max_log_bytes, b, sizeof(b));
		snprintf(tip, sizeof(tip), "checkpoints %llu-%llu: mean %s, largest %s",
			 (unsigned long long)bn->first_seq,
			 (unsigned long long)(bn->first_seq + bn->count - 1), a, b);
		rect_tip(f, x, py + PLOT_H - h, bar_w(bw), h, "#4e79a7", tip);
		rect(f, x, py + PLOT_H - hm - 1, bar_w(bw) > 2 ? bar_w(bw) : 2, 2, "#e15759");
	}
	x_seq_axis(f, l, py + PLOT_H);
	return py + PLOT_H + PANEL_GAP - 20;
}

/* Bytes by category per checkpoint, stacked: the mean of each bin. */
static double chart_categories(FILE *f, const struct xls_chart_log *l, double y)
{
	double py = y + 40, bw = PLOT_W / (l->nbins ? l->nbins : 1), max = 1;
	char tip[200], a[32];

	for (uint32_t i = 0; i < l->nbins; i++) {
		double m = l->bins[i].count ? (double)bin_bytes(&l->bins[i]) / l->bins[i].count : 0;

		if (m > max)
			max = m;
	}
	panel_title(f, y, "Bytes by category per checkpoint",
		    "mean log bytes per checkpoint of each bin, by where they went (as stats counts them)");
	plot_box(f, py, PLOT_H);
	y_axis(f, py, PLOT_H, max, 1, "");
	for (uint32_t i = 0; i < l->nbins; i++) {
		const struct xls_ckpt_bin *bn = &l->bins[i];
		double x = LEFT + i * bw, top = py + PLOT_H;

		for (unsigned int c = 0; c < NCAT; c++) {
			double m = bn->count ? (double)bn->bytes[c] / bn->count : 0;
			double h = m / max * PLOT_H;

			if (h <= 0)
				continue;
			human(m, a, sizeof(a));
			snprintf(tip, sizeof(tip), "checkpoints %llu-%llu: %s %s a checkpoint",
				 (unsigned long long)bn->first_seq,
				 (unsigned long long)(bn->first_seq + bn->count - 1), cat_label[c], a);
			top -= h;
			rect_tip(f, x, top, bar_w(bw), h, cat_colour[c], tip);
		}
	}
	x_seq_axis(f, l, py + PLOT_H);
	legend(f, py + PLOT_H + 40, cat_colour, cat_label, NCAT, l->bytes);
	return py + PLOT_H + PANEL_GAP + 16;
}

/* One 100 % bar of a relog split, across (@vertical false) or up. */
static void split_bar(FILE *f, double x, double y, double w, double h, bool vertical,
		      const struct xls_relog_split *sp, const char *what)
{
	uint64_t v[3] = { sp->first, sp->changed, sp->unchanged };
	uint64_t total = xls_relog_split_total(sp);
	double at = vertical ? y + h : x;
	char tip[200], a[32];

	if (!total)
		return;
	for (unsigned int k = 0; k < 3; k++) {
		double share = (double)v[k] / (double)total;

		if (!v[k])
			continue;
		human((double)v[k], a, sizeof(a));
		snprintf(tip, sizeof(tip), "%s: %s %s (%.1f %%)", what, relog_label[k], a,
			 100 * share);
		if (vertical) {
			at -= share * h;
			rect_tip(f, x, at, w, share * h, relog_colour[k], tip);
		} else {
			rect_tip(f, at, y, share * w, h, relog_colour[k], tip);
			at += share * w;
		}
	}
}

/* The relog split of the buffer chunks of each bin, as shares. */
static double chart_relog_over(FILE *f, const struct xls_chart_log *l, double y)
{
	double py = y + 40, bw = PLOT_W / (l->nbins ? l->nbins : 1);
	char what[64];

	panel_title(f, y, "Relogged bytes over the log",
		    "each 128-byte buffer chunk of the bin's checkpoints against the bytes last logged at its address");
	plot_box(f, py, PLOT_H);
	y_axis(f, py, PLOT_H, 100, 0, " %");
	for (uint32_t i = 0; i < l->nbins; i++) {
		snprintf(what, sizeof(what), "checkpoints %llu-%llu",
			 (unsigned long long)l->bins[i].first_seq,
			 (unsigned long long)(l->bins[i].first_seq + l->bins[i].count - 1));
		split_bar(f, LEFT + i * bw, py, bar_w(bw), PLOT_H, true,
			  &l->bins[i].buf, what);
	}
	x_seq_axis(f, l, py + PLOT_H);
	legend(f, py + PLOT_H + 40, relog_colour, relog_label, 3, NULL);
	return py + PLOT_H + PANEL_GAP;
}

static void type_label(const struct xls_chart_type *t, char *buf, size_t bufsz)
{
	char sz[16];

	human((double)t->size, sz, sizeof(sz));
	snprintf(buf, bufsz, "%s %s", t->type, sz);
}

/* The dirty-% histogram of each buffer type and size, one row each. */
static double chart_dirty_hist(FILE *f, const struct xls_chart_log *l, double y)
{
	static const char *const bins[11] = {
		"0-10", "10-20", "20-30", "30-40", "40-50", "50-60", "60-70", "70-80",
		"80-90", "90-100", "100",
	};
	uint32_t rows = l->ntypes;
	double py = y + 40, rh = 34, cw = PLOT_W / 11;
	char lab[64], tip[160];

	if (rows > MAX_TYPE_ROWS)
		rows = MAX_TYPE_ROWS;
	panel_title(f, y, "Dirty % of buffers by type and size",
		    "share of each row's buffer items in each 10 % bin of dirty bytes over buffer length");
	for (uint32_t r = 0; r < rows; r++) {
		const struct xls_chart_type *t = &l->types[r];
		double ry = py + r * rh;

		type_label(t, lab, sizeof(lab));
		text(f, LEFT - 6, ry + rh / 2 + 4, "end", "t", lab);
		rect(f, LEFT, ry + rh - 1, PLOT_W, 1, "#999");
		for (unsigned int b = 0; b < 11; b++) {
			double share = t->count ? (double)t->hist[b] / (double)t->count : 0;

			snprintf(tip, sizeof(tip), "%s: %llu of %llu buffer items %s %% dirty", lab,
				 (unsigned long long)t->hist[b], (unsigned long long)t->count, bins[b]);
			rect_tip(f, LEFT + b * cw + 2, ry + rh - 1 - share * (rh - 4), cw - 4,
				 share * (rh - 4), "#e15759", tip);
		}
	}
	for (unsigned int b = 0; b < 11; b++)
		text(f, LEFT + (b + 0.5) * cw, py + rows * rh + 14, "middle", "sm", bins[b]);
	text(f, LEFT + PLOT_W, py + rows * rh + 30, "end", "sm", "dirty %");
	return py + rows * rh + PANEL_GAP - 20;
}

/* The relog split of each buffer type and size, as 100 % bars. */
static double chart_relog_types(FILE *f, const struct xls_chart_log *l, double y)
{
	uint32_t rows = 0;
	double py = y + 40, at;
	char lab[64], tot[32];

	panel_title(f, y, "Relogged bytes by buffer type and size",
		    "each row's committed buffer chunks; the total at the right");
	at = py;
	for (uint32_t r = 0; r < l->ntypes && rows < MAX_TYPE_ROWS; r++) {
		const struct xls_chart_type *t = &l->types[r];

		if (!xls_relog_split_total(&t->relog))
			continue;
		type_label(t, lab, sizeof(lab));
		text(f, LEFT - 6, at + 15, "end", "t", lab);
		split_bar(f, LEFT, at + 3, PLOT_W - 70, ROW_H - 6, false, &t->relog, lab);
		human((double)xls_relog_split_total(&t->relog), tot, sizeof(tot));
		text(f, LEFT + PLOT_W - 64, at + 15, "start", "t", tot);
		at += ROW_H;
		rows++;
	}
	legend(f, at + 10, relog_colour, relog_label, 3, NULL);
	return at + PANEL_GAP - 20;
}

static double per_ckpt(const struct xls_chart_log *l, uint64_t v)
{
	return l->checkpoints ? (double)v / (double)l->checkpoints : 0;
}

/* Two logs: their bytes per checkpoint by category, one bar each. */
static double chart_compare_categories(FILE *f, const struct xls_chart_log *l, double y)
{
	double py = y + 40, max = 1;
	uint64_t shown[NCAT] = { 0 };
	char tip[200], a[32], sub[600];

	for (unsigned int i = 0; i < 2; i++) {
		double m = 0;

		for (unsigned int c = 0; c < NCAT; c++) {
			m += per_ckpt(&l[i], l[i].bytes[c]);
			shown[c] += l[i].bytes[c];
		}
		if (m > max)
			max = m;
	}
	snprintf(sub, sizeof(sub), "the mean checkpoint of each log, record overhead shared in; "
		 "A: %s, B: %s", l[0].name, l[1].name);
	panel_title(f, y, "Log bytes per checkpoint by category", sub);
	for (unsigned int i = 0; i < 2; i++) {
		double at = LEFT, by = py + i * (ROW_H + 8), total = 0;

		text(f, LEFT - 6, by + 15, "end", "t", i ? "B" : "A");
		for (unsigned int c = 0; c < NCAT; c++) {
			double m = per_ckpt(&l[i], l[i].bytes[c]);
			double w = m / max * (PLOT_W - 70);

			total += m;
			if (w <= 0)
				continue;
			human(m, a, sizeof(a));
			snprintf(tip, sizeof(tip), "%s: %s %s a checkpoint", l[i].name,
				 cat_label[c], a);
			rect_tip(f, at, by + 2, w, ROW_H - 4, cat_colour[c], tip);
			at += w;
		}
		human(total, a, sizeof(a));
		text(f, at + 6, by + 15, "start", "t", a);
	}
	legend(f, py + 2 * (ROW_H + 8) + 6, cat_colour, cat_label, NCAT, shown);
	return py + 2 * (ROW_H + 8) + PANEL_GAP;
}

static const struct xls_chart_type *find_type(const struct xls_chart_log *l,
					      const char *type, uint32_t size)
{
	for (uint32_t i = 0; i < l->ntypes; i++)
		if (l->types[i].size == size && strcmp(l->types[i].type, type) == 0)
			return &l->types[i];
	return NULL;
}

/* One log's bar of a type: its relog split, then the rest of its log cost. */
static void compare_bar(FILE *f, const struct xls_chart_log *l, const struct xls_chart_type *t,
			double y, double scale, const char *lab)
{
	double at = LEFT;
	uint64_t v[4];
	const char *colour[4] = { relog_colour[0], relog_colour[1], relog_colour[2], "#bab0ac" };
	const char *what[4] = { relog_label[0], relog_label[1], relog_label[2],
				"formats, op headers, other" };
	char tip[240], a[32];

	if (!t)
		return;
	v[0] = t->relog.first;
	v[1] = t->relog.changed;
	v[2] = t->relog.unchanged;
	v[3] = t->bytes_logged > xls_relog_split_total(&t->relog) ?
	       t->bytes_logged - xls_relog_split_total(&t->relog) : 0;
	for (unsigned int k = 0; k < 4; k++) {
		double w = per_ckpt(l, v[k]) * scale;

		if (w <= 0)
			continue;
		human(per_ckpt(l, v[k]), a, sizeof(a));
		snprintf(tip, sizeof(tip), "%s, %s: %s %s a checkpoint", l->name, lab, what[k], a);
		(void)0;
		rect_tip(f, at, y, w, ROW_H / 2 - 2, colour[k], tip);
		at += w;
	}
	human(per_ckpt(l, t->bytes_logged), a, sizeof(a));
	text(f, at + 4, y + ROW_H / 2 - 4, "start", "sm", a);
}

/* Two logs: bytes logged per checkpoint by buffer type, A above B. */
static double chart_compare_types(FILE *f, const struct xls_chart_log *l, double y)
{
	const struct xls_chart_type *row[2 * MAX_TYPE_ROWS];
	uint32_t n = 0;
	double py = y + 40, at;
	char lab[64], sub[600];

	/* A's types, then B's the others, most bytes logged first in each */
	for (unsigned int i = 0; i < 2; i++)
		for (uint32_t r = 0; r < l[i].ntypes && n < 2 * MAX_TYPE_ROWS; r++) {
			const struct xls_chart_type *t = &l[i].types[r];

			if (i == 1 && find_type(&l[0], t->type, t->size))
				continue;
			if (r >= MAX_TYPE_ROWS)
				break;
			row[n++] = t;
		}
	snprintf(sub, sizeof(sub), "each row: A above, B below, to the row's own scale (the "
		 "numbers say how much); split as the relog table classed the chunks");
	panel_title(f, y, "Buffer bytes logged per checkpoint by type and size", sub);
	at = py;
	for (uint32_t r = 0; r < n; r++) {
		double max = 1;

		for (unsigned int i = 0; i < 2; i++) {
			const struct xls_chart_type *t = find_type(&l[i], row[r]->type, row[r]->size);

			if (t && per_ckpt(&l[i], t->bytes_logged) > max)
				max = per_ckpt(&l[i], t->bytes_logged);
		}
		type_label(row[r], lab, sizeof(lab));
		text(f, LEFT - 6, at + ROW_H / 2 + 4, "end", "t", lab);
		for (unsigned int i = 0; i < 2; i++)
			compare_bar(f, &l[i], find_type(&l[i], row[r]->type, row[r]->size),
				    at + 1 + i * (ROW_H / 2), (PLOT_W - 80) / max, lab);
		rect(f, LEFT, at + ROW_H + 1, PLOT_W, 1, "#ddd");
		at += ROW_H + 4;
	}
	{
		const char *colour[4] = { relog_colour[0], relog_colour[1], relog_colour[2], "#bab0ac" };
		const char *label[4] = { relog_label[0], relog_label[1], relog_label[2],
					 "formats, op headers, other" };

		legend(f, at + 24, colour, label, 4, NULL);
	}
	return at + PANEL_GAP;
}

static void style(FILE *f)
{
	fputs("<style>\n"
	      ".bg{fill:#fafafa;stroke:#555;stroke-width:1} .grid{stroke:#ddd;stroke-width:1}\n"
	      ".t{font-size:12px} .tt{font-size:16px;font-weight:bold}\n"
	      ".pt{font-size:14px;font-weight:bold} .sm{font-size:10px;fill:#333}\n"
	      "</style>\n", f);
}

/* The panels of @set, drawn from @y down; returns where they end. */
static double draw(FILE *f, enum xls_chart_set set, const struct xls_chart_log *logs,
		   unsigned int nlogs, double y)
{
	if (set == XLS_CHART_COMPARE && nlogs == 2) {
		y = chart_compare_categories(f, logs, y);
		y = chart_compare_types(f, logs, y);
		for (unsigned int i = 0; i < 2; i++) {
			char lab[600];

			snprintf(lab, sizeof(lab), "%s: %s", i ? "B" : "A", logs[i].name);
			text(f, 10, y + 16, "start", "pt", lab);
			y = chart_relog_types(f, &logs[i], y + 20);
		}
		return y;
	}
	if (logs->nbins) {
		y = chart_size(f, logs, y);
		y = chart_categories(f, logs, y);
		y = chart_relog_over(f, logs, y);
	}
	if (set == XLS_CHART_STATS) {
		if (logs->ntypes)
			y = chart_dirty_hist(f, logs, y);
		y = chart_relog_types(f, logs, y);
	}
	return y;
}

int xls_svg_charts(FILE *f, const char *title, enum xls_chart_set set,
		   const struct xls_chart_log *logs, unsigned int nlogs)
{
	char *body = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&body, &len);
	double height;
	int rc = 0;

	/* the height is known once the panels are drawn: draw them first */
	if (!m)
		return -1;
	height = draw(m, set, logs, nlogs, 56) + 20;
	if (fclose(m) != 0) {
		free(body);
		return -1;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", WIDTH, height, WIDTH, height);
	style(f);
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", WIDTH, height);
	text(f, 10, 24, "start", "tt", title);
	if (fwrite(body, 1, len, f) != len)
		rc = -1;
	free(body);
	fputs("</svg>\n", f);
	return rc || ferror(f) ? -1 : 0;
}
