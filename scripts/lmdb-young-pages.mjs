/**
 * ShaleDB's second change to lmdb-js's bundled LMDB (applied by build-lmdb.mjs): "young pages".
 *
 * Why: the embedded store's checkpointer (src/kv/embedded/checkpointer.ts) holds a read
 * transaction on the last checkpoint's snapshot P for a whole checkpoint interval, so that an OS
 * crash can be recovered by putting P's meta pages back. LMDB reuses a freed page only once every
 * reader is newer than the transaction that freed it, so while P is held it reuses nothing: each
 * copy-on-write page of the interval (a batch of single-row updates copies the row's leaf and
 * every branch page above it, root included) lands on a new page, the file grows by one interval
 * of page versions, and the checkpoint's fdatasync writes all of them.
 *
 * The change: a page that transaction F frees, and whose freed version transaction B wrote
 * (LMDB keeps B in the page header, mp_txnid), is only in the snapshots B .. F-1. When B is newer
 * than the oldest reader (P), mdb_page_touch puts it in a list of young pages instead of the
 * free list (freeDB), and mdb_page_alloc reuses it as soon as no reader of any process holds a
 * snapshot in B .. F-1 (nor, like mdb_find_oldest, the older meta page's transaction, nor with
 * overlapping sync the last synced one). Readers only ever start at the newest committed
 * transaction, which is >= F, so the readers that can block a young page only go away.
 * So P's pages are never touched (P < B), and the hot pages of an interval are reused in place.
 *
 * The list belongs to the process (under LMDB's write lock, like the rest of a write
 * transaction's state): a child transaction's freed and taken young pages go to its parent when
 * it commits and are dropped / given back when it aborts; a top-level transaction publishes its
 * freed young pages after its meta page is written and gives back the ones it took if it aborts.
 * At each top-level commit, entries still blocked 64 transactions after they were freed (a long
 * reader holds them) and entries beyond 512 go to the freeDB as pages that transaction freed,
 * which LMDB then handles as always. Young pages never enter the freeDB otherwise, so no other
 * process can hand them out. Cost: when the process exits, the pages in its list (at most 512,
 * 2 MiB) are in neither the tree nor the freeDB (the file keeps them; a compacting copy drops them).
 *
 * Each hunk replaces `before` (found exactly once) with `after`; a hunk whose `after` is already
 * there is skipped, so the patch applies once. v2 adds the last hunk (a committed child
 * transaction freed its two list buffers, ~3 KB, never: 3.6 KB of heap per commit leaked while
 * the checkpoint's reader was held); it applies on top of a v1 source as well as a fresh one.
 */
export const YOUNG_PAGES_ID = 'young-pages-v2';

