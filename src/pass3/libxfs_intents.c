// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 stage: the intents pass 2 left pending, finished as the kernel's
 * xlog_recover_process_intents finishes them.  Each, in the order of its
 * commit, becomes the work items its type's recover_work makes of what the
 * intent logged (xfs_extent_free_recover_work, xfs_rmap_recover_work,
 * xfs_refcount_recover_work, xfs_bmap_recover_work,
 * xfs_exchmaps_recover_work: the same fields, the owner of a freed extent
 * unknown, no AG reservation), finished in a
 * transaction of its own whose follow-on work is captured rather than
 * finished (xfs_defer_ops_capture_and_commit); once every intent has had
 * its turn, the captured chains are finished in the same order
 * (xlog_finish_defer_ops).  Each item is finished by libxfs's own defer
 * types, that is by the kernel's libxfs code.
 */
#include "libxfs.h"
#include "xfs_exchmaps.h"

#include "base/vec.h"
#include "pass3/libxfs_work.h"

/*
 * How many work items one intent of @ops carries in the kernel (its defer
 * type's max_items: XFS_EFI_MAX_FAST_EXTENTS, XFS_RUI_..., XFS_CUI_...,
 * XFS_BUI_MAX_FAST_EXTENTS, one exchange), 0 for no limit.  libxfs's
 * types leave it unset and so gather every item of a kind into one
 * intent, finished before the work that item defers: the kernel finishes
 * the first bmap update's rmap update before the second bmap update.
 */
static unsigned int kernel_max_items(const struct xfs_defer_op_type *ops)
{
	if (ops == &xfs_bmap_update_defer_type || ops == &xfs_exchmaps_defer_type ||
	    ops == &xfs_attr_defer_type)
		return 1;
	if (ops == &xfs_extent_free_defer_type || ops == &xfs_agfl_free_defer_type ||
	    ops == &xfs_rmap_update_defer_type || ops == &xfs_refcount_update_defer_type)
		return 16;
	return ops->max_items;
}

struct xfs_defer_pending *__real_xfs_defer_add(struct xfs_trans *tp, struct list_head *li,
					       const struct xfs_defer_op_type *ops);
struct xfs_defer_pending *__wrap_xfs_defer_add(struct xfs_trans *tp, struct list_head *li,
					       const struct xfs_defer_op_type *ops);

/*
 * xfs_defer_add with the kernel's limit: where the last pending item of
 * @ops is full by it, libxfs is made to start another (a paused one takes
 * no more work; the flag is put back at once).
 */
struct xfs_defer_pending *__wrap_xfs_defer_add(struct xfs_trans *tp, struct list_head *li,
					       const struct xfs_defer_op_type *ops)
{
	unsigned int max = kernel_max_items(ops);
	struct xfs_defer_pending *last, *dfp;
	unsigned int was;

	if (list_empty(&tp->t_dfops))
		return __real_xfs_defer_add(tp, li, ops);
	last = list_last_entry(&tp->t_dfops, struct xfs_defer_pending, dfp_list);
	if (last->dfp_ops != ops || !max || last->dfp_count < max)
		return __real_xfs_defer_add(tp, li, ops);
	was = last->dfp_flags;
	last->dfp_flags |= XFS_DEFER_PAUSED;
	dfp = __real_xfs_defer_add(tp, li, ops);
	last->dfp_flags = was;
	return dfp;
}

