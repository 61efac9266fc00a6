/*
 * Report stage: one analysed buffer item (analysis/analysis.h) as the
 * fields bufs prints, and with -v its regions, split points and the raw
 * inputs of the reconstruction (bitmap words, region lengths), so that an
 * independent implementation can check it (tests/lib/recovery-ref.pl).
 */
#include <stdio.h>

#include "report/describe_buf.h"
#include "report/describe_log.h"

void xls_describe_buf(const struct xls_buf_analysis *ba, struct xls_fieldset *fs)
{
	char buf[160];

	if (!ba->parsed) {
		xls_field_str(fs, XK(finding), ba->why);
		return;
	}
	xls_field_hex(fs, XK(blkno), (uint64_t)ba->blf.blf_blkno);
	xls_field_uint(fs, XK(len), ba->res.buf_bytes);
	xls_field_str(fs, XK(type), xls_blft_name(ba->blft));
	xls_blf_flags_str(ba->blf.blf_flags, buf, sizeof(buf));
	xls_field_str(fs, XK(flag_names), buf);
	xls_field_uint(fs, XK(map_size), ba->blf.blf_map_size);
	xls_field_uint(fs, XK(regions), ba->res.nregions);
	xls_field_uint(fs, XK(runs), ba->res.nruns);
	xls_field_uint(fs, XK(split_runs), ba->res.nsplit_runs);
	xls_field_uint(fs, XK(dirty_bytes), ba->res.dirty_bytes);
	xls_field_real(fs, XK(dirty_pct), ba->dirty_pct);
	xls_field_uint(fs, XK(data_bytes), ba->res.data_bytes);
	xls_field_uint(fs, XK(log_cost), ba->log_cost);
	xls_region_problems_str(ba->res.problems, buf, sizeof(buf));
	xls_field_str(fs, XK(problems), ba->res.problems ? buf : "");
}

static const struct xls_member place_members[] = {
	XLS_MEMBER(offset, uint, struct xls_region_place, offset),
	XLS_MEMBER(len, uint, struct xls_region_place, len),
};

static const struct xls_list place_list = {
	place_members, 2, sizeof(struct xls_region_place), NULL, NULL, "-",
};

static const struct xls_member split_members[] = {
	XLS_MEMBER(chunk, uint, struct xls_split, chunk),
	XLS_MEMBER(offset, uint, struct xls_split, offset),
	XLS_MEMBER(page_boundary, bool, struct xls_split, page_boundary),
};

static const struct xls_list split_list = {
	split_members, 3, sizeof(struct xls_split), NULL, NULL, "-",
};

static const struct xls_member region_len_member[] = {
	XLS_MEMBER_SELF(uint, struct xls_region, len),
};

static const struct xls_list region_len_list = {
	region_len_member, 1, sizeof(struct xls_region), NULL, NULL, "-",
};

void xls_describe_buf_regions(const struct xls_buf_analysis *ba,
			      const struct xls_item *it, struct xls_fieldset *fs)
{
	const struct xls_region_result *r = &ba->res;
	char words[200];
	size_t wpos = 0;

	xls_field_list(fs, XK(region_list), &place_list, r->places, r->nplaces);
	xls_field_list(fs, XK(split_list), &split_list, r->splits, r->nsplits_stored);
	words[0] = '\0';
	for (uint32_t i = 0; i < ba->blf.map_words; i++)
		wpos += (size_t)snprintf(words + wpos, sizeof(words) - wpos, "%s%08x",
					 i ? " " : "", ba->blf.blf_data_map[i]);
	xls_field_str(fs, XK(data_map), words);
	xls_field_list(fs, XK(region_lens), &region_len_list,
		       it->nregions > 1 ? it->regions + 1 : NULL,
		       it->nregions > 1 ? it->nregions - 1 : 0);
}

void xls_describe_owner(const struct xls_owner *o, bool text, struct xls_fieldset *fs)
{
	if (text) {
		char buf[80];

		xls_owner_str(o, buf, sizeof(buf));
		xls_field_str(fs, XK(owner), buf);
		return;
	}
	xls_field_str(fs, XK(owner), xls_owner_kind_name(o->kind));
	if (o->btree)
		xls_field_str(fs, XK(btree), o->btree);
	if (o->has_agno)
		xls_field_uint(fs, XK(agno), o->agno);
	if (o->has_ino)
		xls_field_hex(fs, XK(owner_ino), o->ino);
	if (o->kind == XLS_OWN_INODES) {
		xls_field_hex(fs, XK(ino_first), o->ino_first);
		xls_field_hex(fs, XK(ino_last), o->ino_last);
	}
	xls_field_str(fs, XK(owner_from), xls_owner_from_name(o->from));
}

static void dirent_text(const void *elem, char *buf, size_t bufsz)
{
	const struct xls_dirent_field *d = elem;

	snprintf(buf, bufsz, "%u:0x%llx:%s", d->offset, (unsigned long long)d->ino, d->name);
}

static const struct xls_member dirent_members[] = {
	XLS_MEMBER(offset, uint, struct xls_dirent_field, offset),
	XLS_MEMBER(ino, hex, struct xls_dirent_field, ino),
	XLS_MEMBER(name, str, struct xls_dirent_field, name),
};

static const struct xls_list dirent_list = {
	dirent_members, 3, sizeof(struct xls_dirent_field), dirent_text, " ", NULL,
};

void xls_describe_dirents(const struct xls_dirent_field *e, uint32_t n,
			  struct xls_fieldset *fs)
{
	xls_field_list(fs, XK(dirents), &dirent_list, e,
		       n < XLS_DIRENTS_LIST_MAX ? n : XLS_DIRENTS_LIST_MAX);
}

void xls_print_regions(struct xls_out *o, const struct xls_buf_format *blf,
		       const struct xls_region_result *r, bool splits)
{
	char map[160];

	xls_region_map_str(blf, r, 128, map, sizeof(map));
	xls_out_printf(o, "      map [%s]\n", map);
	for (uint32_t i = 0; i < r->nplaces; i++)
		xls_out_printf(o, "      region %3u  offset %6u  len %6u  chunks %u-%u\n",
			i + 1, r->places[i].offset, r->places[i].len,
			r->places[i].first_chunk,
			r->places[i].first_chunk + r->places[i].nchunks - 1);
	for (uint32_t i = 0; splits && i < r->nsplits_stored; i++)
		xls_out_printf(o, "      split at chunk %u (offset %u)%s\n",
			r->splits[i].chunk, r->splits[i].offset,
			r->splits[i].page_boundary ? " on a 4 KiB page boundary" : "");
}

void xls_print_dirents(struct xls_out *o, const struct xls_dirent_field *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		xls_out_printf(o, "      entry  offset %6u  ino 0x%llx  %s\n", d[i].offset,
			       (unsigned long long)d[i].ino, d[i].name);
}

void xls_describe_svg_panel(const struct xls_svg_panel *p, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(panel), p->panel);
	xls_field_hex(fs, XK(blkno), (uint64_t)p->blkno);
	xls_field_uint(fs, XK(len), p->len);
	xls_field_str(fs, XK(type), p->type);
	xls_field_uint(fs, XK(appearances), p->appearances);
}

void xls_print_svg_panel(struct xls_out *o, const struct xls_svg_panel *p)
{
	xls_out_printf(o, "%3u  daddr 0x%-10llx %6u bytes  %-10s %u appearances\n", p->panel,
		       (unsigned long long)p->blkno, p->len, p->type, p->appearances);
}
