/*
 * Pass 3 stage: the end of the child process libxfs runs in (child.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ondisk.h"
#include "pass3/child.h"

/* The child's report and its pipe while libxfs runs: the child's own, one process. */
static struct pass3_report *child_report;
static int child_out = -1;

void xls_pass3_child_begin(struct pass3_report *rep, int out)
{
	child_report = rep;
	child_out = out;
}

void xls_pass3_child_send(int out, const struct pass3_report *rep)
{
	size_t done = 0;

	while (done < sizeof(*rep)) {
		ssize_t n = write(out, (const char *)rep + done, sizeof(*rep) - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	_exit(rep->status ? 1 : 0);
}

void xls_pass3_child_stop(int error)
{
	struct pass3_report *rep = child_report;

	if (!rep)
		abort();
	rep->status = -1;
	rep->res.corrupt = error == EFSCORRUPTED || error == EFSBADCRC;
	snprintf(rep->why, sizeof(rep->why), "a transaction failed holding changes (%s), "
		 "where the kernel shuts the filesystem down", strerror(error));
	xls_pass3_child_send(child_out, rep);
}
