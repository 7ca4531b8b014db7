/** The ONE plan -> executor dispatch: compiles a plan tree into an ExecFactory. */
import type { PlanNode } from '../plan/index.js';
import { assertNever } from '../../util/index.js';
import type { Cancellation } from './cancellation.js';
import type { ExecFactory, Executor } from './executor.js';
import { fromRows } from './executor.js';
import { batchPointGetFactory, pointGetFactory } from './point-get.js';
import { tableScanFactory } from './table-scan.js';
import { indexScanFactory } from './index-scan.js';
import { selectionFactory } from './selection.js';
import { projectionFactory } from './projection.js';
import { hashAggFactory } from './hash-agg.js';
import { sortDistinctFactory, sortFactory, sortsOutDuplicates, topNFactory } from './sort.js';
import { limitFactory } from './limit.js';
import { distinctFactory } from './distinct.js';
import { windowFactory } from './window.js';
import { joinFactory } from './join.js';
import { lateralJoinFactory } from './lateral-join.js';
import { indexJoinFactory } from './index-join.js';
import { memTableFactory } from './mem-table.js';
import { applyFactory } from './apply.js';
import { unionFactory } from './union.js';
import { cteRecursiveFactory, cteRefFactory } from './cte.js';

/** Every executor of the tree checks the statement's Cancellation before each batch. */
export function buildExecutor(plan: PlanNode): ExecFactory {
  const factory = buildNode(plan);
  return (ctx, want) => interruptible(factory(ctx, want), ctx.cancel);
}

function interruptible(ex: Executor, cancel: Cancellation): Executor {
  return {
    next: () => {
      let paused: Promise<void> | null;
      try {
        paused = cancel.pause();
      } catch (err) {
        return Promise.reject(err);
      }
      return paused === null ? ex.next() : paused.then(() => ex.next());
    },
  };
}

function buildNode(plan: PlanNode): ExecFactory {
  switch (plan.kind) {
    case 'pointGet':
      return pointGetFactory(plan);
    case 'batchPointGet':
      return batchPointGetFactory(plan);
    case 'tableScan':
      return tableScanFactory(plan);
    case 'indexScan':
      return indexScanFactory(plan);
    case 'memTable':
      return memTableFactory(plan);
    case 'dual': {
      const n = plan.rows;
      return () => fromRows(n === 1 ? [[]] : []);
    }
    case 'selection':
      return selectionFactory(plan, buildExecutor(plan.child));
    case 'projection':
      return projectionFactory(plan, buildExecutor(plan.child));
    case 'hashAgg':
      return hashAggFactory(plan, buildExecutor(plan.child));
    case 'sort':
      if (plan.child.kind === 'distinct' && sortsOutDuplicates(plan)) return sortDistinctFactory(plan, buildExecutor(plan.child.child));
      return sortFactory(plan, buildExecutor(plan.child));
    case 'topN':
      return topNFactory(plan, buildExecutor(plan.child));
    case 'limit':
      return limitFactory(plan, buildExecutor(plan.child));
    case 'distinct':
      return distinctFactory(buildExecutor(plan.child), plan.schema);
    case 'window':
      return windowFactory(plan, buildExecutor(plan.child));
    case 'join':
      if (plan.lateral !== undefined) return lateralJoinFactory(plan, buildExecutor(plan.left), buildExecutor(plan.right));
      if (plan.indexJoin !== undefined) return indexJoinFactory(plan, plan.indexJoin, buildExecutor(plan.left), buildExecutor(plan.right));
      return joinFactory(plan, buildExecutor(plan.left), buildExecutor(plan.right));
    case 'apply':
      return applyFactory(plan, buildExecutor(plan.child), buildExecutor);
    case 'union':
      return unionFactory(plan, plan.children.map(buildExecutor));
    case 'derived':
      return buildExecutor(plan.child);
    case 'cteRecursive':
      return cteRecursiveFactory(plan, buildExecutor(plan.anchor), buildExecutor(plan.recursive));
    case 'cteRef':
      return cteRefFactory(plan);
    default:
      return assertNever(plan, 'plan node');
  }
}
