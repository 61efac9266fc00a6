/*
 * base/rbtree: 200,000 random links and erases (keys unique, in random
 * order, erased from anywhere: leaves, one-child nodes, two-child nodes,
 * the root) checked after every step against a sorted model -- the
 * in-order walk the model's keys, parents consistent with children, the
 * root black, no red node with a red child, one black height.
 */
#include <stdint.h>
#include <stdlib.h>

#include "tap.h"
#include "base/rbtree.h"

#define NKEYS	4000u

struct item {
	struct xls_rbnode	rb;	/* first: a node is its item */
	uint32_t		key;
	bool			in;
};

/* Black height of @n's subtree, or -1 when it breaks a rule. */
static int check(const struct xls_rbnode *n, const struct xls_rbnode *parent)
{
	int l, r;

	if (!n)
		return 1;
	if (n->parent != parent)
		return -1;
	if (n->red && ((n->child[0] && n->child[0]->red) || (n->child[1] && n->child[1]->red)))
		return -1;
	l = check(n->child[0], n);
	r = check(n->child[1], n);
	if (l < 0 || l != r)
		return -1;
	return l + !n->red;
}

static bool agrees(const struct xls_rbroot *root, const struct item *items)
{
	const struct xls_rbnode *n = xls_rb_first(root);

	if (root->node && (root->node->red || check(root->node, NULL) < 0))
		return false;
	for (uint32_t k = 0; k < NKEYS; k++) {
		if (!items[k].in)
			continue;
		if (!n || ((const struct item *)n)->key != k)
			return false;
		n = xls_rb_next(n);
	}
	return n == NULL;
}

static void insert(struct xls_rbroot *root, struct item *it)
{
	struct xls_rbnode **link = &root->node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = &parent->child[it->key > ((struct item *)parent)->key];
	}
	xls_rb_link(&it->rb, parent, link);
	xls_rb_insert_color(&it->rb, root);
	it->in = true;
}

int main(void)
{
	static struct item items[NKEYS];
	struct xls_rbroot root = { NULL };
	struct tap t = { 0, 0 };
	uint32_t bad = 0, count = 0, steps = 200000;
	uint64_t seed = 48;

	for (uint32_t k = 0; k < NKEYS; k++)
		items[k].key = k;
	for (uint32_t i = 0; i < steps; i++) {
		struct item *it = &items[tap_rand(&seed) % NKEYS];
		/* grow to about 3/4 full, then hover there */
		uint64_t r = tap_rand(&seed) >> 8;
		bool add = count < NKEYS * 3 / 4 ? r % 4 != 0 : r % 2 == 0;

		if (add && !it->in) {
			insert(&root, it);
			count++;
		} else if (!add && it->in) {
			xls_rb_erase(&it->rb, &root);
			it->in = false;
			count--;
		}
		if (!agrees(&root, items) && bad++ == 0)
			tap_diag("step %u: the tree breaks a rule or differs from the model", i);
	}
	tap_ok(&t, bad == 0, "%u random links and erases: every step in order and balanced (%u wrong)",
	   steps, bad);
	for (uint32_t k = 0; k < NKEYS; k++)
		if (items[k].in) {
			xls_rb_erase(&items[k].rb, &root);
			items[k].in = false;
		}
	tap_ok(&t, root.node == NULL && agrees(&root, items), "erased one by one in key order: empty");
	/* ascending inserts: the worst case for an unbalanced tree */
	for (uint32_t k = 0; k < NKEYS; k++)
		insert(&root, &items[k]);
	tap_ok(&t, agrees(&root, items) && check(root.node, NULL) <= 13,
	   "%u keys linked in ascending order: balanced, black height %d", NKEYS,
	   check(root.node, NULL));
	return tap_done(&t);
}
