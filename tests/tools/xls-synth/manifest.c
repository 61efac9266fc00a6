/*
 * xls-synth's manifest: what the decoder must find in the log just written,
 * one "KIND FRAGMENT..." line per fact, and -C, the check of decoder JSON
 * Lines against a manifest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

/* ------------------------------------------------------------------ */
/* the manifest */

void print_manifest(struct synth *s)
{
	uint32_t nshow = 0, wrapped = 0, bad = 0, committed = 0, incomplete = 0, corrupt = 0;
	uint32_t ntrans = 0, nbufs = 0, nany = 0;
	struct rec *last = NULL;

	for (uint32_t i = 0; i < s->nrecs; i++) {
		struct rec *r = s->recs[i];

		if (!r->show)
			continue;
		nshow++;
		wrapped += r->wrapped;
		bad += r->crc_xor != 0;
		if (!last || mklsn(r->cycle, r->blk) > mklsn(last->cycle, last->blk))
			last = r;
		printf("record \"lsn\":\"%u/%u\" \"blk\":%u \"cycle\":%u \"version\":%u"
		       " \"h_len\":%u \"h_size\":%u \"hblks\":%u \"data_blks\":%u"
		       " \"ops\":%u \"ops_walked\":%u \"unused\":%u \"tail_lsn\":\"%u/%u\""
		       " \"prev_block\":%u \"h_crc\":\"0x%x\" \"crc_calc\":\"0x%x\""
		       " \"crc_status\":\"%s\" \"wrapped\":%s \"bad_cycle_blocks\":%u",
		       r->cycle, r->blk, r->blk, r->cycle, r->version, r->h_len, r->h_size,
		       r->hblks, r->data_len / BB, r->nops, r->walk_set ? r->walk_ops : r->nops,
		       r->h_len - (r->walk_set ? r->walk_used : r->used),
		       (uint32_t)(r->tail_lsn >> 32), (uint32_t)r->tail_lsn, r->prev_block,
		       r->crc ^ r->crc_xor, r->crc,
		       r->crc_xor ? "BAD" : "ok",
		       r->wrapped ? "true" : "false", r->bad_stamps);
		printf("\n");
	}
	printf("count record %u\n", nshow);
	for (uint32_t i = 0; i < s->ntrans; i++) {
		struct tinfo *t = &s->trans[i];

		if (t->hide)
			continue;
		ntrans++;
		if (t->any_state) {
			nany++;
			printf("trans \"tid\":\"0x%x\" \"lsn\":\"%u/%u\"\n",
			       t->tid, (uint32_t)(t->lsn >> 32), (uint32_t)t->lsn);
			continue;
		}
		if (!t->state)
			committed++;
		else if (!strcmp(t->state, "incomplete"))
			incomplete++;
		else if (!strcmp(t->state, "corrupt"))
			corrupt++;
		printf("trans \"tid\":\"0x%x\" \"lsn\":\"%u/%u\" \"state\":\"%s\"",
		       t->tid, (uint32_t)(t->lsn >> 32), (uint32_t)t->lsn,
		       t->state ? t->state : "committed");
		if (!t->brief)
			printf(" \"commit_lsn\":\"%u/%u\" \"th_type\":%u \"th_num_items\":%u"
			       " \"items\":%u \"regions\":%u \"records\":%u"
			       " \"region_bytes\":%llu",
			       (uint32_t)(t->commit_lsn >> 32), (uint32_t)t->commit_lsn,
			       XFS_TRANS_CHECKPOINT, t->th_num_items, t->items, t->regions,
			       t->records, (unsigned long long)t->region_bytes);
		printf("\n");
		/* every op header of the transaction (start, header, regions,
		 * continuations, commit): commented out, see t0502-synth-corrupt */
		if (!t->brief)
			printf("# trans \"tid\":\"0x%x\" \"op_bytes\":%llu\n",
			       t->tid, (unsigned long long)t->op_bytes);
	}
	printf("count trans %u\n", ntrans);
	for (uint32_t i = 0; i < s->nbufs; i++) {
		struct binfo *b = s->bufs[i];
		unsigned int type = (b->flags & XFS_BLFT_MASK) >> XFS_BLFT_SHIFT;
		uint64_t bytes = (uint64_t)b->len_bb * BB;

		if (b->hide || tinfo_get(s, b->tid)->hide)
			continue;
		nbufs++;
		printf("buf \"tid\":\"0x%x\" \"index\":%u \"blkno\":\"0x%llx\" \"len\":%llu"
		       " \"type\":\"%s\"", b->tid, b->index, (unsigned long long)b->blkno,
		       (unsigned long long)bytes, type < 21 ? blft_names[type] : "?");
		if (b->flags & XFS_BLF_INODE_BUF)
			printf(" \"flag_names\":\"inode_buf\"");
		printf(" \"map_size\":%u \"regions\":%u \"runs\":%u \"split_runs\":%u"
		       " \"dirty_bytes\":%llu \"dirty_pct\":%.4f \"data_bytes\":%llu"
		       " \"log_cost\":%llu \"problems\":\"\" \"region_list\":[",
		       b->map_size, b->regions, b->runs, b->split_runs,
		       (unsigned long long)b->dirty_bytes,
		       bytes ? 100.0 * (double)b->dirty_bytes / (double)bytes : 0.0,
		       (unsigned long long)b->data_bytes, (unsigned long long)b->log_cost);
		for (uint32_t r = 0; r < b->nreg; r++)
			printf("%s{\"offset\":%u,\"len\":%u}", r ? "," : "", b->reg_off[r], b->reg_len[r]);
		printf("] \"split_list\":[");
		for (uint32_t k = 0; k < b->nsplit; k++)
			printf("%s{\"chunk\":%u,\"offset\":%u,\"page_boundary\":%s}", k ? "," : "",
			       b->split_chunk[k], b->split_chunk[k] * XFS_BLF_CHUNK,
			       b->split_chunk[k] * XFS_BLF_CHUNK % 4096 ? "false" : "true");
		printf("]\n");
		printf("item \"tid\":\"0x%x\" \"index\":%u \"item\":\"buf\" \"type_code\":\"0x%x\""
		       " \"size\":%u \"regions\":%u \"blkno\":\"0x%llx\" \"len_bb\":%u \"len\":%llu"
		       " \"map_size\":%u \"flags\":\"0x%x\" \"buf_type\":\"%s\" \"data_bytes\":%llu\n",
		       b->tid, b->index, XFS_LI_BUF, b->blf_size, b->regions + 1,
		       (unsigned long long)b->blkno, b->len_bb, (unsigned long long)bytes,
		       b->map_size, b->flags, type < 21 ? blft_names[type] : "?",
		       (unsigned long long)b->data_bytes);
	}
	printf("count buf %u\n", nbufs);
	printf("info \"state\":\"%s\" \"records\":%u \"records_wrapped\":%u \"crc_bad\":%u"
	       " \"trans_committed\":%u \"torn_head\":%s \"tail_moved\":%s",
	       s->unmount || !s->nwritten ? "clean" : "dirty",
	       nshow, wrapped, bad, committed,
	       s->torn_expected ? "true" : "false", s->tail_moved ? "true" : "false");
	if (!nany)
		printf(" \"trans_incomplete\":%u \"trans_corrupt\":%u", incomplete, corrupt);
	if (!s->bare)
		printf(" \"log_version\":%d \"sector_size\":%u \"log_sunit\":%u"
		       " \"crc\":%s \"sb_version\":%d \"log_offset\":%u \"log_bbs\":%u",
		       s->log_version, s->logsect, s->sunit,
		       s->sb_version == 5 ? "true" : "false", s->sb_version,
		       FS_LOGSTART * FS_BLOCKSIZE, s->nblks);
	else
		printf(" \"log_location\":\"bare\" \"log_bbs\":%u", s->nblks);
	if (s->torn_expected)
		printf(" \"torn_from_blk\":%u", s->blk);
	if (last && !s->unmount) {
		printf(" \"head_blk\":%u \"tail_blk\":%u \"last_lsn\":\"%u/%u\" \"tail_lsn\":\"%u/%u\"",
		       s->head_override ? s->head_override - 1 : s->blk,
		       s->tail_moved ? s->tail_moved - 1 : (uint32_t)last->tail_lsn,
		       last->cycle, last->blk,
		       (uint32_t)(last->tail_lsn >> 32), (uint32_t)last->tail_lsn);
	} else {
		/* clean: the head is after the unmount record, the tail too */
		printf(" \"head_blk\":%u \"tail_blk\":%u", s->blk, s->blk);
	}
	printf("\n");
}

