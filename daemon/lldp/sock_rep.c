/* SPDX-License-Identifier: ISC */
/*
 * sock_rep.c -- the repeat filter of a packet ring (sock_rep.h): its eBPF
 * program, written out here instruction by instruction, and the pool.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/if_packet.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "lldp.h"
#include "sys/log.h"
#include "lldp/sock.h"
#include "lldp/sock_rep.h"

_Static_assert(offsetof(struct sock_rep_shm, len) == 4, "shm");
_Static_assert(offsetof(struct sock_rep_shm, passes) == 8, "shm");
_Static_assert(offsetof(struct sock_rep_shm, hits) == 128, "shm");
_Static_assert(offsetof(struct sock_rep_shm, hit_pass) == 136, "shm");
_Static_assert(offsetof(struct sock_rep_shm, frame) == 192, "shm");
_Static_assert(SOCK_FRAME_MAX <= SOCK_REP_FRAME_MAX, "frame");
_Static_assert(SOCK_REP_FRAME_MAX % 256 == 0, "chunks");

#ifndef SO_ATTACH_BPF
#define SO_ATTACH_BPF	50
#endif

/* ------------------------------------------------------------ assembler */

enum { L_DROP, L_COUNT, L_PASS, L_ET, L_TAG, L_LLDP, L_SAME, L__MAX };

#define REP_FIX_MAX	512

struct rasm {
	struct bpf_insn	*i;
	unsigned int	 max, n;
	bool		 bad;
	int		 lab[L__MAX];
	unsigned int	 nfix;
	struct {
		unsigned int	at;
		int		label;
	} fix[REP_FIX_MAX];
};

static void
put(struct rasm *g, uint8_t code, uint8_t dst, uint8_t src, int16_t off,
    int32_t imm)
{
	if (g->n >= g->max) {
		g->bad = true;
		return;
	}
	g->i[g->n++] = (struct bpf_insn){ .code = code, .dst_reg = dst,
	    .src_reg = src, .off = off, .imm = imm };
}

/* if dst OP imm (or OP src, with BPF_X) goto label */
static void
jto(struct rasm *g, uint8_t op, uint8_t dst, uint8_t src, int32_t imm,
    int label)
{
	put(g, BPF_JMP | op | (src != 0 ? BPF_X : BPF_K), dst, src, 0, imm);
	if (g->bad)
		return;
	if (g->nfix >= REP_FIX_MAX) {
		g->bad = true;
		return;
	}
	g->fix[g->nfix].at = g->n - 1;
	g->fix[g->nfix++].label = label;
}

static void
mark(struct rasm *g, int label)
{
	g->lab[label] = (int)g->n;
}

