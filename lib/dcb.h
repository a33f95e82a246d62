/* SPDX-License-Identifier: ISC */
/*
 * dcb.h -- the one DCB model of dcbxd.
 *
 * struct dcb_config (ETS configuration, ETS recommendation, PFC, APP table)
 * is what the config file parses into, what the IEEE and CEE codecs read and
 * write, what negotiation takes and returns, what the backends apply and what
 * the control socket and SNMP show.  Convert at the edges; never copy it.
 *
 * libdcbx does no I/O and keeps no globals.  Decoding allocates nothing
 * (bench_decode counts); what is kept for a port's lifetime -- a
 * dcb_config_kept, the negotiation state of dcbx.h -- is on the heap at
 * its size, and every such call says what it does when memory runs out.
 */
#ifndef DCB_H
#define DCB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DCB_NPRIO	8		/* 802.1p priorities */
#define DCB_NTC		8		/* traffic classes */
/* An APP TLV holds at most (511 - 5) / 3 = 168 entries (802.1Qaz D.2.11). */
#define DCB_APP_MAX	168

/* Transmission selection algorithms, 802.1Q-2018 Table 8-6 (values on wire). */
enum dcb_tsa {
	DCB_TSA_STRICT	= 0,
	DCB_TSA_CBS	= 1,
	DCB_TSA_ETS	= 2,
	DCB_TSA_VENDOR	= 255,
};

/* APP selectors as on the wire in the IEEE APP TLV (802.1Q D.2.11, Qcd). */
enum dcb_app_sel {
	DCB_APP_SEL_ETHERTYPE	= 1,
	DCB_APP_SEL_STREAM	= 2,	/* TCP/SCTP port */
	DCB_APP_SEL_DGRAM	= 3,	/* UDP/DCCP port */
	DCB_APP_SEL_ANY		= 4,	/* TCP/SCTP/UDP/DCCP port ("port") */
	DCB_APP_SEL_DSCP	= 5,	/* 802.1Qcd */
};

struct dcb_ets {
	bool	willing;		/* meaningless in a recommendation */
	bool	cbs;
	uint8_t	ets_cap;		/* TCs supported, 1..8 (wire 0 means 8) */
	uint8_t	prio_tc[DCB_NPRIO];	/* priority -> traffic class */
	uint8_t	tc_bw[DCB_NTC];		/* percent */
	uint8_t	tc_tsa[DCB_NTC];	/* enum dcb_tsa */
};

struct dcb_pfc {
	bool	willing;
	bool	mbc;			/* MACsec bypass capability */
	uint8_t	pfc_cap;		/* priorities that may have PFC at once */
	uint8_t	pfc_en;			/* bit n = priority n */
	uint16_t delay;			/* link delay allowance, bits (not on wire) */
};

struct dcb_app {
	uint8_t	 selector;		/* enum dcb_app_sel */
	uint8_t	 priority;		/* 0..7 */
	uint16_t protocol;		/* ethertype, port or DSCP (0..63) */
};

struct dcb_app_table {
	bool		willing;	/* CEE carries one; IEEE has none */
	uint16_t	n;
	struct dcb_app	e[DCB_APP_MAX];
};

/*
 * The peer's Application VLAN table (802.1Qcd, 802.1Q-2018 D.2.14): the
 * VLAN each application should use.  Informational: shown, never
 * negotiated, so not part of struct dcb_config.  One TLV holds at most
 * (511 - 4) / 4 = 126 entries; ieee_app_vlan_validate() judges it.
 */
#define DCB_APP_VLAN_MAX	126
struct dcb_app_vlan {
	uint8_t	 selector;		/* enum dcb_app_sel */
	uint16_t protocol;
	uint16_t vid;			/* 1..4094 */
};
struct dcb_app_vlan_table {
	uint16_t		n;
	struct dcb_app_vlan	e[DCB_APP_VLAN_MAX];
};

