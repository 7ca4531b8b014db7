/** The ONE plan -> executor dispatch: compiles a plan tree into an ExecFactory. */
import type { PlanNode } from '../plan/index.js';
import { assertNever } from '../../util/index.js';
import type { ExecFactory } from './executor.js';
import { fromRows } from './executor.js';
import { batchPointGetFactory, pointGetFactory } from './point-get.js';
import { tableScanFactory } from './table-scan.js';
import { indexScanFactory } from './index-scan.js';
import { selectionFactory } from './selection.js';
import { projectionFactory } from './projection.js';
import { hashAggFactory } from './hash-agg.js';
import { sortFactory, topNFactory } from './sort.js';
import { limitFactory } from './limit.js';
import { distinctFactory } from './distinct.js';
import { joinFactory } from './join.js';

export function buildExecutor(plan: PlanNode): ExecFactory {
  switch (plan.kind) {
    case 'pointGet':
      return pointGetFactory(plan);
    case 'batchPointGet':
      return batchPointGetFactory(plan);
    case 'tableScan':
      return tableScanFactory(plan);
    case 'indexScan':
      return indexScanFactory(plan);
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
      return sortFactory(plan, buildExecutor(plan.child));
    case 'topN':
      return topNFactory(plan, buildExecutor(plan.child));
    case 'limit':
      return limitFactory(plan, buildExecutor(plan.child));
    case 'distinct':
      return distinctFactory(buildExecutor(plan.child));
    case 'join':
      return joinFactory(plan, buildExecutor(plan.left), buildExecutor(plan.right));
    default:
      return assertNever(plan, 'plan node');
  }
}