/* Why the kernel's recovery would refuse @e of an intent of @type, or NULL. */
static const char *bad_extent(struct xfs_mount *mp, uint16_t type,
			      const struct xls_libxfs_extent *e)
{
	switch (type) {
	case XFS_LI_EFI:
		break;
	case XFS_LI_RUI:
		if (!xfs_has_rmapbt(mp) || (e->flags & ~XFS_RMAP_EXTENT_FLAGS) ||
		    (e->flags & XFS_RMAP_EXTENT_TYPE_MASK) < XFS_RMAP_EXTENT_MAP ||
		    (e->flags & XFS_RMAP_EXTENT_TYPE_MASK) > XFS_RMAP_EXTENT_FREE ||
		    (!XFS_RMAP_NON_INODE_OWNER(e->owner) && !libxfs_verify_ino(mp, e->owner)) ||
		    !xfs_verify_fileext(mp, e->startoff, e->len))
			return "an RUI mapping the kernel rejects";
		break;
	case XFS_LI_CUI:
		if (!xfs_has_reflink(mp) || (e->flags & ~XFS_REFCOUNT_EXTENT_FLAGS) ||
		    (e->flags & XFS_REFCOUNT_EXTENT_TYPE_MASK) < XFS_REFCOUNT_INCREASE ||
		    (e->flags & XFS_REFCOUNT_EXTENT_TYPE_MASK) > XFS_REFCOUNT_FREE_COW)
			return "a CUI extent the kernel rejects";
		break;
	case XFS_LI_BUI:
		if ((e->flags & ~XFS_BMAP_EXTENT_FLAGS) ||
		    ((e->flags & XFS_BMAP_EXTENT_TYPE_MASK) != XFS_BMAP_MAP &&
		     (e->flags & XFS_BMAP_EXTENT_TYPE_MASK) != XFS_BMAP_UNMAP) ||
		    !libxfs_verify_ino(mp, e->owner) ||
		    !xfs_verify_fileext(mp, e->startoff, e->len))
			return "a BUI mapping the kernel rejects";
		if (e->flags & XFS_BMAP_EXTENT_REALTIME)
			return "a BUI of the realtime device";
		break;
	default:
		return "an intent of a kind this pass 3 does not finish";
	}
	if (!xfs_verify_fsbext(mp, e->startblock, e->len))
		return "an intent naming blocks outside the filesystem";
	return NULL;
}

static void efi_item(struct xfs_mount *mp, struct xfs_defer_pending *dfp,
		     const struct xls_libxfs_extent *e)
{
	struct xfs_extent_free_item *xefi = kmem_cache_zalloc(xfs_extfree_item_cache, 0);

	xefi->xefi_startblock = e->startblock;
	xefi->xefi_blockcount = e->len;
	xefi->xefi_agresv = XFS_AG_RESV_NONE;
	xefi->xefi_owner = XFS_RMAP_OWN_UNKNOWN;
	xefi->xefi_group = xfs_group_intent_get(mp, e->startblock, XG_TYPE_AG);
	xfs_defer_add_item(dfp, &xefi->xefi_list);
}

static void rui_item(struct xfs_mount *mp, struct xfs_defer_pending *dfp,
		     const struct xls_libxfs_extent *e)
{
	static const enum xfs_rmap_intent_type by_code[] = {
		[XFS_RMAP_EXTENT_MAP] = XFS_RMAP_MAP,
		[XFS_RMAP_EXTENT_MAP_SHARED] = XFS_RMAP_MAP_SHARED,
		[XFS_RMAP_EXTENT_UNMAP] = XFS_RMAP_UNMAP,
		[XFS_RMAP_EXTENT_UNMAP_SHARED] = XFS_RMAP_UNMAP_SHARED,
		[XFS_RMAP_EXTENT_CONVERT] = XFS_RMAP_CONVERT,
		[XFS_RMAP_EXTENT_CONVERT_SHARED] = XFS_RMAP_CONVERT_SHARED,
		[XFS_RMAP_EXTENT_ALLOC] = XFS_RMAP_ALLOC,
		[XFS_RMAP_EXTENT_FREE] = XFS_RMAP_FREE,
	};
	struct xfs_rmap_intent *ri = kmem_cache_zalloc(xfs_rmap_intent_cache, 0);

	ri->ri_type = by_code[e->flags & XFS_RMAP_EXTENT_TYPE_MASK];
	ri->ri_owner = e->owner;
	ri->ri_whichfork = (e->flags & XFS_RMAP_EXTENT_ATTR_FORK) ? XFS_ATTR_FORK : XFS_DATA_FORK;
	ri->ri_bmap.br_startblock = e->startblock;
	ri->ri_bmap.br_startoff = e->startoff;
	ri->ri_bmap.br_blockcount = e->len;
	ri->ri_bmap.br_state = (e->flags & XFS_RMAP_EXTENT_UNWRITTEN) ? XFS_EXT_UNWRITTEN :
									 XFS_EXT_NORM;
	ri->ri_group = xfs_group_intent_get(mp, e->startblock, XG_TYPE_AG);
	xfs_defer_add_item(dfp, &ri->ri_list);
}