/* Which parts of a dcb_config carry information. */
#define DCB_HAS_ETS	0x01
#define DCB_HAS_RECO	0x02
#define DCB_HAS_PFC	0x04
#define DCB_HAS_APP	0x08

struct dcb_config {
	uint8_t			has;	/* DCB_HAS_* */
	struct dcb_ets		ets;
	struct dcb_ets		reco;
	struct dcb_pfc		pfc;
	struct dcb_app_table	app;
};

/*
 * A dcb_config as stored for the life of a port (its admin policy, its
 * operational config): the same fields, with only the APP entries it holds
 * on the heap.  A port with no APP entries keeps 72 bytes instead of 738.
 * ets, reco, pfc and has read as in a dcb_config; the APP table is
 * napp entries at app (NULL when napp is 0) -- dcb_config_unpack() gives
 * the whole struct back.  A zeroed one is valid and empty.  Each one owns
 * its entries and is never copied, by assignment or otherwise: its owner
 * stores it from a whole config with dcb_config_keep() (nothing else
 * needs a second one; unpack and keep if that ever changes).
 */
struct dcb_config_kept {
	uint8_t		has;		/* DCB_HAS_* */
	bool		app_willing;
	uint16_t	napp;
	struct dcb_ets	ets, reco;
	struct dcb_pfc	pfc;
	struct dcb_app	*app;
};
/*
 * Store c in k, reusing k's entries when the count is the same.  Returns
 * 0, or -ENOMEM with k unchanged.
 */
int	dcb_config_keep(struct dcb_config_kept *k, const struct dcb_config *c);
/* The whole config back in buf; returns buf. */
struct dcb_config *dcb_config_unpack(const struct dcb_config_kept *,
	    struct dcb_config *buf);
/* dcb_config_equal() of the unpacked config and c. */
bool	dcb_config_kept_equal(const struct dcb_config_kept *,
	    const struct dcb_config *);
/* Give the entries back; k is then empty (napp 0) and may be reused. */
void	dcb_config_kept_free(struct dcb_config_kept *k);

/* Reason codes shared by decoders and validators; dcb_strerror() names them. */
enum dcb_err {
	DCB_OK = 0,
	DCB_ERR_LENGTH,		/* TLV or field length wrong */
	DCB_ERR_TC_RANGE,	/* a TC index >= ets_cap or >= 8 */
	DCB_ERR_BW_SUM,		/* ETS bandwidths do not sum to 100 */
	DCB_ERR_TSA,		/* reserved TSA value */
	DCB_ERR_PFC_CAP,	/* more PFC priorities than pfc_cap */
	DCB_ERR_PRIO,		/* priority > 7 */
	DCB_ERR_SELECTOR,	/* reserved APP selector */
	DCB_ERR_PROTOCOL,	/* protocol out of range for its selector */
	DCB_ERR_DUP,		/* duplicate (selector, protocol, priority) */
	DCB_ERR_TOO_MANY,	/* table full */
	DCB_ERR_VALUE,		/* other bad value */
	DCB_ERR__MAX
};
const char	*dcb_strerror(int);

/*
 * Defaults: ets_cap 8, all priorities in TC 0, every TC ETS with TC 0 at
 * 100 %; PFC off with pfc_cap 8; no APP.  The config default has all four
 * DCB_HAS_* bits set.
 */
void	dcb_ets_default(struct dcb_ets *);
void	dcb_pfc_default(struct dcb_pfc *);
void	dcb_config_default(struct dcb_config *);