/* ------------------------------------------------------------------ */
/* -C: check decoder JSON Lines against the manifest */

static char *slurp_line(FILE *f)
{
	size_t cap = 256, n = 0;
	char *b = malloc(cap);
	int c;

	if (!b)
		die("out of memory");
	while ((c = getc(f)) != EOF && c != '\n') {
		if (n + 1 == cap) {
			char *nb = realloc(b, cap *= 2);

			if (!nb)
				die("out of memory");
			b = nb;
		}
		b[n++] = (char)c;
	}
	if (c == EOF && n == 0) {
		free(b);
		return NULL;
	}
	b[n] = '\0';
	return b;
}

static bool kind_selected(const char *kinds, const char *kind)
{
	size_t n = strlen(kind);

	if (!kinds)
		return true;
	for (const char *p = kinds; *p; ) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, kind, n))
			return true;
		p += len + (e ? 1 : 0);
	}
	return false;
}

/* Does JSON object @j hold "key":value @frag as a whole member? */
static bool has_member(const char *j, const char *frag)
{
	size_t n = strlen(frag);

	for (const char *p = strstr(j, frag); p; p = strstr(p + 1, frag))
		if (p > j && (p[-1] == ',' || p[-1] == '{') && (p[n] == ',' || p[n] == '}'))
			return true;
	return false;
}

