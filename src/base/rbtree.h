/*
 * An intrusive red-black tree whose shape, for one sequence of links and
 * erases, is the Linux kernel's (lib/rbtree.c): the same fix-up cases on
 * insert, the same in-order successor taking an erased node's place and
 * colour, the same rebalancing after.  For a walk whose answer depends on
 * the order it meets the nodes in, as the kernel's busy-extent trim does
 * (src/pass3/libxfs_busy.c): a different balanced tree would trim
 * differently where two busy extents fall inside one free extent.
 *
 * The caller descends from the root itself (its own key and order), links
 * the new node where the descent ended, then colours it in.
 */
#ifndef XLS_RBTREE_H
#define XLS_RBTREE_H

#include <stdbool.h>

struct xls_rbnode {
	struct xls_rbnode	*parent;
	struct xls_rbnode	*child[2];	/* [0] left, [1] right */
	bool			red;
};

struct xls_rbroot {
	struct xls_rbnode	*node;
};

/* @n as the child of @parent at *@link (the root's slot when @parent is NULL). */
void xls_rb_link(struct xls_rbnode *n, struct xls_rbnode *parent, struct xls_rbnode **link);

/* After xls_rb_link: the tree rebalanced around @n (rb_insert_color). */
void xls_rb_insert_color(struct xls_rbnode *n, struct xls_rbroot *root);

/* @n out of the tree (rb_erase). */
void xls_rb_erase(struct xls_rbnode *n, struct xls_rbroot *root);

/* The first node in order, and the next one, or NULL. */
struct xls_rbnode *xls_rb_first(const struct xls_rbroot *root);
struct xls_rbnode *xls_rb_next(const struct xls_rbnode *n);

#endif /* XLS_RBTREE_H */