static void cui_item(struct xfs_mount *mp, struct xfs_defer_pending *dfp,
		     const struct xls_libxfs_extent *e)
{
	struct xfs_refcount_intent *ri = kmem_cache_zalloc(xfs_refcount_intent_cache, 0);

	ri->ri_type = e->flags & XFS_REFCOUNT_EXTENT_TYPE_MASK;
	ri->ri_startblock = e->startblock;
	ri->ri_blockcount = e->len;
	ri->ri_group = xfs_group_intent_get(mp, e->startblock, XG_TYPE_AG);
	xfs_defer_add_item(dfp, &ri->ri_list);
}

static void bui_item(struct xfs_mount *mp, struct xfs_defer_pending *dfp,
		     const struct xls_libxfs_extent *e, struct xfs_inode *ip)
{
	struct xfs_bmap_intent *bi = kmem_cache_zalloc(xfs_bmap_intent_cache, 0);

	bi->bi_whichfork = (e->flags & XFS_BMAP_EXTENT_ATTR_FORK) ? XFS_ATTR_FORK : XFS_DATA_FORK;
	bi->bi_type = e->flags & XFS_BMAP_EXTENT_TYPE_MASK;
	bi->bi_bmap.br_startblock = e->startblock;
	bi->bi_bmap.br_startoff = e->startoff;
	bi->bi_bmap.br_blockcount = e->len;
	bi->bi_bmap.br_state = (e->flags & XFS_BMAP_EXTENT_UNWRITTEN) ? XFS_EXT_UNWRITTEN :
									 XFS_EXT_NORM;
	bi->bi_owner = ip;
	bi->bi_group = xfs_group_intent_get(mp, e->startblock, XG_TYPE_AG);
	/* pre-recorded as xfs_bmap_defer_add does; the item's cancel takes it off */
	if (bi->bi_type == XFS_BMAP_MAP)
		ip->i_delayed_blks += e->len;
	xfs_defer_add_item(dfp, &bi->bi_list);
}

/* The defer type of an intent, and the blocks its recovery transaction reserves. */
static const struct xfs_defer_op_type *intent_type(struct xfs_mount *mp, uint16_t type,
						   unsigned int *blocks, unsigned int *flags)
{
	*blocks = 0;
	*flags = 0;
	switch (type) {
	case XFS_LI_EFI:
		return &xfs_extent_free_defer_type;
	case XFS_LI_RUI:
		*blocks = mp->m_rmap_maxlevels;
		*flags = XFS_TRANS_RESERVE;
		return &xfs_rmap_update_defer_type;
	case XFS_LI_CUI:
		*blocks = mp->m_refc_maxlevels * 2;
		*flags = XFS_TRANS_RESERVE;
		return &xfs_refcount_update_defer_type;
	case XFS_LI_BUI:
		*blocks = XFS_EXTENTADD_SPACE_RES(mp, XFS_DATA_FORK);
		return &xfs_bmap_update_defer_type;
	}
	return NULL;
}

/*
 * The inodes the intents' recovery loaded, held until their work is done:
 * the kernel's inode cache gives every intent and every chain the same
 * in-core inode, where libxfs_iget reads a new one each time, which would
 * not see what another intent's work changed.
 */
struct loaded_inodes {
	struct xfs_inode	**ip;
	uint64_t		*ino;		/* ... their numbers, kept once released */
	uint32_t		n, cap, capino;
};

/* xlog_recover_iget: inode @ino, the one in @li if it was loaded already. */
static int recover_iget(struct xfs_mount *mp, struct loaded_inodes *li, uint64_t ino,
			struct xfs_inode **ipp)
{
	struct xfs_inode **slot;
	uint64_t *num;
	uint32_t n;
	int error;

	for (uint32_t i = 0; i < li->n; i++) {
		if (li->ip[i]->i_ino == ino) {
			*ipp = li->ip[i];
			ihold(VFS_I(*ipp));
			return 0;
		}
	}
	error = -libxfs_iget(mp, NULL, ino, 0, ipp);
	if (error)
		return error;
	n = li->n;
	num = xls_vec_push((void **)&li->ino, &n, &li->capino, sizeof(*num));
	slot = num ? xls_vec_push((void **)&li->ip, &li->n, &li->cap, sizeof(*slot)) : NULL;
	if (!slot) {
		libxfs_irele(*ipp);
		return ENOMEM;
	}
	*num = ino;
	*slot = *ipp;
	/* the cache's own reference */
	ihold(VFS_I(*ipp));
	return 0;
}

