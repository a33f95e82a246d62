/* SPDX-License-Identifier: ISC */
/*
 * bench_decode -- how long one DCBX LLDPDU takes to decode, and proof that
 * decoding allocates nothing.
 *
 * The PDU is what a DCB switch port typically sends: chassis, port, TTL,
 * port description, system name and description, capabilities, then ETS
 * Configuration, ETS Recommendation, PFC and an APP TLV of 20 entries,
 * and End.  A second case decodes a CEE LLDPDU (control, PG, PFC, App).
 *
 * malloc, calloc, realloc and free are interposed in this binary and count
 * their calls; the "allocs" column is the count during the timed runs and
 * must be 0.  Under AddressSanitizer the interposition would fight ASan's
 * own allocator, so there the column reads -1 (not measured).
 *
 * Usage: bench_decode [--json] [iterations per run]
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_dcbx.h"
#include "cee.h"
#include "ieee.h"
#include "lldp.h"

#if defined(__SANITIZE_ADDRESS__)
#define BENCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_ASAN 1
#endif
#endif

#define BENCH_RUNS	9	/* median of these, after one warm-up run */

static volatile uint64_t alloc_calls;

#ifndef BENCH_ASAN
void	*__libc_malloc(size_t);
void	*__libc_calloc(size_t, size_t);
void	*__libc_realloc(void *, size_t);
void	 __libc_free(void *);

void *
malloc(size_t n)
{
	alloc_calls++;
	return __libc_malloc(n);
}

void *
calloc(size_t n, size_t m)
{
	alloc_calls++;
	return __libc_calloc(n, m);
}

void *
realloc(void *p, size_t n)
{
	alloc_calls++;
	return __libc_realloc(p, n);
}

void
free(void *p)
{
	__libc_free(p);
}
#endif

struct pdu_buf {
	uint8_t	b[LLDP_MAX_PDU];
	size_t	len;
};

static void
local_basic(struct wcur *w)
{
	static const uint8_t mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };
	struct lldp_local l;

	memset(&l, 0, sizeof(l));
	l.chassis_subtype = LLDP_CHASSIS_MAC;
	l.chassis_len = 6;
	memcpy(l.chassis_id, mac, 6);
	l.port_subtype = LLDP_PORT_IFNAME;
	l.port_len = 11;
	memcpy(l.port_id, "Ethernet1/3", 11);
	l.ttl = 120;
	l.port_desc = "uplink to spine-2, lossless RoCE";
	l.sys_name = "leaf-07.rack12";
	l.sys_desc = "DCB switch OS 9.3(8), build 2024-05-01";
	l.has_caps = true;
	l.cap_sys = l.cap_en = LLDP_CAP_BRIDGE | LLDP_CAP_ROUTER;
	lldp_write_local(w, &l);
}

static void
build_ieee(struct pdu_buf *pb)
{
	struct dcb_config c;
	struct wcur w;

	bench_switch_config(&c, 0);
	wcur_init(&w, pb->b, sizeof(pb->b));
	local_basic(&w);
	ieee_ets_write(&w, &c.ets);
	ieee_reco_write(&w, &c.reco);
	ieee_pfc_write(&w, &c.pfc);
	ieee_app_write(&w, &c.app);
	lldp_write_end(&w);
	pb->len = w.bad ? 0 : w.len;
}

static void
build_cee(struct pdu_buf *pb)
{
	struct cee_tlv t;
	struct wcur w;

	memset(&t, 0, sizeof(t));
	t.ctrl.seq = 7;
	t.ctrl.ack = 6;
	dcb_config_default(&t.cfg);
	t.cfg.ets.tc_bw[0] = 50;
	t.cfg.ets.tc_bw[1] = 50;
	t.cfg.ets.prio_tc[3] = 1;
	t.cfg.pfc.pfc_en = 0x08;
	dcb_app_add(&t.cfg.app, &(struct dcb_app){ DCB_APP_SEL_ETHERTYPE, 3,
	    0x8906 });
	dcb_app_add(&t.cfg.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 4, 3260 });
	for (int f = 0; f < CEE_FEAT__MAX; f++)
		t.feat[f] = (struct cee_feat){ .present = true, .enable = true,
		    .willing = f != CEE_FEAT_PG };
	wcur_init(&w, pb->b, sizeof(pb->b));
	local_basic(&w);
	cee_write(&w, &t);
	lldp_write_end(&w);
	pb->len = w.bad ? 0 : w.len;
}