int check(const char *manifest, const char *json, const char *kinds)
{
	FILE *mf = strcmp(manifest, "-") ? fopen(manifest, "r") : stdin;
	FILE *jf = fopen(json, "r");
	char **lines = NULL, *l;
	size_t n = 0, cap = 0;
	int bad = 0, checked = 0;

	if (!mf || !jf)
		die("cannot open '%s' or '%s'", manifest, json);
	while ((l = slurp_line(jf))) {
		if (n == cap) {
			char **nl = realloc(lines, (cap = cap ? cap * 2 : 64) * sizeof(*nl));

			if (!nl)
				die("out of memory");
			lines = nl;
		}
		lines[n++] = l;
	}
	while ((l = slurp_line(mf))) {
		char kind[64], prefix[96], *frags, *save = NULL;
		int best = -1, best_i = -1;

		if (sscanf(l, "%63s", kind) != 1 || kind[0] == '#') {
			free(l);
			continue;
		}
		if (!strcmp(kind, "count")) {
			char what[64];
			unsigned int want, have = 0;

			if (sscanf(l, "count %63s %u", what, &want) == 2 && kind_selected(kinds, what)) {
				snprintf(prefix, sizeof(prefix), "{\"kind\":\"%s\",", what);
				for (size_t i = 0; i < n; i++)
					have += !strncmp(lines[i], prefix, strlen(prefix));
				checked++;
				if (have != want) {
					printf("count %s: %u in the output, %u expected\n", what, have, want);
					bad++;
				}
			}
			free(l);
			continue;
		}
		if (!kind_selected(kinds, kind)) {
			free(l);
			continue;
		}
		checked++;
		snprintf(prefix, sizeof(prefix), "{\"kind\":\"%s\",", kind);
		for (size_t i = 0; i < n; i++) {
			char *copy, *f;
			int hits = 0, all = 1;

			if (strncmp(lines[i], prefix, strlen(prefix)))
				continue;
			copy = strdup(l + strlen(kind));
			if (!copy)
				die("out of memory");
			for (f = strtok_r(copy, " \t", &save); f; f = strtok_r(NULL, " \t", &save)) {
				if (has_member(lines[i], f))
					hits++;
				else
					all = 0;
			}
			free(copy);
			if (all) {
				best = -2;
				break;
			}
			if (hits > best) {
				best = hits;
				best_i = (int)i;
			}
		}
		if (best != -2) {
			bad++;
			printf("missing: %s\n", l);
			if (best_i >= 0) {
				printf("closest: %s\n", lines[best_i]);
				frags = strdup(l + strlen(kind));
				if (!frags)
					die("out of memory");
				for (char *f = strtok_r(frags, " \t", &save); f;
				     f = strtok_r(NULL, " \t", &save))
					if (!has_member(lines[best_i], f))
						printf("  differs: %s\n", f);
				free(frags);
			}
		}
		free(l);
	}
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	if (mf != stdin)
		fclose(mf);
	fclose(jf);
	if (!checked) {
		printf("nothing in the manifest for kinds %s\n", kinds ? kinds : "(any)");
		return 1;
	}
	return bad ? 1 : 0;
}