/* The cache's references dropped; the numbers stay. */
static void loaded_inodes_release(struct loaded_inodes *li)
{
	for (uint32_t i = 0; i < li->n; i++)
		libxfs_irele(li->ip[i]);
	xls_vec_free(li->ip);
	li->ip = NULL;
	li->cap = 0;
}

/*
 * A BUI's inode, loaded as xlog_recover_iget loads it, joined to @tp, its
 * extent count checked as the kernel's recovery checks it.
 */
static int bui_inode(struct xfs_mount *mp, struct loaded_inodes *li, struct xfs_trans *tp,
		     const struct xls_libxfs_extent *e, struct xfs_inode **ipp)
{
	int whichfork = (e->flags & XFS_BMAP_EXTENT_ATTR_FORK) ? XFS_ATTR_FORK : XFS_DATA_FORK;
	int error = recover_iget(mp, li, e->owner, ipp);

	if (error)
		return error;
	libxfs_trans_ijoin(tp, *ipp, 0);
	return -xfs_iext_count_extend(tp, *ipp, whichfork,
				      (e->flags & XFS_BMAP_EXTENT_TYPE_MASK) == XFS_BMAP_MAP ?
				      XFS_IEXT_ADD_NOSPLIT_CNT : XFS_IEXT_PUNCH_HOLE_CNT);
}

/*
 * xlog_recover_finish_intent: in @tp, @type's done item logged first
 * (xfs_defer_create_done), then the first step of @dfp's work; what is
 * left of it captured on @capture with @tp's commit.
 */
static int first_step(struct xfs_trans *tp, struct xfs_defer_pending *dfp, uint16_t type,
		      uint32_t nitems, struct list_head *capture)
{
	int error;

	xls_libxfs_ckpt_done_item(type, nitems);
	list_move(&dfp->dfp_list, &tp->t_dfops);
	error = -xfs_defer_finish_one(tp, dfp);
	/* more to do in a new transaction: it stays on tp's list, captured */
	if (error == EAGAIN)
		error = 0;
	if (error)
		cancel_failed(tp, error);
	else
		error = -xfs_defer_ops_capture_and_commit(tp, capture);
	return error;
}

/*
 * One intent's recover_work: its items, its transaction, the first step
 * of its work (xlog_recover_finish_intent), the rest captured on @capture.
 */
static int recover_one(struct xfs_mount *mp, struct loaded_inodes *li,
		       const struct xls_libxfs_job *job,
		       const struct xls_libxfs_intent *in, struct list_head *capture)
{
	const struct xls_libxfs_extent *e = job->ext + in->first;
	unsigned int blocks, flags;
	const struct xfs_defer_op_type *ops = intent_type(mp, in->type, &blocks, &flags);
	struct xfs_defer_pending *dfp;
	struct xfs_inode *ip = NULL;
	struct xfs_trans *tp;
	LIST_HEAD(one);
	int error;

	error = -libxfs_trans_alloc(mp, &M_RES(mp)->tr_itruncate, blocks, 0, flags, &tp);
	if (error)
		return error;
	if (in->type == XFS_LI_BUI && (error = bui_inode(mp, li, tp, e, &ip))) {
		cancel_failed(tp, error);
		if (ip)
			libxfs_irele(ip);
		return error;
	}
	xfs_defer_start_recovery(NULL, &one, ops);
	dfp = list_first_entry(&one, struct xfs_defer_pending, dfp_list);
	for (uint32_t k = 0; k < in->count; k++) {
		if (in->type == XFS_LI_EFI)
			efi_item(mp, dfp, &e[k]);
		else if (in->type == XFS_LI_RUI)
			rui_item(mp, dfp, &e[k]);
		else if (in->type == XFS_LI_CUI)
			cui_item(mp, dfp, &e[k]);
		else if (ip)
			bui_item(mp, dfp, &e[k], ip);
	}
	error = first_step(tp, dfp, in->type, in->count, capture);
	if (ip)
		libxfs_irele(ip);
	return error;
}

