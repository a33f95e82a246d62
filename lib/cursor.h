/* SPDX-License-Identifier: ISC */
/*
 * cursor.h -- bounded reader and writer over a byte buffer.
 *
 * Every read of wire data in libdcbx goes through struct cur.  A read past
 * the end returns zeros and sets the sticky 'bad' flag, so a decoder reads
 * its fields and checks once at the end.  Nothing here can touch a byte
 * outside [p, p + left).
 */
#ifndef CURSOR_H
#define CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cur {
	const uint8_t	*p;
	size_t		 left;
	bool		 bad;
};

static inline void
cur_init(struct cur *c, const void *p, size_t len)
{
	c->p = p;
	c->left = len;
	c->bad = false;
}

static inline bool
cur_need(struct cur *c, size_t n)
{
	if (c->bad || c->left < n) {
		c->bad = true;
		return false;
	}
	return true;
}

static inline uint8_t
cur_u8(struct cur *c)
{
	uint8_t v;

	if (!cur_need(c, 1))
		return 0;
	v = c->p[0];
	c->p++;
	c->left--;
	return v;
}

static inline uint16_t
cur_u16(struct cur *c)
{
	uint16_t v;

	if (!cur_need(c, 2))
		return 0;
	v = (uint16_t)(c->p[0] << 8 | c->p[1]);
	c->p += 2;
	c->left -= 2;
	return v;
}

static inline uint32_t
cur_u32(struct cur *c)
{
	uint32_t v;

	if (!cur_need(c, 4))
		return 0;
	v = (uint32_t)c->p[0] << 24 | (uint32_t)c->p[1] << 16 |
	    (uint32_t)c->p[2] << 8 | c->p[3];
	c->p += 4;
	c->left -= 4;
	return v;
}

/* Copy n bytes out; on a short buffer dst is zeroed. */
static inline void
cur_bytes(struct cur *c, void *dst, size_t n)
{
	if (!cur_need(c, n)) {
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, c->p, n);
	c->p += n;
	c->left -= n;
}

/* Borrow n bytes in place (no copy); NULL on a short buffer. */
static inline const uint8_t *
cur_take(struct cur *c, size_t n)
{
	const uint8_t *p;

	if (!cur_need(c, n))
		return NULL;
	p = c->p;
	c->p += n;
	c->left -= n;
	return p;
}

static inline void
cur_skip(struct cur *c, size_t n)
{
	(void)cur_take(c, n);
}

/* Narrow: a sub-cursor over the next n bytes, advancing the parent. */
static inline struct cur
cur_sub(struct cur *c, size_t n)
{
	struct cur s;
	const uint8_t *p = cur_take(c, n);

	cur_init(&s, p, p != NULL ? n : 0);
	s.bad = (p == NULL);
	return s;
}

/* Writer: the same idea for output; 'bad' means it did not fit. */
struct wcur {
	uint8_t	*p;
	size_t	 left;
	size_t	 len;		/* bytes written so far */
	bool	 bad;
};

static inline void
wcur_init(struct wcur *w, void *p, size_t cap)
{
	w->p = p;
	w->left = cap;
	w->len = 0;
	w->bad = false;
}

static inline uint8_t *
wcur_reserve(struct wcur *w, size_t n)
{
	uint8_t *p;

	if (w->bad || w->left < n) {
		w->bad = true;
		return NULL;
	}
	p = w->p;
	w->p += n;
	w->left -= n;
	w->len += n;
	return p;
}

static inline void
wcur_u8(struct wcur *w, uint8_t v)
{
	uint8_t *p = wcur_reserve(w, 1);

	if (p != NULL)
		p[0] = v;
}

static inline void
wcur_u16(struct wcur *w, uint16_t v)
{
	uint8_t *p = wcur_reserve(w, 2);

	if (p != NULL) {
		p[0] = (uint8_t)(v >> 8);
		p[1] = (uint8_t)v;
	}
}

static inline void
wcur_u32(struct wcur *w, uint32_t v)
{
	uint8_t *p = wcur_reserve(w, 4);

	if (p != NULL) {
		p[0] = (uint8_t)(v >> 24);
		p[1] = (uint8_t)(v >> 16);
		p[2] = (uint8_t)(v >> 8);
		p[3] = (uint8_t)v;
	}
}

static inline void
wcur_bytes(struct wcur *w, const void *src, size_t n)
{
	uint8_t *p = wcur_reserve(w, n);

	if (p != NULL && n > 0)
		memcpy(p, src, n);
}

#endif /* CURSOR_H */
