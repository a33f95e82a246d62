/* SPDX-License-Identifier: ISC */
/*
 * mkpcap -- write frames built by OUR encoders to classic pcap files
 * (linktype 1) and, next to each, what every frame is meant to say as
 * tshark field names and values.  tests/interop/tshark.sh compares the two.
 *
 *   mkpcap FRAMES.pcap FRAMES.expect FCS.pcap FCS.expect
 *
 * FRAMES.pcap: LLDP with every basic TLV, every IEEE DCBX TLV, CEE, a
 * shutdown LLDPDU, PFC and PAUSE (no FCS, as a packet socket sends them).
 * FCS.pcap: the PFC and PAUSE frames again with pfc_write()'s FCS.
 *
 * Expectation lines are "FRAME FIELD VALUE" in frame order.  Values come
 * from the models handed to the encoders, never from the encoded bytes, so
 * an encoder bug shows up as a mismatch.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkpcap.h"
#include "pfc.h"

static void
put32(FILE *f, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 24) };

	fwrite(b, 1, 4, f);
}

static void
put16(FILE *f, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	fwrite(b, 1, 2, f);
}

/* Classic pcap, little-endian, microsecond timestamps. */
static FILE *
pcap_open(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL) {
		perror(path);
		exit(2);
	}
	put32(f, 0xa1b2c3d4);
	put16(f, 2);		/* version 2.4 */
	put16(f, 4);
	put32(f, 0);		/* thiszone */
	put32(f, 0);		/* sigfigs */
	put32(f, 65535);	/* snaplen */
	put32(f, 1);		/* LINKTYPE_ETHERNET */
	return f;
}

void
mk_frame(struct mk *m, const uint8_t *p, size_t len, int bad)
{
	if (bad) {
		fprintf(stderr, "mkpcap: frame %d did not encode\n", m->frame);
		m->failed = 1;
		return;
	}
	put32(m->pcap, 1700000000u + (uint32_t)m->frame);
	put32(m->pcap, 0);
	put32(m->pcap, (uint32_t)len);
	put32(m->pcap, (uint32_t)len);
	fwrite(p, 1, len, m->pcap);
}

void
mk_expect(struct mk *m, const char *field, const char *fmt, ...)
{
	va_list ap;

	fprintf(m->ex, "%d %s ", m->frame, field);
	va_start(ap, fmt);
	vfprintf(m->ex, fmt, ap);
	va_end(ap);
	fputc('\n', m->ex);
}

void
mk_expect_mac(struct mk *m, const char *field, const uint8_t a[6])
{
	mk_expect(m, field, "%02x:%02x:%02x:%02x:%02x:%02x",
	    a[0], a[1], a[2], a[3], a[4], a[5]);
}

void
mk_expect_eth(struct mk *m, const uint8_t dst[6], const uint8_t src[6],
    uint16_t type)
{
	mk_expect_mac(m, "eth.dst", dst);
	mk_expect_mac(m, "eth.src", src);
	mk_expect(m, "eth.type", "0x%04x", type);
}

static const uint8_t our_mac[6] = { 0x02, 0xdc, 0xb0, 0x00, 0x00, 0x01 };

/* PFC: priorities 3 (XOFF, max quanta) and 4 (1234), the rest ignored. */
static void
mk_pfc(struct mk *m, unsigned int flags)
{
	static const uint16_t t[PFC_NPRIO] = { 0, 0, 0, 0xffff, 1234, 0, 0, 7 };
	const uint8_t enable = 0x18;
	struct pfc_frame f;
	uint8_t buf[128];
	struct wcur w;
	char name[40];
	int i;

	m->frame++;
	pfc_frame_pfc(&f, our_mac, enable, t);
	wcur_init(&w, buf, sizeof(buf));
	pfc_write(&w, &f, flags);
	mk_frame(m, buf, w.len, w.bad);
	mk_expect_eth(m, pfc_dst_addr, our_mac, PFC_ETHERTYPE);
	mk_expect(m, "macc.opcode", "0x%04x", PFC_OPCODE_PFC);
	mk_expect(m, "macc.cbfc.enbv", "0x%04x", enable);
	for (i = 0; i < PFC_NPRIO; i++) {
		snprintf(name, sizeof(name), "macc.cbfc.enbv.c%d", i);
		mk_expect(m, name, "%d", (enable >> i) & 1);
	}
	for (i = 0; i < PFC_NPRIO; i++) {
		snprintf(name, sizeof(name), "macc.cbfc.pause_time.c%d", i);
		mk_expect(m, name, "%u", t[i]);
	}
}

static void
mk_pause(struct mk *m, unsigned int flags)
{
	const uint16_t quanta = 512;
	struct pfc_frame f;
	uint8_t buf[128];
	struct wcur w;

	m->frame++;
	pfc_frame_pause(&f, our_mac, quanta);
	wcur_init(&w, buf, sizeof(buf));
	pfc_write(&w, &f, flags);
	mk_frame(m, buf, w.len, w.bad);
	mk_expect_eth(m, pfc_dst_addr, our_mac, PFC_ETHERTYPE);
	mk_expect(m, "macc.opcode", "0x%04x", PFC_OPCODE_PAUSE);
	mk_expect(m, "macc.pause_time", "%u", quanta);
}

/*
 * The same frames with an FCS.  tshark 4.0 decodes them identically but
 * neither shows nor checks an FCS on MAC Control frames, so tshark.sh
 * checks the FCS octets against gzip's CRC-32 instead.
 */
static void
mk_fcs_frames(struct mk *m)
{
	mk_pfc(m, PFC_F_FCS);
	mk_pause(m, PFC_F_FCS);
}

static void
mk_open(struct mk *m, const char *pcap, const char *ex)
{
	memset(m, 0, sizeof(*m));
	m->pcap = pcap_open(pcap);
	if ((m->ex = fopen(ex, "w")) == NULL) {
		perror(ex);
		exit(2);
	}
}

static int
mk_close(struct mk *m)
{
	int rc = m->failed;

	if (fclose(m->pcap) != 0 || fclose(m->ex) != 0) {
		perror("mkpcap: close");
		rc = 1;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	struct mk m, f;
	int rc;

	if (argc != 5) {
		fprintf(stderr, "usage: mkpcap FRAMES.pcap FRAMES.expect "
		    "FCS.pcap FCS.expect\n");
		return 2;
	}
	mk_open(&m, argv[1], argv[2]);
	mk_lldp_frames(&m);
	mk_pfc(&m, 0);
	mk_pause(&m, 0);
	rc = mk_close(&m);
	mk_open(&f, argv[3], argv[4]);
	mk_fcs_frames(&f);
	return mk_close(&f) | rc;
}