/* Why the kernel's recovery would refuse @x (xfs_xmi_validate), or NULL. */
static const char *bad_exchange(struct xfs_mount *mp, const struct xls_libxfs_exchange *x)
{
	if (!xfs_has_exchange_range(mp))
		return "an XMI on a filesystem without exchange-range";
	if (x->flags & ~(uint64_t)XFS_EXCHMAPS_LOGGED_FLAGS)
		return "an XMI with flags the kernel rejects";
	if (!libxfs_verify_ino(mp, x->inode1) || !libxfs_verify_ino(mp, x->inode2) ||
	    !xfs_verify_fileext(mp, x->startoff1, x->blockcount) ||
	    !xfs_verify_fileext(mp, x->startoff2, x->blockcount))
		return "an XMI naming files or ranges the kernel rejects";
	return NULL;
}

/* xlog_recover_iget_handle: inode @ino, if its generation is still @gen. */
static int iget_handle(struct xfs_mount *mp, struct loaded_inodes *li, uint64_t ino,
		       uint32_t gen, struct xfs_inode **ipp)
{
	int error = recover_iget(mp, li, ino, ipp);

	if (error)
		return error;
	if (VFS_I(*ipp)->i_generation != gen) {
		libxfs_irele(*ipp);
		*ipp = NULL;
		return EFSCORRUPTED;
	}
	return 0;
}

/*
 * xfs_exchmaps_recover_work: the exchange asked anew of the two files as
 * they are now (the XMI logged what was left of it), its first step in a
 * transaction of its own, the rest captured on @capture.
 */
static int recover_exchange(struct xfs_mount *mp, struct loaded_inodes *li,
			    const struct xls_libxfs_exchange *x, struct list_head *capture)
{
	struct xfs_exchmaps_req req = {
		.startoff1 = x->startoff1, .startoff2 = x->startoff2,
		.blockcount = x->blockcount, .flags = x->flags & XFS_EXCHMAPS_PARAMS,
	};
	struct xfs_trans_res resv = M_RES(mp)->tr_write;
	struct xfs_exchmaps_intent *xmi;
	struct xfs_defer_pending *dfp;
	struct xfs_trans *tp = NULL;
	LIST_HEAD(one);
	int error;

	error = iget_handle(mp, li, x->inode1, x->igen1, &req.ip1);
	if (error)
		return error;
	error = iget_handle(mp, li, x->inode2, x->igen2, &req.ip2);
	if (!error)
		error = -xfs_exchmaps_estimate(&req);
	/* xlog_recover_resv: one log count */
	resv.tr_logcount = 1;
	if (!error)
		error = -libxfs_trans_alloc(mp, &resv, req.resblks, 0, 0, &tp);
	if (error)
		goto out;
	xfs_defer_start_recovery(NULL, &one, &xfs_exchmaps_defer_type);
	dfp = list_first_entry(&one, struct xfs_defer_pending, dfp_list);
	xmi = xfs_exchmaps_init_intent(&req);
	xfs_defer_add_item(dfp, &xmi->xmi_list);
	libxfs_trans_ijoin(tp, req.ip1, 0);
	if (req.ip2 != req.ip1)
		libxfs_trans_ijoin(tp, req.ip2, 0);
	xfs_exchmaps_ensure_reflink(tp, xmi);
	xfs_exchmaps_upgrade_extent_counts(tp, xmi);
	error = first_step(tp, dfp, XFS_LI_XMI, 1, capture);
out:
	if (req.ip2)
		libxfs_irele(req.ip2);
	if (req.ip1)
		libxfs_irele(req.ip1);
	return error;
}

/* Why the kernel's recovery would refuse @a (xfs_attri_validate, xfs_attr_namecheck), or NULL. */
static const char *bad_attr(struct xfs_mount *mp, const struct xls_libxfs_attr *a,
			    const uint8_t *name)
{
	unsigned int op = a->op_flags & XFS_ATTRI_OP_FLAGS_TYPE_MASK;
	bool pptr = op == XFS_ATTRI_OP_FLAGS_PPTR_SET || op == XFS_ATTRI_OP_FLAGS_PPTR_REMOVE ||
		    op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE;

	if (!pptr)
		return "an ATTRI of a plain xattr (logged xattrs are a debug mount's): "
		       "not finished by this pass 3";
	if ((a->op_flags & ~XFS_ATTRI_OP_FLAGS_TYPE_MASK) ||
	    (a->attr_filter & ~XFS_ATTRI_FILTER_MASK) ||
	    !xfs_attr_check_namespace(a->attr_filter & XFS_ATTR_NSP_ONDISK_MASK) ||
	    !xfs_has_parent(mp) || a->value_len != sizeof(struct xfs_parent_rec) ||
	    !(a->attr_filter & XFS_ATTR_PARENT) || !a->name_len || a->name_len > XATTR_NAME_MAX ||
	    (op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE &&
	     (!a->new_name_len || a->new_name_len > XATTR_NAME_MAX)) ||
	    !libxfs_verify_ino(mp, a->ino) || !xfs_attr_namecheck(a->attr_filter, name, a->name_len))
		return "an ATTRI the kernel rejects";
	return NULL;
}