/* The cases; each returns something the optimiser must keep. */
enum { CASE_LLDP, CASE_IEEE_ONLY, CASE_IEEE, CASE_CEE };

static struct lldp_pdu pdu;
static struct ieee_peer peer;
static struct cee_tlv cee;

static unsigned int
run_once(int which, const struct pdu_buf *pb)
{
	switch (which) {
	case CASE_LLDP:
		return (unsigned int)lldp_decode(pb->b, pb->len, &pdu) +
		    pdu.norg;
	case CASE_IEEE_ONLY:
		return ieee_peer_decode(&pdu, &peer) + peer.cfg.app.n;
	case CASE_IEEE:
		lldp_decode(pb->b, pb->len, &pdu);
		return ieee_peer_decode(&pdu, &peer) + peer.cfg.has;
	default:
		lldp_decode(pb->b, pb->len, &pdu);
		return (unsigned int)cee_peer_decode(&pdu, &cee) + cee.cfg.has;
	}
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct result {
	double		ns_per_op;
	uint64_t	allocs;
	unsigned int	sink;
};

static struct result
bench_case(int which, const struct pdu_buf *pb, uint64_t iters)
{
	double ns[BENCH_RUNS];
	struct result r = { 0, 0, 0 };
	uint64_t a0;

	if (which == CASE_IEEE_ONLY)
		lldp_decode(pb->b, pb->len, &pdu);
	for (uint64_t i = 0; i < iters; i++)	/* warm-up */
		r.sink += run_once(which, pb);
	a0 = alloc_calls;
	for (int run = 0; run < BENCH_RUNS; run++) {
		uint64_t t0 = now_ns();

		for (uint64_t i = 0; i < iters; i++)
			r.sink += run_once(which, pb);
		ns[run] = (double)(now_ns() - t0) / (double)iters;
	}
	r.allocs = alloc_calls - a0;
	qsort(ns, BENCH_RUNS, sizeof(ns[0]), cmp_double);
	r.ns_per_op = ns[BENCH_RUNS / 2];
	return r;
}

/* Prove the counter counts before trusting its zero. */
static bool
counter_works(void)
{
#ifndef BENCH_ASAN
	uint64_t before = alloc_calls;
	void *volatile p = malloc(16);

	free(p);
	return alloc_calls != before;
#else
	return true;
#endif
}

int
main(int argc, char **argv)
{
	static const struct { int which; const char *name; } cases[] = {
		{ CASE_LLDP, "lldp_decode (ieee pdu)" },
		{ CASE_IEEE_ONLY, "ieee_peer_decode" },
		{ CASE_IEEE, "lldp_decode+ieee_peer_decode" },
		{ CASE_CEE, "lldp_decode+cee_peer_decode" },
	};
	struct pdu_buf ieee_pb, cee_pb;
	uint64_t iters = 200000;
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else
			iters = strtoull(argv[i], NULL, 10);
	}
	if (iters == 0)
		iters = 1;
	if (!counter_works()) {
		fprintf(stderr, "bench_decode: malloc is not interposed\n");
		return 1;
	}
	build_ieee(&ieee_pb);
	build_cee(&cee_pb);
	if (ieee_pb.len == 0 || cee_pb.len == 0) {
		fprintf(stderr, "bench_decode: cannot build the test PDUs\n");
		return 1;
	}
	if (!json)
		printf("%-30s %6s %10s %10s %10s %7s\n", "case", "bytes",
		    "iters", "ns/pdu", "MB/s", "allocs");
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct pdu_buf *pb = cases[k].which == CASE_CEE ?
		    &cee_pb : &ieee_pb;
		struct result r = bench_case(cases[k].which, pb, iters);
		long long allocs = -1;
		double mbs = (double)pb->len * 1e3 / r.ns_per_op;

#ifndef BENCH_ASAN
		allocs = (long long)r.allocs;
#endif
		if (json)
			printf("{\"case\":\"%s\",\"bytes\":%zu,\"iters\":%" PRIu64
			    ",\"ns_per_pdu\":%.1f,\"mb_per_s\":%.1f,"
			    "\"allocs\":%lld}\n", cases[k].name, pb->len, iters,
			    r.ns_per_op, mbs, allocs);
		else
			printf("%-30s %6zu %10" PRIu64 " %10.1f %10.1f %7lld\n",
			    cases[k].name, pb->len, iters, r.ns_per_op, mbs,
			    allocs);
		if (r.sink == 0xdeadbeef)
			putchar(' ');
	}
	return 0;
}
