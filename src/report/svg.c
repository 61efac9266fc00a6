/*
 * SVG heat maps.  Everything is laid out in whole pixels except the chunk
 * columns, whose width is the plot width over the chunk count; each dirty
 * run of a row is one rectangle, so a 64 KiB buffer logged a thousand times
 * stays a few hundred kilobytes.  Past MAX_ROWS appearances, consecutive
 * rows are binned and a chunk is shaded by how many of them dirtied it.
 */
#include <stdio.h>
#include <string.h>

#include "base/bitmap.h"
#include "report/svg.h"

#define WIDTH		1120u
#define LEFT		150u	/* y labels */
#define RIGHT		30u
#define PLOT_W		(WIDTH - LEFT - RIGHT)
#define TOP		56u	/* title and subtitle */
#define MAX_ROWS	300u	/* above this, rows are binned */
#define PANEL_HEAD	36u	/* a panel's title and its rows' axis title */
#define STRIP_H		12u
#define FONT		"font-family=\"DejaVu Sans Mono,Menlo,Consolas,monospace\""

static const char *const kind_class[XLS_HEAT_NKINDS] = {
	"d", "r", "a", "s", "x", "k", "u", "f",
};

static const char *const kind_label[XLS_HEAT_NKINDS] = {
	"dirty chunk", "replayed", "replayed, no LSN check", "skipped: on-disk LSN newer",
	"skipped: cancelled", "cancel record", "discarded: no commit", "recovery fails",
};

/* ColorBrewer Reds, 8 steps: how often a chunk was dirty. */
static const char *const heat[8] = {
	"#fff5f0", "#fee0d2", "#fcbba1", "#fc9272",
	"#fb6a4a", "#ef3b2c", "#cb181d", "#99000d",
};

void xls_svg_xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':	fputs("&amp;", f); break;
		case '<':	fputs("&lt;", f); break;
		case '>':	fputs("&gt;", f); break;
		case '"':	fputs("&quot;", f); break;
		default:	fputc(*s, f);
		}
	}
}

/* "4K", "64K" in a buffer over 8 KiB, else plain bytes */
static void bytes_label(uint64_t b, bool kib, char *buf, size_t bufsz)
{
	if (kib && b && b % 1024 == 0)
		snprintf(buf, bufsz, "%lluK", (unsigned long long)(b / 1024));
	else
		snprintf(buf, bufsz, "%llu", (unsigned long long)b);
}

static unsigned int heat_level(uint32_t count, uint32_t max)
{
	unsigned int l;

	if (!count || !max)
		return 0;
	l = 1 + (unsigned int)((uint64_t)(count - 1) * 7 / (max > 1 ? max : 1));
	return l > 7 ? 7 : l;
}

struct layout {
	uint32_t	nchunks;
	double		cw;		/* column width */
	uint32_t	bin;		/* rows per display row */
	uint32_t	drows;		/* display rows */
	uint32_t	rh;		/* display row height */
	uint32_t	plot_h;
	uint32_t	height;		/* the whole panel */
};

static void panel_layout(const struct xls_heat_panel *p, struct layout *l)
{
	uint32_t n = p->nrows ? p->nrows : 1;

	l->nchunks = p->nchunks ? p->nchunks : 1;
	l->cw = (double)PLOT_W / l->nchunks;
	l->bin = (n + MAX_ROWS - 1) / MAX_ROWS;
	l->drows = (n + l->bin - 1) / l->bin;
	l->rh = l->bin > 1 ? 2 : 420 / n;
	if (l->rh < 2)
		l->rh = 2;
	if (l->rh > 16)
		l->rh = 16;
	l->plot_h = l->drows * l->rh;
	l->height = PANEL_HEAD + l->plot_h + 24 + STRIP_H + 34;
}

static void style(FILE *f)
{
	fputs("<defs>\n"
	      "<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
	      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e5f5e0\"/>"
	      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#2ca02c\" stroke-width=\"3\"/></pattern>\n"
	      "<style>\n"
	      ".d,.r{fill:#d62728} .a{fill:#ff7f0e} .s{fill:#1f77b4} .x{fill:#8c8c8c}\n"
	      ".k{fill:url(#hatch)} .u{fill:#9467bd} .f{fill:#000000}\n"
	      ".bg{fill:#f4f4f4;stroke:#555;stroke-width:1} .band{fill:#e4e4e4}\n"
	      ".pg{stroke:#888;stroke-width:0.5;stroke-opacity:0.6}\n"
	      ".tip{fill:#000;fill-opacity:0} .t{font-size:12px} .tt{font-size:16px;font-weight:bold}\n"
	      ".pt{font-size:13px;font-weight:bold} .sm{font-size:10px;fill:#333}\n"
	      "</style>\n</defs>\n", f);
}