/*
 * xfs_attri_recover_work: the parent pointer update @a names, made anew
 * on its inode (generation checked), with the name and values logged.
 * The work item is freed by libxfs's attr defer type (XFS_DA_OP_RECOVERY:
 * one allocation, the arguments behind it).
 */
static struct xfs_attr_intent *attr_work(struct xfs_mount *mp, struct xfs_inode *ip,
					 const struct xls_libxfs_attr *a, const uint8_t *bytes)
{
	struct xfs_attr_intent *attr = calloc(1, sizeof(*attr) + sizeof(struct xfs_da_args));
	struct xfs_da_args *args;
	unsigned int op = a->op_flags & XFS_ATTRI_OP_FLAGS_TYPE_MASK;
	const uint8_t *at = bytes + a->bytes;
	int local;

	if (!attr)
		return NULL;
	args = (struct xfs_da_args *)(attr + 1);
	attr->xattri_da_args = args;
	attr->xattri_op_flags = op;
	args->dp = ip;
	args->geo = mp->m_attr_geo;
	args->whichfork = XFS_ATTR_FORK;
	args->name = at;
	args->namelen = a->name_len;
	at += a->name_len;
	if (a->new_name_len) {
		args->new_name = at;
		args->new_namelen = a->new_name_len;
		at += a->new_name_len;
	}
	/* libxfs reads the values, never writes them */
	args->value = (void *)at;
	args->valuelen = a->value_len;
	if (op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE) {
		args->new_value = (void *)(at + a->value_len);
		args->new_valuelen = a->value_len;
	}
	args->attr_filter = a->attr_filter & XFS_ATTRI_FILTER_MASK;
	args->op_flags = XFS_DA_OP_RECOVERY | XFS_DA_OP_OKNOENT | XFS_DA_OP_LOGGED;
	args->owner = ip->i_ino;
	xfs_attr_sethash(args);
	if (op == XFS_ATTRI_OP_FLAGS_PPTR_REMOVE) {
		attr->xattri_dela_state = xfs_attr_init_remove_state(args);
	} else {
		args->total = xfs_attr_calc_size(args, &local);
		attr->xattri_dela_state = xfs_inode_hasattr(ip) ?
					  xfs_attr_init_replace_state(args) :
					  xfs_attr_init_add_state(args);
	}
	return attr;
}

/* xfs_attri_iread_extents: the attr fork's extents read in, as the kernel's recovery reads them. */
static int attr_fork_read(struct xfs_mount *mp, struct xfs_inode *ip)
{
	struct xfs_trans *tp;
	int error;

	if (!xfs_inode_has_attr_fork(ip))
		return 0;
	error = -libxfs_trans_alloc_empty(mp, &tp);
	if (error)
		return error;
	error = -xfs_iread_extents(tp, ip, XFS_ATTR_FORK);
	libxfs_trans_cancel(tp);
	return error;
}

/*
 * xfs_attr_recover_work: the update in a transaction of its own, its
 * first step done, the rest captured on @capture.
 */
static int recover_attr(struct xfs_mount *mp, struct loaded_inodes *li,
			const struct xls_libxfs_attr *a, const uint8_t *bytes,
			struct list_head *capture)
{
	unsigned int op = a->op_flags & XFS_ATTRI_OP_FLAGS_TYPE_MASK;
	struct xfs_trans_res resv;
	struct xfs_attr_intent *attr;
	struct xfs_defer_pending *dfp;
	struct xfs_inode *ip;
	struct xfs_trans *tp = NULL;
	unsigned int total;
	LIST_HEAD(one);
	int error;

