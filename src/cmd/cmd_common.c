#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <uuid/uuid.h>

#include "base/ondisk.h"
#include "cmd/cmd.h"

const char *xls_log_state_name(enum xls_log_state s)
{
	switch (s) {
	case XLS_LOG_CLEAN:	return "clean";
	case XLS_LOG_DIRTY:	return "dirty";
	case XLS_LOG_ZEROED:	return "zeroed";
	}
	return "?";
}

/*
 * --threads, or by default: read-ahead pays only when the reader thread
 * gets a CPU of its own; the affinity mask is what this process may really
 * use (taskset, cgroups).
 */
static enum xls_read_ahead read_ahead_mode(unsigned int threads)
{
	cpu_set_t set;

	if (threads)
		return threads > 1 ? XLS_READ_AHEAD_ON : XLS_READ_AHEAD_OFF;
	if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) < 2)
		return XLS_READ_AHEAD_OFF;
	return XLS_READ_AHEAD_AUTO;
}

int xls_cmd_open(struct xls_cmd *c, const struct xls_options *opt,
		 struct xls_error *err)
{
	memset(c, 0, sizeof(*c));
	c->opt = opt;
	xls_out_init(&c->out, stdout, opt->fmt);
	if (xls_source_open(&c->src, &opt->src, err))
		return -1;
	if (xls_log_init(&c->log, &c->src, err)) {
		xls_source_close(&c->src);
		return -1;
	}
	c->log.read_ahead = read_ahead_mode(opt->threads);
	if (xls_log_find_head_tail(&c->log, &c->ht, err)) {
		xls_cmd_close(c);
		return -1;
	}
	if (c->ht.state == XLS_LOG_ZEROED) {
		/* mkfs always writes an unmount record: a zeroed log is no log */
		xls_error_set(err, XLS_EXIT_INPUT,
			      "'%s': the log is zeroed (no log record in %u blocks at byte %llu)",
			      c->src.path, c->src.geo.log_bbs,
			      (unsigned long long)c->src.geo.log_offset);
		xls_cmd_close(c);
		return -1;
	}
	return 0;
}

void xls_cmd_close(struct xls_cmd *c)
{
	xls_log_release(&c->log);
	xls_source_close(&c->src);
}

int xls_cmd_finding(struct xls_cmd *c, const struct xls_finding *f)
{
	struct xls_fieldset fs;

	c->findings++;
	xls_fields_reset(&fs);
	xls_field_str(&fs, "finding", f->kind);
	if (f->lsn)
		xls_field_lsn(&fs, "lsn", f->lsn);
	xls_field_uint(&fs, "rec_blk", f->rec_blk);
	if (f->offset >= 0)
		xls_field_uint(&fs, "offset", (uint64_t)f->offset);
	if (f->has_tid)
		xls_field_hex(&fs, "tid", f->tid);
	xls_field_str(&fs, "msg", f->msg);
	if (c->out.fmt == XLS_FMT_CSV) {
		/* Findings would break the CSV's one layout: they go to stderr. */
		fprintf(stderr, "xfs_logscope: %s: finding: %s\n", c->src.path, f->msg);
		return 0;
	}
	if (c->out.fmt == XLS_FMT_TEXT) {
		fprintf(c->out.f, "finding: ");
		if (f->lsn)
			fprintf(c->out.f, "LSN %u/%u ", xls_lsn_cycle(f->lsn),
				xls_lsn_block(f->lsn));
		else
			fprintf(c->out.f, "block %u ", f->rec_blk);
		if (f->offset >= 0)
			fprintf(c->out.f, "offset %lld ", (long long)f->offset);
		fprintf(c->out.f, "%s: %s\n", f->kind, f->msg);
		return 0;
	}
	xls_out_record(&c->out, "finding", &fs);
	return 0;
}

void xls_cmd_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct xls_cmd *c = ctx;

	if (!c->opt->progress || !total)
		return;
	fprintf(stderr, "\rxfs_logscope: %3u%% of %llu log blocks",
		(unsigned int)(done * 100 / total), (unsigned long long)total);
	c->progress_shown = true;
}

int xls_cmd_status(struct xls_cmd *c, int rc, const struct xls_error *err)
{
	if (c->progress_shown)
		fputs("\r\033[K", stderr);
	if (xls_out_finish(&c->out)) {
		fprintf(stderr, "xfs_logscope: write failure on standard output\n");
		return XLS_EXIT_INTERNAL;
	}
	if (rc)
		return err->status != XLS_EXIT_OK ? (int)err->status : XLS_EXIT_INTERNAL;
	return c->findings ? XLS_EXIT_FINDINGS : XLS_EXIT_OK;
}

void xls_cmd_geometry_fields(const struct xls_cmd *c, struct xls_fieldset *fs)
{
	const struct xls_geometry *g = &c->src.geo;
	const struct xls_head_tail *ht = &c->ht;
	char uuid[40];

	xls_field_str(fs, "input", c->src.path);
	xls_field_str(fs, "log_location", !g->has_sb ? "bare" :
		      g->external ? "external" : "internal");
	xls_field_uint(fs, "log_offset", g->log_offset);
	xls_field_uint(fs, "log_blocks", g->log_bbs);
	xls_field_uint(fs, "log_bytes", (uint64_t)g->log_bbs * 512);
	xls_field_uint(fs, "sector_size", (uint64_t)g->sect_bbs * 512);
	xls_field_uint(fs, "log_sunit", g->log_sunit);
	xls_field_uint(fs, "log_version", c->log.logv2 ? 2 : 1);
	xls_field_bool(fs, "crc", g->crc);
	if (g->has_sb) {
		uuid_unparse_lower(g->uuid, uuid);
		xls_field_str(fs, "uuid", uuid);
		xls_field_uint(fs, "sb_version", g->sb_versionnum & XFS_SB_VERSION_NUMBITS);
		xls_field_uint(fs, "block_size", g->blocksize);
	}
	xls_field_str(fs, "state", xls_log_state_name(ht->state));
	xls_field_uint(fs, "head_blk", ht->head_blk);
	xls_field_uint(fs, "tail_blk", ht->tail_blk);
	xls_field_lsn(fs, "last_lsn", ht->last_lsn);
	xls_field_lsn(fs, "tail_lsn", ht->tail_lsn);
	xls_field_uint(fs, "active_blocks",
		       ht->state == XLS_LOG_ZEROED ? 0 :
		       xls_log_distance(&c->log, ht->tail_blk, ht->head_blk));
	xls_field_bool(fs, "torn_head", ht->torn);
	if (ht->torn)
		xls_field_uint(fs, "torn_from_blk", ht->found_head_blk);
	xls_field_bool(fs, "tail_moved", ht->tail_moved);
}