static void x_axis(FILE *f, const struct xls_heat_panel *p, const struct layout *l,
		   uint32_t y)
{
	uint64_t bytes = (uint64_t)l->nchunks * 128, step = 128;
	char lab[32];

	while (bytes / step > (bytes > 8192 ? 16u : 8u))
		step *= 2;
	for (uint64_t b = 0; b <= bytes; b += step) {
		double x = LEFT + (double)(b / 128) * l->cw;

		fprintf(f, "<line x1=\"%.2f\" y1=\"%u\" x2=\"%.2f\" y2=\"%u\" stroke=\"#555\"/>",
			x, y, x, y + 4);
		bytes_label(b, bytes > 8192, lab, sizeof(lab));
		fprintf(f, "<text x=\"%.2f\" y=\"%u\" class=\"sm\" text-anchor=\"middle\" %s>%s</text>\n",
			x, y + 14, FONT, lab);
	}
	(void)p;
}

/*
 * The rows' axis: a tick and a label (#seq and LSN of the first row of the
 * display row) as often as 12 px of text allow -- every row when they are
 * 12 px or taller -- and the axis's title above it.
 */
static void y_axis(FILE *f, const struct xls_heat_panel *p, const struct layout *l,
		   uint32_t py)
{
	uint32_t every = (12 + l->rh - 1) / l->rh;

	if (!p->nrows)
		return;
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"sm\" text-anchor=\"end\" %s>%s</text>\n",
		LEFT - 6, py - 4, FONT, p->rows[0].seq ? "#seq  LSN" : "LSN");
	for (uint32_t d = 0; d < l->drows; d += every) {
		const struct xls_heat_row *row = &p->rows[d * l->bin];
		uint32_t y = py + d * l->rh + l->rh / 2 + 4;

		fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#555\"/>",
			LEFT - 4, py + d * l->rh + l->rh / 2, LEFT, py + d * l->rh + l->rh / 2);
		if (row->seq)
			fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"sm\" text-anchor=\"end\" %s>#%u %u/%u</text>\n",
				LEFT - 6, y, FONT, row->seq, (uint32_t)(row->lsn >> 32),
				(uint32_t)row->lsn);
		else
			fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"sm\" text-anchor=\"end\" %s>%u/%u</text>\n",
				LEFT - 6, y, FONT, (uint32_t)(row->lsn >> 32), (uint32_t)row->lsn);
	}
}

/* The dirty runs of one appearance as rectangles of its kind's colour. */
static void draw_row(FILE *f, const struct xls_heat_row *row, const struct layout *l,
		     uint32_t y, bool decisions)
{
	uint32_t n = row->nchunks < l->nchunks ? row->nchunks : l->nchunks;
	const char *cls = kind_class[decisions && row->kind < XLS_HEAT_NKINDS ?
				     row->kind : XLS_HEAT_DIRTY];
	unsigned int pos = 0;
	int s;

	/* rows 4 px or taller keep a 1 px gap: each reads as its own */
	uint32_t h = l->rh >= 4 ? l->rh - 1 : l->rh;

	if (decisions && row->kind == XLS_HEAT_CANCEL) {
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" class=\"k\"/>\n",
			LEFT, y, PLOT_W, h);
		return;
	}
	while ((s = xls_next_bit(row->map, XFS_BLF_DATAMAP_SIZE, pos)) >= 0 &&
	       (uint32_t)s < n) {
		uint32_t run = xls_contig_bits(row->map, XFS_BLF_DATAMAP_SIZE, (unsigned int)s);

		if ((uint32_t)s + run > n)
			run = n - (uint32_t)s;
		fprintf(f, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" class=\"%s\"/>",
			LEFT + s * l->cw, y, run * l->cw, h, cls);
		pos = (unsigned int)s + run;
	}
	fputc('\n', f);
}