export const YOUNG_PAGES_HUNKS = [
  {
    what: 'the young-page types, before MDB_txn',
    before: `struct MDB_txn {`,
    after: `/** ShaleDB young pages: a page freed by txn yg_freed whose freed version was written by txn
 *	yg_birth. It is in the snapshots yg_birth .. yg_freed-1 only, so it may be reused as soon
 *	as no reader holds one of those, however old the oldest reader is.
 */
typedef struct MDB_young {
	pgno_t	yg_pgno;
	txnid_t	yg_birth;
	txnid_t	yg_freed;
} MDB_young;
/** A list of young pages; the env's is a FIFO from yl_head. */
typedef struct MDB_ylist {
	MDB_young	*yl_items;
	size_t	yl_head, yl_len, yl_cap;
} MDB_ylist;

struct MDB_txn {`,
  },
  {
    what: "the txn's lists",
    before: `	MDB_IDL		mt_free_pgs;
	/** The list of loose pages`,
    after: `	MDB_IDL		mt_free_pgs;
	/** ShaleDB young pages: pages this txn freed that were born after the oldest reader. */
	MDB_ylist	mt_young_freed;
	/** ShaleDB young pages: young pages this txn took for reuse (given back on abort). */
	MDB_ylist	mt_young_taken;
	/** The list of loose pages`,
  },
  {
    what: "the env's list",
    before: `	/** IDL of pages that became unused in a write txn */
	MDB_IDL		me_free_pgs;
`,
    after: `	/** IDL of pages that became unused in a write txn */
	MDB_IDL		me_free_pgs;
	/** ShaleDB young pages: freed by committed txns of this process, not in the freeDB. */
	MDB_ylist	me_young;
	/** ShaleDB young pages: oldest reader when the current write txn first freed a page (0 = not yet). */
	txnid_t		me_young_floor;
`,
  },
  {
    what: 'the helpers, after mdb_find_oldest',
    before: `/** Add a page to the txn's dirty list, if there is one */`,
    after: `/** ShaleDB young pages: appends one entry. */
static int
mdb_ylist_push(MDB_ylist *yl, const MDB_young *y)
{
	if (yl->yl_head + yl->yl_len == yl->yl_cap) {
		if (yl->yl_head > 0) {
			memmove(yl->yl_items, yl->yl_items + yl->yl_head, yl->yl_len * sizeof(MDB_young));
			yl->yl_head = 0;
		} else {
			size_t cap = yl->yl_cap ? yl->yl_cap * 2 : 64;
			MDB_young *items = realloc(yl->yl_items, cap * sizeof(MDB_young));
			if (!items)
				return ENOMEM;
			yl->yl_items = items;
			yl->yl_cap = cap;
		}
	}
	yl->yl_items[yl->yl_head + yl->yl_len++] = *y;
	return MDB_SUCCESS;
}

/** ShaleDB young pages: appends all of src to dst and empties src. On ENOMEM the rest stays in src. */
static int
mdb_ylist_move(MDB_ylist *dst, MDB_ylist *src)
{
	while (src->yl_len) {
		int rc = mdb_ylist_push(dst, &src->yl_items[src->yl_head]);
		if (rc)
			return rc;
		src->yl_head++;
		src->yl_len--;
	}
	src->yl_head = 0;
	return MDB_SUCCESS;
}

static void
mdb_ylist_free(MDB_ylist *yl)
{
	free(yl->yl_items);
	yl->yl_items = NULL;
	yl->yl_head = yl->yl_len = yl->yl_cap = 0;
}

/** ShaleDB young pages: true if no snapshot that holds y's page (yg_birth .. yg_freed-1) is in use:
 *	no reader of any process, not the older meta page's txn and, with overlapping sync, not the
 *	last synced txn.
 *	A reader starting now gets the last committed txn, which is >= yg_freed.
 */
static int
mdb_young_reusable(MDB_txn *txn, const MDB_young *y)
{
	MDB_env *env = txn->mt_env;
	txnid_t prev = txn->mt_txnid - 2;
	int i;
	/* Like mdb_find_oldest, keep the snapshot of the older meta page (txn-2) intact */
	if (txn->mt_txnid >= 2 && prev >= y->yg_birth && prev < y->yg_freed)
		return 0;
	if ((env->me_flags & MDB_OVERLAPPINGSYNC) &&
		env->me_synced_txn_id >= y->yg_birth && env->me_synced_txn_id < y->yg_freed)
		return 0;
	if (env->me_txns) {
		MDB_reader *r = env->me_txns->mti_readers;
		for (i = env->me_txns->mti_numreaders; --i >= 0; ) {
			if (r[i].mr_pid) {
				txnid_t mr = r[i].mr_txnid;
				if (mr >= y->yg_birth && mr < y->yg_freed)
					return 0;
			}
		}
	}
	return 1;
}

/** ShaleDB young pages: how many of the oldest entries an allocation looks at. */
#define MDB_YOUNG_SCAN	8
/** ShaleDB young pages: an entry still blocked this many txns after it was freed goes to the freeDB. */
#define MDB_YOUNG_AGE	64
/** ShaleDB young pages: entries beyond this many go to the freeDB (the list is not persistent). */
#define MDB_YOUNG_MAX	512

/** ShaleDB young pages: removes the oldest entry of the env's list. */
static void
mdb_young_pop(MDB_ylist *yl)
{
	yl->yl_head++;
	if (!--yl->yl_len)
		yl->yl_head = 0;
}

/** ShaleDB young pages: takes one of the oldest young pages that can be reused now, if any. */
static int
mdb_young_take(MDB_txn *txn, pgno_t *pgno)
{
	MDB_env *env = txn->mt_env;
	MDB_ylist *yl = &env->me_young;
	MDB_young *head, *y, tmp;
	size_t j;
	for (j = 0; j < yl->yl_len && j < MDB_YOUNG_SCAN; j++) {
		y = &yl->yl_items[yl->yl_head + j];
		if (!mdb_young_reusable(txn, y))
			continue;
		if (mdb_ylist_push(&txn->mt_young_taken, y))
			return 0;
		head = &yl->yl_items[yl->yl_head];
		tmp = *head; *head = *y; *y = tmp;
		*pgno = head->yg_pgno;
		mdb_young_pop(yl);
		return 1;
	}
	return 0;
}

/** ShaleDB young pages: at a top-level commit, entries blocked for long (a long reader holds their
 *	snapshots) and entries beyond the cap become pages this txn freed, so the freeDB gets them.
 */
static int
mdb_young_demote(MDB_txn *txn)
{
	MDB_env *env = txn->mt_env;
	MDB_ylist *yl = &env->me_young;
	int rc;
	while (yl->yl_len) {
		MDB_young *y = &yl->yl_items[yl->yl_head];
		if (yl->yl_len <= MDB_YOUNG_MAX &&
			(y->yg_freed + MDB_YOUNG_AGE >= txn->mt_txnid || mdb_young_reusable(txn, y)))
			break;
		if ((rc = mdb_midl_append(&txn->mt_free_pgs, y->yg_pgno)))
			return rc;
		mdb_young_pop(yl);
	}
	return MDB_SUCCESS;
}

/** ShaleDB young pages: records clean page mp, replaced by a copy in txn, as freed. Pages born after
 *	the oldest reader go to the young list, the others to mt_free_pgs (the caller made room there).
 */
static void
mdb_young_free(MDB_txn *txn, MDB_page *mp)
{
	MDB_env *env = txn->mt_env;
	MDB_young y;
	if (!env->me_young_floor)
		env->me_young_floor = mdb_find_oldest(txn);
	if (!IS_OVERFLOW(mp) && mp->mp_txnid > env->me_young_floor && mp->mp_txnid < txn->mt_txnid) {
		y.yg_pgno = mp->mp_pgno;
		y.yg_birth = mp->mp_txnid;
		y.yg_freed = txn->mt_txnid;
		if (!mdb_ylist_push(&txn->mt_young_freed, &y))
			return;
	}
	mdb_midl_xappend(txn->mt_free_pgs, mp->mp_pgno);
}

/** Add a page to the txn's dirty list, if there is one */`,
  },
  {
    what: 'mdb_page_alloc takes a reusable young page first',
    before: `	/* If our dirty list is already full, we can't do anything */
	if (txn->mt_dirty_room == 0) {
		rc = MDB_TXN_FULL;
		goto fail;
	}
	unsigned empty_entries = 0;`,
    after: `	/* If our dirty list is already full, we can't do anything */
	if (txn->mt_dirty_room == 0) {
		rc = MDB_TXN_FULL;
		goto fail;
	}
	/* ShaleDB young pages: a page no snapshot in use holds */
	if (num == 1 && mdb_young_take(txn, &pgno)) {
		i = 1;
		goto search_done;
	}
	unsigned empty_entries = 0;`,
  },
  {
    what: 'mdb_page_touch frees through mdb_young_free',
    before: `		mdb_cassert(mc, mp->mp_pgno != pgno);
		mdb_midl_xappend(txn->mt_free_pgs, mp->mp_pgno);`,
    after: `		mdb_cassert(mc, mp->mp_pgno != pgno);
		mdb_young_free(txn, mp);`,
  },
  {
    what: 'a write txn starts with empty lists',
    before: `		txn->mt_free_pgs = env->me_free_pgs;
		txn->mt_free_pgs[0] = 0;
		txn->mt_spill_pgs = NULL;`,
    after: `		txn->mt_free_pgs = env->me_free_pgs;
		txn->mt_free_pgs[0] = 0;
		env->me_young_floor = 0;
		txn->mt_young_freed.yl_head = txn->mt_young_freed.yl_len = 0;
		txn->mt_young_taken.yl_head = txn->mt_young_taken.yl_len = 0;
		txn->mt_spill_pgs = NULL;`,
  },
  {
    what: 'an ended txn gives back the young pages it took',
    before: `	} else if (!F_ISSET(txn->mt_flags, MDB_TXN_FINISHED)) {
		pgno_t *pghead = env->me_pghead;
`,
    after: `	} else if (!F_ISSET(txn->mt_flags, MDB_TXN_FINISHED)) {
		pgno_t *pghead = env->me_pghead;

		/* ShaleDB young pages: commit moved these lists on; what is left was not committed */
		mdb_ylist_move(&env->me_young, &txn->mt_young_taken);
		txn->mt_young_freed.yl_head = txn->mt_young_freed.yl_len = 0;
		if (txn->mt_parent) {
			mdb_ylist_free(&txn->mt_young_taken);
			mdb_ylist_free(&txn->mt_young_freed);
		}
`,
  },
  {
    what: "a child's commit hands its lists to the parent",
    before: `		/* Append our free list to parent's */
		rc = mdb_midl_append_list(&parent->mt_free_pgs, txn->mt_free_pgs);
		if (rc)
			goto fail;`,
    after: `		/* Append our free list to parent's */
		rc = mdb_midl_append_list(&parent->mt_free_pgs, txn->mt_free_pgs);
		if (rc)
			goto fail;
		/* ShaleDB young pages */
		if ((rc = mdb_ylist_move(&parent->mt_young_freed, &txn->mt_young_freed)) ||
			(rc = mdb_ylist_move(&parent->mt_young_taken, &txn->mt_young_taken)))
			goto fail;`,
  },
  {
    what: 'a top-level commit publishes its freed young pages',
    before: `	if ((rc = mdb_env_write_meta(txn)))
		goto fail;

	//<lmdb-js>
	MDB_txn_visible* callback = txn->mt_callback;`,
    after: `	if ((rc = mdb_env_write_meta(txn)))
		goto fail;

	/* ShaleDB young pages: committed. If the list cannot grow, the pages stay unused (not lost data). */
	txn->mt_young_taken.yl_head = txn->mt_young_taken.yl_len = 0;
	mdb_ylist_move(&env->me_young, &txn->mt_young_freed);

	//<lmdb-js>
	MDB_txn_visible* callback = txn->mt_callback;`,
  },
  {
    what: 'mdb_freelist_save demotes long-blocked and surplus entries',
    before: `	mdb_cursor_init(&mc, txn, FREE_DBI, NULL);

	if (!env->me_pghead && txn->mt_loose_pgs) {`,
    after: `	mdb_cursor_init(&mc, txn, FREE_DBI, NULL);

	/* ShaleDB young pages */
	if ((rc = mdb_young_demote(txn)))
		return rc;

	if (!env->me_pghead && txn->mt_loose_pgs) {`,
  },
  {
    what: "a committed child frees its (emptied) lists: LMDB frees the child with free(txn) alone",
    before: `			(rc = mdb_ylist_move(&parent->mt_young_taken, &txn->mt_young_taken)))
			goto fail;
		mdb_midl_free(txn->mt_free_pgs);`,
    after: `			(rc = mdb_ylist_move(&parent->mt_young_taken, &txn->mt_young_taken)))
			goto fail;
		mdb_ylist_free(&txn->mt_young_freed);
		mdb_ylist_free(&txn->mt_young_taken);
		mdb_midl_free(txn->mt_free_pgs);`,
  },
  {
    what: 'mdb_env_close frees the lists',
    before: `	free(env->me_txn0);`,
    after: `	if (env->me_txn0) {
		mdb_ylist_free(&env->me_txn0->mt_young_freed);
		mdb_ylist_free(&env->me_txn0->mt_young_taken);
	}
	mdb_ylist_free(&env->me_young);
	free(env->me_txn0);`,
  },
];