/*
 * Validation.  Each returns DCB_OK or a DCB_ERR_* code and, when why is not
 * NULL, a human sentence naming the offending field ("tc-bw sums to 110,
 * not 100, with a TC using ets") in why->buf.
 *  - ETS: ets_cap 1..8; every prio_tc below ets_cap (so below 8); TSA
 *    0, 1, 2 or 255 (3..254 reserved); each tc_bw <= 100; the sum is 100
 *    when any TC uses ETS, else 0 or 100 (all-strict tables may send 0).
 *  - PFC: pfc_cap 0..8; no more priorities enabled than pfc_cap.
 *  - APP: selector 1..5, priority 0..7, DSCP 0..63, ethertype 0 (default
 *    priority) or >= 0x600, a TCP/UDP port 1..65535; a table has no
 *    exact duplicate entry.
 *  - config: each part named in has, the reason prefixed by the part
 *    ("ets-reco: ...").
 */
struct dcb_why {
	char	buf[128];
};
int	dcb_ets_validate(const struct dcb_ets *, struct dcb_why *);
int	dcb_pfc_validate(const struct dcb_pfc *, struct dcb_why *);
int	dcb_app_validate(const struct dcb_app *, struct dcb_why *);
int	dcb_app_table_validate(const struct dcb_app_table *, struct dcb_why *);
int	dcb_config_validate(const struct dcb_config *, struct dcb_why *);

bool	dcb_ets_equal(const struct dcb_ets *, const struct dcb_ets *);
bool	dcb_pfc_equal(const struct dcb_pfc *, const struct dcb_pfc *);
/* Equality compares every field, delay included. */
/* Order-insensitive comparison of the entries (willing ignored). */
bool	dcb_app_table_equal(const struct dcb_app_table *,
	    const struct dcb_app_table *);
bool	dcb_config_equal(const struct dcb_config *, const struct dcb_config *);

/*
 * APP table editing.  add returns DCB_OK, DCB_ERR_DUP (the same selector,
 * protocol and priority is there already) or DCB_ERR_TOO_MANY; it does not
 * validate (call dcb_app_validate()).  del removes the exact entry, keeping
 * the order of the others, or returns DCB_ERR_VALUE when it is absent.
 */
int	dcb_app_add(struct dcb_app_table *, const struct dcb_app *);
int	dcb_app_del(struct dcb_app_table *, const struct dcb_app *);
/* Sort entries by (selector, protocol, priority) for stable output. */
void	dcb_app_sort(struct dcb_app_table *);

/*
 * Rates and sizes, one spelling for the config file and dcbctl: digits,
 * then at most one upper-case K, M, G or T (powers of base: 1000 for a
 * rate in bits per second, 1024 for a size in octets); a bare number is
 * bits per second (octets).  "10G", "25000M", "0"; not "10g", "2.5G",
 * "16MB".  0, or -1 when s is not one.
 */
int	dcb_units_parse(const char *s, uint64_t base, uint64_t *out);
/* The words of a refusal, shared by every place that reads a rate. */
#define DCB_UNITS_WHY	"a number with an optional K, M, G or T suffix (\"10G\")"
/*
 * A link speed (a rate) as 802.3 speeds are: whole Mb/s from 1M to
 * 1600G.  DCB_OK, or DCB_ERR_VALUE with the sentence in why ("speed 100
 * b/s is below 1M: write \"100M\" for 100 Mb/s").
 */
int	dcb_speed_check(uint64_t bps, struct dcb_why *why);
/* "10G", "2500M": a speed in Mb/s in the words above. */
const char *dcb_speed_name(uint32_t mbps, char buf[16]);

/*
 * Keyword tables: one table serves parsing and printing.  Lookups are exact
 * (no prefix matching).  kw_name() returns "?" for unknown values.
 */
struct dcb_kw {
	int		 val;
	const char	*name;
};
extern const struct dcb_kw dcb_tsa_kw[];	/* strict cbs ets vendor */
extern const struct dcb_kw dcb_sel_kw[];	/* ethertype stream-port dgram-port port dscp */
int		 dcb_kw_lookup(const struct dcb_kw *, const char *, int *);
const char	*dcb_kw_name(const struct dcb_kw *, int);

#endif /* DCB_H */