static void
mov_imm(struct rasm *g, uint8_t dst, int32_t imm)
{
	put(g, BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}

static void
mov_reg(struct rasm *g, uint8_t dst, uint8_t src)
{
	put(g, BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0);
}

static void
add_imm(struct rasm *g, uint8_t dst, int32_t imm)
{
	put(g, BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm);
}

static void
ldx(struct rasm *g, uint8_t size, uint8_t dst, uint8_t src, int16_t off)
{
	put(g, BPF_LDX | BPF_MEM | size, dst, src, off, 0);
}

static void
ld_abs(struct rasm *g, uint8_t size, int32_t off)
{
	put(g, BPF_LD | BPF_ABS | size, 0, 0, 0, off);
}

/* *(size *)(dst + off) op= src; BPF_FETCH: src gets the old value */
static void
atomic(struct rasm *g, uint8_t size, uint8_t dst, uint8_t src, int16_t off,
    int32_t op)
{
	put(g, BPF_STX | BPF_ATOMIC | size, dst, src, off, op);
}

static void
call(struct rasm *g, int32_t fn)
{
	put(g, BPF_JMP | BPF_CALL, 0, 0, 0, fn);
}

static void
ret(struct rasm *g, int32_t v)
{
	mov_imm(g, BPF_REG_0, v);
	put(g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* ------------------------------------------------------------- program */

#define SKB(f)		((int16_t)offsetof(struct __sk_buff, f))
#define SHM(f)		((int16_t)offsetof(struct sock_rep_shm, f))
#define CHUNK		256
#define BUF		(-CHUNK)		/* fp offsets */
#define KEY		(-CHUNK - 16)

/*
 * r6 the frame (LD_ABS wants it there), r7 the shared page, r8 its seq at
 * the start, r9 the armed length.  The frame is read in chunks of 256
 * octets onto the stack and compared with the armed copy 8 octets at a
 * time, the differences or'ed together: one branch a chunk, so that the
 * verifier walks a straight line (a branch per word took it 40 ms a
 * program).  The armed copy is zero past its length (sock_rep_arm()), and
 * so is the stack past a short chunk, so whole words compare equal there.
 * Returns the instructions written, or -ENOSPC.
 */
static int
sock_rep_prog(int map_fd, struct bpf_insn *out, unsigned int max)
{
	struct rasm g;
	unsigned int c, w, k;

	memset(&g, 0, sizeof(g));
	g.i = out;
	g.max = max;
	mov_reg(&g, BPF_REG_6, BPF_REG_1);
	/* sock.c's classic filter: our own frames out, LLDP in. */
	ldx(&g, BPF_W, BPF_REG_0, BPF_REG_6, SKB(pkt_type));
	jto(&g, BPF_JEQ, BPF_REG_0, 0, PACKET_OUTGOING, L_DROP);
	ld_abs(&g, BPF_W, 0);
	jto(&g, BPF_JNE, BPF_REG_0, 0, 0x0180c200, L_DROP);
	ld_abs(&g, BPF_H, 4);
	jto(&g, BPF_JEQ, BPF_REG_0, 0, 0x000e, L_ET);
	jto(&g, BPF_JEQ, BPF_REG_0, 0, 0x0003, L_ET);
	jto(&g, BPF_JNE, BPF_REG_0, 0, 0x0000, L_DROP);
	mark(&g, L_ET);
	ld_abs(&g, BPF_H, 12);
	jto(&g, BPF_JEQ, BPF_REG_0, 0, LLDP_ETHERTYPE, L_LLDP);
	jto(&g, BPF_JEQ, BPF_REG_0, 0, 0x8100, L_TAG);
	jto(&g, BPF_JNE, BPF_REG_0, 0, 0x88a8, L_DROP);
	mark(&g, L_TAG);
	ld_abs(&g, BPF_H, 16);
	jto(&g, BPF_JNE, BPF_REG_0, 0, LLDP_ETHERTYPE, L_DROP);
	mark(&g, L_LLDP);
	/* The shared page: map element 0. */
	put(&g, BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, KEY, 0);
	mov_reg(&g, BPF_REG_2, BPF_REG_10);
	add_imm(&g, BPF_REG_2, KEY);
	put(&g, BPF_LD | BPF_IMM | BPF_DW, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0,
	    map_fd);
	put(&g, 0, 0, 0, 0, 0);
	call(&g, BPF_FUNC_map_lookup_elem);
	jto(&g, BPF_JEQ, BPF_REG_0, 0, 0, L_PASS);
	mov_reg(&g, BPF_REG_7, BPF_REG_0);
	/*
	 * Disarmed or another length: passed at once (a changing flood's
	 * frames take this way).  Else seq, with a full barrier before what
	 * it guards, and the length again under it.
	 */
	ldx(&g, BPF_W, BPF_REG_9, BPF_REG_7, SHM(len));
	ldx(&g, BPF_W, BPF_REG_1, BPF_REG_6, SKB(len));
	jto(&g, BPF_JNE, BPF_REG_1, BPF_REG_9, 0, L_COUNT);
	mov_imm(&g, BPF_REG_8, 0);
	atomic(&g, BPF_W, BPF_REG_7, BPF_REG_8, SHM(seq), BPF_ADD | BPF_FETCH);
	jto(&g, BPF_JSET, BPF_REG_8, 0, 1, L_COUNT);
	ldx(&g, BPF_W, BPF_REG_9, BPF_REG_7, SHM(len));
	ldx(&g, BPF_W, BPF_REG_1, BPF_REG_6, SKB(len));
	jto(&g, BPF_JNE, BPF_REG_1, BPF_REG_9, 0, L_COUNT);
	jto(&g, BPF_JGT, BPF_REG_9, 0, SOCK_REP_FRAME_MAX, L_COUNT);
	jto(&g, BPF_JLT, BPF_REG_9, 0, SOCK_REP_FRAME_MIN, L_COUNT);
	for (c = 0; c < SOCK_REP_FRAME_MAX / CHUNK; c++) {
		int32_t o = (int32_t)(c * CHUNK);

		if (c > 0)
			jto(&g, BPF_JLE, BPF_REG_9, 0, o, L_SAME);
		/* r4 = min(len - o, CHUNK), at least 1; a short one: zeroes */
		mov_reg(&g, BPF_REG_4, BPF_REG_9);
		if (c > 0)
			add_imm(&g, BPF_REG_4, -o);
		put(&g, BPF_JMP | BPF_JLT | BPF_K, BPF_REG_4, 0, 2, CHUNK);
		mov_imm(&g, BPF_REG_4, CHUNK);
		put(&g, BPF_JMP | BPF_JA, 0, 0, CHUNK / 8, 0);
		for (w = 0; w < CHUNK / 8; w++)
			put(&g, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0,
			    (int16_t)(BUF + 8 * (int)w), 0);
		mov_reg(&g, BPF_REG_1, BPF_REG_6);
		mov_imm(&g, BPF_REG_2, o);
		mov_reg(&g, BPF_REG_3, BPF_REG_10);
		add_imm(&g, BPF_REG_3, BUF);
		call(&g, BPF_FUNC_skb_load_bytes);
		jto(&g, BPF_JNE, BPF_REG_0, 0, 0, L_COUNT);
		for (w = 0; w < CHUNK / 8; w++) {
			k = (unsigned int)o + 8 * w;
			ldx(&g, BPF_DW, BPF_REG_1, BPF_REG_10,
			    (int16_t)(BUF + 8 * (int)w));
			ldx(&g, BPF_DW, BPF_REG_2, BPF_REG_7,
			    (int16_t)(SHM(frame) + (int)k));
			put(&g, BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_1,
			    BPF_REG_2, 0, 0);
			put(&g, BPF_ALU64 | BPF_OR | BPF_X, BPF_REG_0,
			    BPF_REG_1, 0, 0);
		}
		jto(&g, BPF_JNE, BPF_REG_0, 0, 0, L_COUNT);
	}
	mark(&g, L_SAME);
	/* The same frame, unless the daemon rewrote it meanwhile. */
	mov_imm(&g, BPF_REG_1, 0);
	atomic(&g, BPF_W, BPF_REG_7, BPF_REG_1, SHM(seq), BPF_ADD | BPF_FETCH);
	jto(&g, BPF_JNE, BPF_REG_1, BPF_REG_8, 0, L_COUNT);
	/* Where it came (stored before the count the daemon reads first). */
	ldx(&g, BPF_DW, BPF_REG_1, BPF_REG_7, SHM(passes));
	put(&g, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_1,
	    SHM(hit_pass), 0);
	mov_imm(&g, BPF_REG_1, 1);
	atomic(&g, BPF_DW, BPF_REG_7, BPF_REG_1, SHM(hits), BPF_ADD);
	ret(&g, 0);
	mark(&g, L_COUNT);
	mov_imm(&g, BPF_REG_1, 1);
	atomic(&g, BPF_DW, BPF_REG_7, BPF_REG_1, SHM(passes), BPF_ADD);
	mark(&g, L_PASS);
	ret(&g, SOCK_FRAME_MAX + 1);
	mark(&g, L_DROP);
	ret(&g, 0);
	if (g.bad)
		return (-ENOSPC);
	for (k = 0; k < g.nfix; k++) {
		int d = g.lab[g.fix[k].label] - (int)g.fix[k].at - 1;

		g.i[g.fix[k].at].off = (int16_t)d;
	}
	return ((int)g.n);
}

/* ---------------------------------------------------------------- pool */

static struct sock_rep	rep_pool[SOCK_REP_POOL_MAX];
static unsigned int	rep_n;

#define REP_SHM_LEN	((sizeof(struct sock_rep_shm) + 4095) & ~(size_t)4095)
#define REP_PROG_MAX	2048

static int
rep_bpf(int cmd, union bpf_attr *attr)
{
	long rc = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return (rc < 0 ? -errno : (int)rc);
}

/* Only at start, so on the heap and given back: 20 kB an idle daemon
 * would otherwise keep. */
struct rep_buf {
	struct bpf_insn	insn[REP_PROG_MAX];
	char		log[4096];
};

static int
rep_make(struct sock_rep *r, struct rep_buf *b, const char **why)
{
	struct bpf_insn *insn = b->insn;
	char *rep_log = b->log;
	union bpf_attr a;
	void *shm;
	int n, fd;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = sizeof(uint32_t);
	a.value_size = sizeof(struct sock_rep_shm);
	a.max_entries = 1;
	a.map_flags = BPF_F_MMAPABLE;
	memcpy(a.map_name, "dcbxd_rep", sizeof("dcbxd_rep"));
	if ((fd = rep_bpf(BPF_MAP_CREATE, &a)) < 0) {
		*why = "BPF_MAP_CREATE";
		return (fd);
	}
	shm = mmap(NULL, REP_SHM_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
	    0);
	if (shm == MAP_FAILED) {
		n = -errno;
		close(fd);
		*why = "mmap of the map";
		return (n);
	}
	if ((n = sock_rep_prog(fd, insn, REP_PROG_MAX)) < 0) {
		*why = "program too long";
		goto fail;
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uint64_t)(uintptr_t)insn;
	a.insn_cnt = (uint32_t)n;
	a.license = (uint64_t)(uintptr_t)"ISC";
	memcpy(a.prog_name, "dcbxd_rep", sizeof("dcbxd_rep"));
	/* Without the verifier's log: with it a load took 5x as long. */
	if ((n = rep_bpf(BPF_PROG_LOAD, &a)) < 0) {
		a.log_buf = (uint64_t)(uintptr_t)rep_log;
		a.log_size = sizeof(b->log);
		a.log_level = 1;
		rep_log[0] = '\0';
		(void)rep_bpf(BPF_PROG_LOAD, &a);
		log_debug(LOG_SUB_LLDP, "repeat filter: verifier: %.400s",
		    rep_log);
		*why = "BPF_PROG_LOAD";
		goto fail;
	}
	r->prog_fd = n;
	/* The program and the mapping hold the map: one descriptor a filter. */
	close(fd);
	r->shm = shm;
	r->used = false;
	return (0);
fail:
	(void)munmap(shm, REP_SHM_LEN);
	close(fd);
	return (n);
}

int
sock_rep_pool_init(unsigned int n, const char **why)
{
	struct rep_buf *b = NULL;
	int rc = 0;

	*why = NULL;
	sock_rep_pool_fini();
	if (n > SOCK_REP_POOL_MAX)
		n = SOCK_REP_POOL_MAX;
	if (n > 0 && (b = malloc(sizeof(*b))) == NULL) {
		*why = "malloc";
		return (-ENOMEM);
	}
	while (rep_n < n && (rc = rep_make(&rep_pool[rep_n], b, why)) == 0)
		rep_n++;
	free(b);
	return (rep_n > 0 || n == 0 ? (int)rep_n : rc);
}

void
sock_rep_pool_fini(void)
{
	while (rep_n > 0) {
		struct sock_rep *r = &rep_pool[--rep_n];

		(void)munmap(r->shm, REP_SHM_LEN);
		close(r->prog_fd);
		memset(r, 0, sizeof(*r));
	}
}

struct sock_rep *
sock_rep_get(void)
{
	unsigned int i;

	for (i = 0; i < rep_n; i++) {
		struct sock_rep *r = &rep_pool[i];

		if (r->used)
			continue;
		/* No socket has it: nothing counts meanwhile. */
		sock_rep_disarm(r);
		__atomic_store_n(&r->shm->passes, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&r->shm->hits, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&r->shm->hit_pass, 0, __ATOMIC_RELAXED);
		r->used = true;
		return (r);
	}
	return (NULL);
}

void
sock_rep_put(struct sock_rep *r)
{
	if (r != NULL)
		r->used = false;
}

int
sock_rep_attach(const struct sock_rep *r, int fd)
{
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_BPF, &r->prog_fd,
	    sizeof(r->prog_fd)) < 0)
		return (-errno);
	return (0);
}

/*
 * A sequence lock: odd while the frame is rewritten.  The program reads
 * seq (a locked add of 0, a full barrier) before and after its compare
 * and drops nothing if it changed, so it never matches half a frame.
 */
bool
sock_rep_arm(struct sock_rep *r, const uint8_t *frame, size_t len)
{
	struct sock_rep_shm *m = r->shm;

	if (len < SOCK_REP_FRAME_MIN || len > SOCK_REP_FRAME_MAX)
		return (false);
	(void)__atomic_fetch_add(&m->seq, 1, __ATOMIC_SEQ_CST);
	memcpy(m->frame, frame, len);
	/* Zeroes past it: the program compares whole words (above). */
	memset(m->frame + len, 0, SOCK_REP_FRAME_MAX - len);
	__atomic_store_n(&m->len, (uint32_t)len, __ATOMIC_RELAXED);
	(void)__atomic_fetch_add(&m->seq, 1, __ATOMIC_SEQ_CST);
	return (true);
}

void
sock_rep_disarm(struct sock_rep *r)
{
	struct sock_rep_shm *m = r->shm;

	(void)__atomic_fetch_add(&m->seq, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&m->len, 0, __ATOMIC_RELAXED);
	(void)__atomic_fetch_add(&m->seq, 1, __ATOMIC_SEQ_CST);
}

const uint8_t *
sock_rep_frame(const struct sock_rep *r, size_t *len)
{
	*len = r->shm->len;
	return (*len != 0 ? r->shm->frame : NULL);
}

/* hits first: the program stores hit_pass before it counts. */
uint64_t
sock_rep_hits(const struct sock_rep *r, uint64_t *hit_pass)
{
	uint64_t h = __atomic_load_n(&r->shm->hits, __ATOMIC_ACQUIRE);

	*hit_pass = __atomic_load_n(&r->shm->hit_pass, __ATOMIC_RELAXED);
	return (h);
}
