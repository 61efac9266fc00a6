/*
 * Red-black tree with the kernel's shape rules (see rbtree.h).  Left and
 * right are child[d] and child[!d], so each case is written once for both
 * sides.
 */
#include "base/rbtree.h"

#include <stddef.h>

void xls_rb_link(struct xls_rbnode *n, struct xls_rbnode *parent, struct xls_rbnode **link)
{
	n->parent = parent;
	n->child[0] = n->child[1] = NULL;
	n->red = true;
	*link = n;
}

static bool is_red(const struct xls_rbnode *n)
{
	return n && n->red;
}

/* @old's place under its parent (or the root) given to @new. */
static void change_child(const struct xls_rbnode *old, struct xls_rbnode *new,
			 struct xls_rbnode *parent, struct xls_rbroot *root)
{
	if (!parent)
		root->node = new;
	else
		parent->child[parent->child[1] == old] = new;
}

/*
 * @x's child on side !d (its left when d is 1) rises to @x's place; @x
 * becomes its child on side d.
 */
static void rotate(struct xls_rbroot *root, struct xls_rbnode *x, int d)
{
	struct xls_rbnode *y = x->child[!d];

	x->child[!d] = y->child[d];
	if (y->child[d])
		y->child[d]->parent = x;
	y->parent = x->parent;
	change_child(x, y, x->parent, root);
	y->child[d] = x;
	x->parent = y;
}

void xls_rb_insert_color(struct xls_rbnode *n, struct xls_rbroot *root)
{
	for (;;) {
		struct xls_rbnode *p = n->parent, *g, *uncle;
		int d;

		if (!p) {
			n->red = false;
			return;
		}
		if (!p->red)
			return;
		g = p->parent;
		d = g->child[1] == p;		/* p is g's child on side d */
		uncle = g->child[!d];
		if (is_red(uncle)) {
			p->red = uncle->red = false;
			g->red = true;
			n = g;
			continue;
		}
		if (p->child[!d] == n) {	/* inner grandchild: make it outer */
			rotate(root, p, d);
			p = n;
		}
		rotate(root, g, !d);
		p->red = false;
		g->red = true;
		return;
	}
}

/*
 * A black node left from under @parent: @n, on the side short of one
 * black, is NULL at first -- then the empty side is the short one (the
 * other holds the sibling), as the kernel tells them apart.
 */
static void erase_color(struct xls_rbnode *n, struct xls_rbnode *parent, struct xls_rbroot *root)
{
	while (parent) {
		int d = parent->child[1] == n;
		struct xls_rbnode *s = parent->child[!d];

		/* a black node left, so its sibling is there: else the tree broke the rules */
		if (!s)
			return;
		if (s->red) {			/* sibling red: rotate it up */
			s->red = false;
			parent->red = true;
			rotate(root, parent, d);
			s = parent->child[!d];
		}
		if (!is_red(s->child[!d])) {
			if (!is_red(s->child[d])) {	/* both nephews black */
				s->red = true;
				if (parent->red) {
					parent->red = false;
					return;
				}
				n = parent;
				parent = n->parent;
				continue;
			}
			/* near nephew red, far black: turn it outward */
			s->child[d]->red = false;
			s->red = true;
			rotate(root, s, !d);
			s = parent->child[!d];
		}
		/* far nephew red */
		s->red = parent->red;
		parent->red = false;
		s->child[!d]->red = false;
		rotate(root, parent, d);
		return;
	}
}

void xls_rb_erase(struct xls_rbnode *n, struct xls_rbroot *root)
{
	struct xls_rbnode *left = n->child[0], *right = n->child[1];
	struct xls_rbnode *parent = n->parent, *rebalance = NULL;

	if (!left || !right) {
		/* at most one child: a lone child is red under a black node */
		struct xls_rbnode *c = left ? left : right;

		change_child(n, c, parent, root);
		if (c) {
			c->parent = parent;
			c->red = n->red;
		} else if (!n->red) {
			rebalance = parent;
		}
	} else {
		/* the in-order successor takes n's place and colour */
		struct xls_rbnode *succ = right, *sparent = n, *c2;

		while (succ->child[0]) {
			sparent = succ;
			succ = succ->child[0];
		}
		c2 = succ->child[1];
		if (sparent != n) {
			sparent->child[0] = c2;
			succ->child[1] = right;
			right->parent = succ;
		} else {
			sparent = succ;		/* succ was n's right child */
		}
		succ->child[0] = left;
		left->parent = succ;
		change_child(n, succ, parent, root);
		succ->parent = parent;
		if (c2) {
			c2->parent = sparent;
			c2->red = false;
		} else if (!succ->red) {
			rebalance = sparent;
		}
		succ->red = n->red;
	}
	if (rebalance)
		erase_color(NULL, rebalance, root);
}

struct xls_rbnode *xls_rb_first(const struct xls_rbroot *root)
{
	struct xls_rbnode *n = root->node;

	while (n && n->child[0])
		n = n->child[0];
	return n;
}

struct xls_rbnode *xls_rb_next(const struct xls_rbnode *n)
{
	if (n->child[1]) {
		n = n->child[1];
		while (n->child[0])
			n = n->child[0];
		return (struct xls_rbnode *)n;
	}
	while (n->parent && n->parent->child[1] == n)
		n = n->parent;
	return n->parent;
}
