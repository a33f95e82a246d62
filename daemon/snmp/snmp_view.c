/* SPDX-License-Identifier: ISC */
/*
 * snmp_view.c -- a sorted list of object instances, for GET and GETNEXT.
 *
 * A walk of the whole tree is one sort plus one binary search per
 * request, and the view is rebuilt only when it is stale (snmp.c), so a
 * busy NMS costs O(log n) per varbind and never reads the ports while a
 * request is half done.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "snmp/snmp_int.h"

void
snmp_oid_set(struct snmp_oid *o, const uint32_t *n, size_t len)
{
	if (len > SNMP_OID_MAX) {
		len = SNMP_OID_MAX;
		o->bad = true;
	} else
		o->bad = false;
	memcpy(o->n, n, len * sizeof(*n));
	o->len = (uint8_t)len;
}

void
snmp_oid_push(struct snmp_oid *o, uint32_t v)
{
	if (o->len >= SNMP_OID_MAX) {
		o->bad = true;
		return;
	}
	o->n[o->len++] = v;
}

int
snmp_oid_cmp(const uint32_t *a, size_t alen, const uint32_t *b, size_t blen)
{
	size_t i, n = alen < blen ? alen : blen;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return (a[i] < b[i] ? -1 : 1);
	return (alen == blen ? 0 : alen < blen ? -1 : 1);
}

/* True when oid lies in the subtree rooted at root (root included). */
bool
snmp_oid_under(const uint32_t *oid, size_t len, const uint32_t *root,
    size_t rlen)
{
	return (len >= rlen &&
	    memcmp(oid, root, rlen * sizeof(*root)) == 0);
}

void
snmp_view_clear(struct snmp_view *vw)
{
	vw->n = 0;
	vw->alen = 0;
	vw->oom = false;
}

void
snmp_view_free(struct snmp_view *vw)
{
	free(vw->v);
	free(vw->arena);
	memset(vw, 0, sizeof(*vw));
}

static struct snmp_var *
view_add(struct snmp_view *vw, const struct snmp_oid *o)
{
	struct snmp_var *v;

	if (o->bad)
		return (NULL);		/* never serve a cut OID */
	if (vw->n == vw->cap) {
		size_t cap = vw->cap != 0 ? vw->cap * 2 : 256;

		if ((v = realloc(vw->v, cap * sizeof(*v))) == NULL) {
			vw->oom = true;
			return (NULL);
		}
		vw->v = v;
		vw->cap = cap;
	}
	v = &vw->v[vw->n];
	v->oid = *o;
	v->seq = (uint32_t)vw->n++;
	v->slen = 0;
	v->soff = 0;
	v->num = 0;
	return (v);
}

void
snmp_view_num(struct snmp_view *vw, const struct snmp_oid *o,
    enum snmp_vt type, int64_t num)
{
	struct snmp_var *v;

	if ((v = view_add(vw, o)) == NULL)
		return;
	v->type = (uint8_t)type;
	v->num = num;
}

void
snmp_view_str(struct snmp_view *vw, const struct snmp_oid *o,
    const void *s, size_t len)
{
	struct snmp_var *v;
	uint8_t *a;

	if (len > 65535)
		len = 65535;
	if (vw->alen + len > vw->acap) {
		size_t cap = vw->acap != 0 ? vw->acap : 4096;

		while (cap < vw->alen + len)
			cap *= 2;
		if ((a = realloc(vw->arena, cap)) == NULL) {
			vw->oom = true;
			return;
		}
		vw->arena = a;
		vw->acap = cap;
	}
	if ((v = view_add(vw, o)) == NULL)
		return;
	v->type = SV_OCTETS;
	v->soff = (uint32_t)vw->alen;
	v->slen = (uint16_t)len;
	if (len > 0)
		memcpy(vw->arena + vw->alen, s, len);
	vw->alen += len;
}

static int
var_cmp(const void *a, const void *b)
{
	const struct snmp_var *x = a, *y = b;
	int c = snmp_oid_cmp(x->oid.n, x->oid.len, y->oid.n, y->oid.len);

	if (c != 0)
		return (c);
	return (x->seq < y->seq ? -1 : x->seq > y->seq);
}

void
snmp_view_sort(struct snmp_view *vw)
{
	size_t i, j;

	if (vw->n == 0)
		return;
	qsort(vw->v, vw->n, sizeof(*vw->v), var_cmp);
	/*
	 * Two rows can claim one instance (two APP entries with the same
	 * selector and protocol but different priorities: the MIB indexes
	 * by selector and protocol only).  Keep the first.
	 */
	for (i = 1, j = 0; i < vw->n; i++)
		if (snmp_oid_cmp(vw->v[i].oid.n, vw->v[i].oid.len,
		    vw->v[j].oid.n, vw->v[j].oid.len) != 0)
			vw->v[++j] = vw->v[i];
	vw->n = j + 1;
}

const struct snmp_var *
snmp_view_find(const struct snmp_view *vw, const uint32_t *oid, size_t len,
    bool next, bool inclusive)
{
	size_t lo = 0, hi = vw->n, mid;
	int c;

	/* lo = the first instance >= oid. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = snmp_oid_cmp(vw->v[mid].oid.n, vw->v[mid].oid.len, oid, len);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == vw->n)
		return (NULL);
	c = snmp_oid_cmp(vw->v[lo].oid.n, vw->v[lo].oid.len, oid, len);
	if (!next)
		return (c == 0 ? &vw->v[lo] : NULL);
	if (c == 0 && !inclusive)
		lo++;
	return (lo < vw->n ? &vw->v[lo] : NULL);
}

const uint8_t *
snmp_var_str(const struct snmp_view *vw, const struct snmp_var *v)
{
	return (vw->arena != NULL ? vw->arena + v->soff : (const uint8_t *)"");
}