	error = iget_handle(mp, li, a->ino, a->igen, &ip);
	if (error)
		return error;
	error = attr_fork_read(mp, ip);
	attr = error ? NULL : attr_work(mp, ip, a, bytes);
	if (!error && !attr)
		error = ENOMEM;
	if (error)
		goto out;
	if (op == XFS_ATTRI_OP_FLAGS_PPTR_REMOVE) {
		resv = M_RES(mp)->tr_attrrm;
		total = XFS_ATTRRM_SPACE_RES(mp);
	} else {
		resv = xfs_attr_set_resv(attr->xattri_da_args);
		total = attr->xattri_da_args->total;
	}
	/* xlog_recover_resv: one log count */
	resv.tr_logcount = 1;
	error = -libxfs_trans_alloc(mp, &resv, total, 0, XFS_TRANS_RESERVE, &tp);
	if (error) {
		free(attr);
		goto out;
	}
	attr->xattri_da_args->trans = tp;
	xfs_defer_start_recovery(NULL, &one, &xfs_attr_defer_type);
	dfp = list_first_entry(&one, struct xfs_defer_pending, dfp_list);
	xfs_defer_add_item(dfp, &attr->xattri_list);
	libxfs_trans_ijoin(tp, ip, 0);
	error = first_step(tp, dfp, XFS_LI_ATTRI, 1, capture);
out:
	libxfs_irele(ip);
	return error;
}

/* xlog_finish_defer_ops: each captured chain in a transaction of its own. */
static int finish_captured(struct xfs_mount *mp, struct list_head *capture)
{
	struct xfs_defer_capture *dfc, *next;
	int error = 0;

	list_for_each_entry_safe(dfc, next, capture, dfc_list) {
		struct xfs_trans_res resv = {
			.tr_logres = dfc->dfc_logres, .tr_logcount = 1,
			.tr_logflags = XFS_TRANS_PERM_LOG_RES,
		};
		struct xfs_defer_resources dres;
		struct xfs_trans *tp;

		list_del_init(&dfc->dfc_list);
		/*
		 * After a failure, the chains left are dropped, as the kernel's
		 * abort does.  (cppcheck takes the list walk for one pass.)
		 */
		// cppcheck-suppress knownConditionTrueFalse
		if (error || (error = -libxfs_trans_alloc(mp, &resv, dfc->dfc_blkres,
							  dfc->dfc_rtxres, XFS_TRANS_RESERVE,
							  &tp))) {
			xfs_defer_ops_capture_abort(mp, dfc);
			continue;
		}
		xfs_defer_ops_continue(dfc, tp, &dres);
		error = -libxfs_trans_commit(tp);
		xfs_defer_resources_rele(&dres);
	}
	return error;
}

void xls_libxfs_intents_refused(struct xfs_mount *mp, const struct xls_libxfs_job *job,
				struct work *w)
{
	for (uint32_t i = 0; i < job->nintents; i++) {
		const struct xls_libxfs_intent *in = &job->intents[i];
		const char *no = in->count ? NULL : "an intent whose extents were not kept";

		if (!no && in->type == XFS_LI_XMI)
			no = bad_exchange(mp, &job->xmi[in->first]);
		else if (!no && in->type == XFS_LI_ATTRI)
			no = bad_attr(mp, &job->attr[in->first],
				      job->bytes + job->attr[in->first].bytes);
		for (uint32_t k = 0; !no && in->type != XFS_LI_XMI && in->type != XFS_LI_ATTRI &&
		     k < in->count; k++)
			no = bad_extent(mp, in->type, &job->ext[in->first + k]);
		if (in->type == XFS_LI_BUI && in->count != 1)
			no = "a BUI of more than one mapping, which the kernel rejects";
		if (no) {
			snprintf(w->done->refused, sizeof(w->done->refused), "%s (intent %u of %u, "
				 "id 0x%llx): left to the kernel", no, i + 1, job->nintents,
				 (unsigned long long)in->id);
			return;
		}
	}
}

/*
 * Does @ip hold blocks past its EOF that the kernel trims when the inode
 * its BUI loaded is evicted at unmount (xfs_inode_needs_inactive, then
 * xfs_free_eofblocks: xfs_can_free_eofblocks' test)?  That is one more
 * checkpoint, which this pass 3 does not write.
 */