/* A hover tooltip per appearance: what it was. */
static void row_tip(FILE *f, const struct xls_heat_row *row, const struct layout *l,
		    uint32_t y, bool decisions)
{
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" class=\"tip\"><title>",
		LEFT, y, PLOT_W, l->rh);
	if (row->seq)
		fprintf(f, "#%u ", row->seq);
	fprintf(f, "tid 0x%08x lsn %u/%u", row->tid, (uint32_t)(row->lsn >> 32),
		(uint32_t)row->lsn);
	if (decisions && row->kind < XLS_HEAT_NKINDS)
		fprintf(f, ": %s", kind_label[row->kind]);
	fputs("</title></rect>\n", f);
}

/* Binned rows: each chunk shaded by how many rows of the bin dirtied it. */
static void draw_bin(FILE *f, const struct xls_heat_panel *p, const struct layout *l,
		     uint32_t first, uint32_t y)
{
	uint32_t end = first + l->bin < p->nrows ? first + l->bin : p->nrows;
	uint32_t c = 0;

	while (c < l->nchunks) {
		unsigned int lev;
		uint32_t cnt = 0, c2;

		for (uint32_t r = first; r < end; r++)
			cnt += c < p->rows[r].nchunks && xls_next_bit(p->rows[r].map,
				XFS_BLF_DATAMAP_SIZE, c) == (int)c;
		lev = heat_level(cnt, l->bin);
		for (c2 = c + 1; c2 < l->nchunks; c2++) {
			uint32_t cnt2 = 0;
			unsigned int lev2;

			for (uint32_t r = first; r < end; r++)
				cnt2 += c2 < p->rows[r].nchunks && xls_next_bit(p->rows[r].map,
					XFS_BLF_DATAMAP_SIZE, c2) == (int)c2;
			lev2 = heat_level(cnt2, l->bin);
			if (lev2 != lev || (cnt2 == 0) != (cnt == 0))
				break;
		}
		if (cnt)
			fprintf(f, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\"/>",
				LEFT + c * l->cw, y, (c2 - c) * l->cw, l->rh, heat[lev]);
		c = c2;
	}
	fputc('\n', f);
}

/* How often each chunk was dirty over all appearances. */
static void strip(FILE *f, const struct xls_heat_panel *p, const struct layout *l,
		  uint32_t y)
{
	uint32_t counts[XFS_BLF_DATAMAP_SIZE * 32];
	uint32_t max = 0, c = 0;

	memset(counts, 0, sizeof(counts));
	for (uint32_t r = 0; r < p->nrows; r++) {
		const struct xls_heat_row *row = &p->rows[r];
		unsigned int pos = 0;
		int s;

		if (row->kind == XLS_HEAT_CANCEL)
			continue;
		while ((s = xls_next_bit(row->map, XFS_BLF_DATAMAP_SIZE, pos)) >= 0 &&
		       (uint32_t)s < l->nchunks && (uint32_t)s < row->nchunks) {
			counts[s]++;
			pos = (unsigned int)s + 1;
		}
	}
	for (uint32_t i = 0; i < l->nchunks && i < XFS_BLF_DATAMAP_SIZE * 32; i++)
		if (counts[i] > max)
			max = counts[i];
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"#ffffff\" stroke=\"#555\"/>\n",
		LEFT, y, PLOT_W, STRIP_H);
	while (c < l->nchunks && c < XFS_BLF_DATAMAP_SIZE * 32) {
		unsigned int lev = heat_level(counts[c], max);
		uint32_t c2 = c + 1;

		while (c2 < l->nchunks && c2 < XFS_BLF_DATAMAP_SIZE * 32 &&
		       heat_level(counts[c2], max) == lev && (counts[c2] == 0) == (counts[c] == 0))
			c2++;
		if (counts[c])
			fprintf(f, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\"/>",
				LEFT + c * l->cw, y, (c2 - c) * l->cw, STRIP_H, heat[lev]);
		c = c2;
	}
	fprintf(f, "\n<text x=\"%u\" y=\"%u\" class=\"sm\" text-anchor=\"end\" %s>times dirty</text>\n",
		LEFT - 6, y + 10, FONT);
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"sm\" text-anchor=\"end\" %s>0 .. %u (darkest)</text>\n",
		WIDTH - RIGHT, y + STRIP_H + 12, FONT, max);
}

