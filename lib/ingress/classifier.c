/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Classifier objects: a small per-install object (ops, ctx, id) over a
 * shared, reference-counted body (the kind's compiled data). Plain malloc so
 * that AddressSanitizer sees every use after free; everything is poisoned
 * before free.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "ingress_pvt.h"

static uint32_t next_id = 1;	/* atomic */

void
__ingress_poison(void *p, size_t len)
{
	memset(p, INGRESS_POISON, len);
}

static struct ingress_classifier *
wrap(struct __ingress_body *b, const struct ingress_classifier_ops *ops)
{
	struct ingress_classifier *c = malloc(sizeof(*c));

	if (c == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	c->ops = ops;
	c->ctx = b->ctx;
	c->body = b;
	c->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
	return c;
}

struct ingress_classifier *
ingress_classifier_create(const struct ingress_classifier_ops *ops, void *ctx,
			  const char *desc)
{
	struct __ingress_body *b;
	struct ingress_classifier *c;

	if (ops == NULL || ops->classify_burst == NULL || ops->free == NULL ||
	    ops->kind == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	b = malloc(sizeof(*b));
	if (b == NULL) {
		ops->free(ctx);
		rte_errno = ENOMEM;
		return NULL;
	}
	b->refcnt = 1;
	b->ops = ops;
	b->ctx = ctx;
	snprintf(b->desc, sizeof(b->desc), "%s", desc ? desc : ops->kind);
	c = wrap(b, ops);
	if (c == NULL) {
		ops->free(ctx);
		__ingress_poison(b, sizeof(*b));
		free(b);
	}
	return c;
}

struct ingress_classifier *
__ingress_classifier_view(const struct ingress_classifier *c,
			  const struct ingress_classifier_ops *ops)
{
	struct ingress_classifier *n;

	if (c == NULL || ops == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	n = wrap(c->body, ops);
	if (n == NULL)
		return NULL;
	/* Relaxed: the caller holds a reference, so the body cannot go away
	 * during the increment; nothing else is published by it. */
	__atomic_fetch_add(&c->body->refcnt, 1, __ATOMIC_RELAXED);
	return n;
}

struct ingress_classifier *
ingress_classifier_clone(const struct ingress_classifier *c)
{
	return __ingress_classifier_view(c, c ? c->ops : NULL);
}

void
ingress_classifier_free(struct ingress_classifier *c)
{
	struct __ingress_body *b;

	if (c == NULL)
		return;
	b = c->body;
	__ingress_poison(c, sizeof(*c));
	free(c);
	/* Acq-rel: the last owner's free must happen after every other
	 * owner's last use (their release), as in any refcount. */
	if (__atomic_sub_fetch(&b->refcnt, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	b->ops->free(b->ctx);
	__ingress_poison(b, sizeof(*b));
	free(b);
}

const char *
ingress_classifier_kind(const struct ingress_classifier *c)
{
	return c->ops->kind;
}

const char *
ingress_classifier_desc(const struct ingress_classifier *c)
{
	return c->body->desc;
}

int
ingress_classifier_rules(const struct ingress_classifier *c)
{
	return c->ops->rules != NULL ? c->ops->rules(c->ctx) : -1;
}