static bool trimmed_at_eviction(struct xfs_mount *mp, struct xfs_inode *ip)
{
	struct xfs_iext_cursor icur;
	struct xfs_bmbt_irec got;

	if (!S_ISREG(VFS_I(ip)->i_mode) || VFS_I(ip)->i_nlink == 0)
		return false;
	if (ip->i_diflags & (XFS_DIFLAG_PREALLOC | XFS_DIFLAG_APPEND))
		return false;
	/*
	 * The size the kernel's VFS inode has, read from disk: libxfs keeps
	 * none (its XFS_ISIZE reads 0); an empty file, with no pages and no
	 * delayed blocks, is not trimmed
	 */
	if (!ip->i_disk_size)
		return false;
	return xfs_iext_lookup_extent(ip, &ip->i_df, XFS_B_TO_FSB(mp, ip->i_disk_size), &icur,
				      &got);
}

/*
 * The inodes the intents loaded, read again once their work is done, as
 * the kernel's unmount evicts them: one whose blocks past EOF the kernel
 * trims then makes @w refuse the result.
 */
static int intent_inodes_evicted(struct xfs_mount *mp, const struct loaded_inodes *li,
				 struct work *w)
{
	for (uint32_t i = 0; i < li->n && !w->done->refused[0]; i++) {
		struct xfs_inode *ip;
		int error = -libxfs_iget(mp, NULL, li->ino[i], 0, &ip);

		if (error)
			return error;
		if (trimmed_at_eviction(mp, ip))
			snprintf(w->done->refused, sizeof(w->done->refused), "a file an intent "
				 "loaded (inode 0x%llx) holds blocks past its EOF, which the "
				 "kernel trims at unmount in a checkpoint of its own: left to "
				 "the kernel", (unsigned long long)ip->i_ino);
		libxfs_irele(ip);
	}
	return 0;
}

/* xlog_recover_process_intents, then xlog_finish_defer_ops: 0, or -1 with @why set. */
static int finish_intents(struct xfs_mount *mp, struct loaded_inodes *li,
			  const struct xls_libxfs_job *job, struct work *w, char *why, size_t whysz)
{
	LIST_HEAD(capture);
	int error = 0;
	uint32_t i;

	for (i = 0; i < job->nintents && !error; i++) {
		const struct xls_libxfs_intent *in = &job->intents[i];

		if (in->type == XFS_LI_XMI)
			error = recover_exchange(mp, li, &job->xmi[in->first], &capture);
		else if (in->type == XFS_LI_ATTRI)
			error = recover_attr(mp, li, &job->attr[in->first], job->bytes, &capture);
		else
			error = recover_one(mp, li, job, in, &capture);
		w->done->n.intents++;
		if (in->type == XFS_LI_XMI)
			w->done->n.exchanges++;
		else if (in->type == XFS_LI_ATTRI)
			w->done->n.parent_pointers++;
		else
			w->done->n.intent_extents += in->count;
	}
	if (error) {
		struct xfs_defer_capture *dfc, *next;

		list_for_each_entry_safe(dfc, next, &capture, dfc_list) {
			list_del_init(&dfc->dfc_list);
			xfs_defer_ops_capture_abort(mp, dfc);
		}
		failed_on(w->done, error);
		snprintf(why, whysz, "intent %u of %u (id 0x%llx): %s", i, job->nintents,
			 (unsigned long long)job->intents[i - 1].id, strerror(error));
		return -1;
	}
	error = finish_captured(mp, &capture);
	if (error) {
		snprintf(why, whysz, "the work the intents deferred: %s",
			 strerror(failed_on(w->done, error)));
		return -1;
	}
	return 0;
}

int xls_libxfs_intents(struct xfs_mount *mp, const struct xls_libxfs_job *job, struct work *w,
		       char *why, size_t whysz)
{
	struct loaded_inodes li = { 0 };
	int rc = finish_intents(mp, &li, job, w, why, whysz);
	int error;

	loaded_inodes_release(&li);
	error = rc ? 0 : intent_inodes_evicted(mp, &li, w);
	xls_vec_free(li.ino);
	if (error) {
		snprintf(why, whysz, "the inodes the intents loaded: %s",
			 strerror(failed_on(w->done, error)));
		return -1;
	}
	return rc;
}
