/* SPDX-License-Identifier: ISC */
/*
 * table.c -- aligned text tables for dcbctl's human output.  Cells are
 * added row by row; widths are computed when printing, so a column is as
 * wide as its widest cell whatever the data (5000 neighbours or none).
 */
#include "dcbctl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_MAXCOLS	32

struct table {
	int	  ncols;
	size_t	  n, cap;
	char	**cells;
};

struct table *
table_new(int ncols)
{
	struct table *t = calloc(1, sizeof(*t));

	if (t == NULL || ncols < 1 || ncols > TABLE_MAXCOLS) {
		fprintf(stderr, "dcbctl: out of memory\n");
		exit(1);
	}
	t->ncols = ncols;
	return t;
}

void
table_add(struct table *t, const char *s)
{
	char **p;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		if ((p = realloc(t->cells, t->cap * sizeof(*p))) == NULL) {
			fprintf(stderr, "dcbctl: out of memory\n");
			exit(1);
		}
		t->cells = p;
	}
	if ((t->cells[t->n++] = strdup(s)) == NULL) {
		fprintf(stderr, "dcbctl: out of memory\n");
		exit(1);
	}
}

void
table_addf(struct table *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	table_add(t, buf);
}

void
table_print(struct table *t, FILE *f, const char *indent)
{
	size_t w[TABLE_MAXCOLS] = { 0 }, i, r, len, nc = (size_t)t->ncols;
	size_t last, c;

	for (i = 0; i < t->n; i++) {
		len = strlen(t->cells[i]);
		if (len > w[i % nc])
			w[i % nc] = len;
	}
	for (r = 0; r < t->n; r += nc) {
		/* Trailing empty cells and the last cell are not padded. */
		for (last = 0, c = 0; c < nc && r + c < t->n; c++)
			if (t->cells[r + c][0] != '\0')
				last = c;
		fputs(indent, f);
		for (c = 0; c < last; c++)
			fprintf(f, "%-*s  ", (int)w[c], t->cells[r + c]);
		fprintf(f, "%s\n", t->cells[r + last]);
	}
}

/* Fill the current row up with empty cells. */
void
table_end_row(struct table *t)
{
	while (t->n % (size_t)t->ncols != 0)
		table_add(t, "");
}

void
table_free(struct table *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

const char *
json_text(const json_t *v, char *buf, size_t len)
{
	if (v == NULL)
		return "-";
	switch (json_typeof(v)) {
	case JSON_STRING:
		return json_string_value(v);
	case JSON_INTEGER:
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		return buf;
	case JSON_REAL:
		snprintf(buf, len, "%g", json_real_value(v));
		return buf;
	case JSON_TRUE:
		return "on";
	case JSON_FALSE:
		return "off";
	default:
		return json_is_null(v) ? "-" : "...";
	}
}
