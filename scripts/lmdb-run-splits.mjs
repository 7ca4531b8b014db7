/**
 * ShaleDB's fourth change to lmdb-js's bundled LMDB (applied by build-lmdb.mjs): "run splits".
 *
 * Why: every table and index shares one LMDB database, so a table loaded in key order (sysbench's
 * prepare, a dump restore, AUTO_INCREMENT inserts) appends where its last row sits next to the
 * first keys of the following table or index on the same leaf page. LMDB packs sequential
 * inserts well only when the new key goes last on its page (mdb_page_split then keeps the left
 * page full); a key inserted before another table's keys splits the page in the middle, and the
 * left half, all of whose keys are now smaller than anything the load still inserts, stays half
 * full for good. sysbench's 4 x 100k rows loaded at once took 36k leaf pages for 400k rows
 * (11 per page) where the same rows loaded one table at a time take 25k (16 per page).
 *
 * The change: a write transaction remembers where it last inserted a new key (database, leaf
 * page, index: mt_run_*, set in mdb_cursor_put). When a leaf split's new key goes right after
 * that one on the same page (the next key of a run of ascending inserts), and the keys before it
 * plus the new key fit on one page, the page is split right after the new key instead of in the
 * middle: the run's keys stay on the left page, the other keys go to the right one, and the
 * run's next key then goes last on its page, which LMDB's own split already packs. The first
 * insert of a transaction has no predecessor, and random inserts rarely follow their
 * transaction's previous insert on the same page, so both split as before. Only where a split
 * happens changes: both halves are checked to fit, and the tree is the same B+tree either way.
 *
 * Each hunk replaces `before` (found exactly once) with `after`; a hunk whose `after` is already
 * there is skipped, so the patch applies once.
 */
export const RUN_SPLITS_ID = 'run-splits-v1';

export const RUN_SPLITS_HUNKS = [
  {
    what: 'the run fields of MDB_txn',
    before: `	MDB_page	*mt_loose_pgs;
	/** Number of loose pages (#mt_loose_pgs) */
	int			mt_loose_count;
`,
    after: `	MDB_page	*mt_loose_pgs;
	/** Number of loose pages (#mt_loose_pgs) */
	int			mt_loose_count;
	/** ShaleDB run splits: the leaf page (0 = none yet), index and database of the last new key inserted. */
	pgno_t		mt_run_pgno;
	indx_t		mt_run_ki;
	MDB_dbi		mt_run_dbi;
`,
  },
  {
    what: 'a write transaction starts without a run (child transactions are calloc-ed)',
    before: `		txn->mt_child = NULL;
		txn->mt_loose_pgs = NULL;
		txn->mt_loose_count = 0;
`,
    after: `		txn->mt_child = NULL;
		txn->mt_loose_pgs = NULL;
		txn->mt_loose_count = 0;
		txn->mt_run_pgno = 0;
`,
  },
  {
    what: 'mdb_cursor_put records where a new key went',
    before: `	if (rc == MDB_SUCCESS) {
		/* Now store the actual data in the child DB. Note that we're`,
    after: `	/* ShaleDB run splits: the cursor is on the new key, after a split too. */
	if (rc == MDB_SUCCESS && insert_key && !(mc->mc_flags & C_SUB) && IS_LEAF(mc->mc_pg[mc->mc_top])) {
		mc->mc_txn->mt_run_pgno = mc->mc_pg[mc->mc_top]->mp_pgno;
		mc->mc_txn->mt_run_ki = mc->mc_ki[mc->mc_top];
		mc->mc_txn->mt_run_dbi = mc->mc_dbi;
	}

	if (rc == MDB_SUCCESS) {
		/* Now store the actual data in the child DB. Note that we're`,
  },
  {
    what: 'mdb_page_split splits a run right after its new key',
    before: `			if (split_indx == newindx) {
				sepkey.mv_size = newkey->mv_size;
				sepkey.mv_data = newkey->mv_data;
			} else {`,
    after: `			/* ShaleDB run splits: the new key follows this txn's last insert on this page, so
			 * keep slots 0..newindx (the keys before it and the new key) on the left page if they
			 * fit; slots newindx+1..nkeys (old keys, which fit since the page held them) go right.
			 */
			if (IS_LEAF(mp) && !(nflags & MDB_SPLIT_REPLACE) && newindx > 0 && newindx < nkeys &&
				mc->mc_txn->mt_run_pgno == mp->mp_pgno && mc->mc_txn->mt_run_dbi == mc->mc_dbi &&
				(unsigned) mc->mc_txn->mt_run_ki + 1 == (unsigned) newindx) {
				psize = nsize;
				for (i = 0; i < newindx && psize <= pmax; i++) {
					node = (MDB_node *)((char *)mp + copy->mp_ptrs[i] + PAGEBASE);
					psize += NODESIZE + NODEKSZ(node) + sizeof(indx_t);
					if (F_ISSET(node->mn_flags, F_BIGDATA))
						psize += sizeof(MDB_ovpage);
					else
						psize += NODEDSZ(node);
					psize = EVEN(psize);
				}
				if (psize <= pmax)
					split_indx = newindx + 1;
			}
			if (split_indx == newindx) {
				sepkey.mv_size = newkey->mv_size;
				sepkey.mv_data = newkey->mv_data;
			} else {`,
  },
];