static void panel(FILE *f, const struct xls_heat_panel *p, uint32_t y0, bool decisions)
{
	struct layout l;
	uint32_t py = y0 + PANEL_HEAD;

	panel_layout(p, &l);
	fputs("<text x=\"10\" class=\"pt\" " FONT " y=\"", f);
	fprintf(f, "%u\">", y0 + 14);
	xls_svg_xml_text(f, p->title);
	fputs("</text>\n", f);
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" class=\"bg\"/>\n",
		LEFT, py, PLOT_W, l.plot_h);
	/* every other row on a darker band, so that thin rows stay apart */
	for (uint32_t d = 1; d < l.drows; d += 2)
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" class=\"band\"/>",
			LEFT, py + d * l.rh, PLOT_W, l.rh);
	fputc('\n', f);
	for (uint32_t d = 0; d < l.drows; d++) {
		uint32_t y = py + d * l.rh;

		if (l.bin > 1)
			draw_bin(f, p, &l, d * l.bin, y);
		else
			draw_row(f, &p->rows[d], &l, y, decisions);
	}
	/* 4 KiB page boundaries, where old kernels split runs */
	if (l.nchunks > 32)
		for (uint32_t c = 32; c < l.nchunks; c += 32)
			fprintf(f, "<line x1=\"%.2f\" y1=\"%u\" x2=\"%.2f\" y2=\"%u\" class=\"pg\"/>\n",
				LEFT + c * l.cw, py, LEFT + c * l.cw, py + l.plot_h);
	if (l.bin == 1)
		for (uint32_t d = 0; d < l.drows; d++)
			row_tip(f, &p->rows[d], &l, py + d * l.rh, decisions);
	y_axis(f, p, &l, py);
	x_axis(f, p, &l, py + l.plot_h);
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"sm\" %s>byte offset in the buffer (one column per 128-byte chunk%s)</text>\n",
		LEFT, py + l.plot_h + 28, FONT, l.nchunks > 32 ? ", thin lines every 4 KiB" : "");
	strip(f, p, &l, py + l.plot_h + 34);
}

static void legend(FILE *f, uint32_t y, bool decisions, bool binned)
{
	uint32_t x = LEFT;

	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" class=\"bg\"/>"
		"<text x=\"%u\" y=\"%u\" class=\"t\" %s>clean</text>\n", x, y, x + 16, y + 11, FONT);
	x += 80;
	for (unsigned int k = decisions ? 1 : 0; k < (decisions ? XLS_HEAT_NKINDS : 1u); k++) {
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" class=\"%s\"/>"
			"<text x=\"%u\" y=\"%u\" class=\"t\" %s>%s</text>\n",
			x, y, kind_class[k], x + 16, y + 11, FONT, kind_label[k]);
		x += 26 + 7 * (uint32_t)strlen(kind_label[k]);
		if (x > WIDTH - 220) {
			x = LEFT;
			y += 18;
		}
	}
	if (binned)
		fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"sm\" %s>panels with more than %u rows "
			"bin consecutive transactions; shade = share of the bin that dirtied the chunk</text>\n",
			LEFT, y + 30, FONT, MAX_ROWS);
}

int xls_svg_heatmap(FILE *f, const char *title, const struct xls_heat_panel *panels,
		    unsigned int npanels, bool decisions)
{
	uint32_t height = TOP, y;
	bool binned = false;
	struct layout l;

	for (unsigned int i = 0; i < npanels; i++) {
		panel_layout(&panels[i], &l);
		height += l.height;
		binned |= l.bin > 1;
	}
	height += 70;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" height=\"%u\" "
		"viewBox=\"0 0 %u %u\">\n", WIDTH, height, WIDTH, height);
	style(f);
	fprintf(f, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", WIDTH, height);
	fputs("<text x=\"10\" y=\"22\" class=\"tt\" " FONT ">", f);
	xls_svg_xml_text(f, title);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"10\" y=\"42\" class=\"t\" %s>dirty 128-byte chunks (across) of each "
		"logged copy of the buffer, one row per transaction in log order (down)</text>\n", FONT);
	y = TOP;
	for (unsigned int i = 0; i < npanels; i++) {
		panel(f, &panels[i], y, decisions);
		panel_layout(&panels[i], &l);
		y += l.height;
	}
	legend(f, y + 6, decisions, binned);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
