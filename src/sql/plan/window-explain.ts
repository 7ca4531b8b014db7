/** EXPLAIN text of a Window node, TiDB style: `row_number()->Column#3 over(partition by ... order by ... rows between ...)`. */
import type { FrameBound, WindowFrame } from '../parse/index.js';
import type { PlanNode } from './nodes.js';
import { exprText } from './expr-text.js';
import { constText } from './expr-utils.js';

type WindowNode = Extract<PlanNode, { kind: 'window' }>;

export function windowInfo(p: WindowNode): string {
  const schema = p.child.schema;
  const spec = [
    p.partitionBy.length > 0 ? `partition by ${p.partitionBy.map((e) => exprText(e, schema)).join(', ')}` : '',
    p.orderBy.length > 0 ? `order by ${p.orderBy.map((o) => exprText(o.expr, schema) + (o.desc ? ' desc' : '')).join(', ')}` : '',
  ];
  const base = schema.width;
  return p.funcs
    .map((f, i) => {
      const args = f.args.map((a) => exprText(a, schema)).join(', ');
      const over = [...spec, frameText(f.frame)].filter((s) => s !== '').join(' ');
      return `${f.name.toLowerCase()}(${args})->Column#w${base + i} over(${over})`;
    })
    .join(', ');
}

/** The Sort below the Window ('' when it has no keys). */
export function windowSortInfo(p: WindowNode): string {
  const schema = p.child.schema;
  const keys = [...p.partitionBy.map((e) => exprText(e, schema)), ...p.orderBy.map((o) => exprText(o.expr, schema) + (o.desc ? ':desc' : ''))];
  return keys.join(', ');
}

function frameText(f: WindowFrame): string {
  return `${f.unit} between ${boundText(f.start)} and ${boundText(f.end)}`;
}

function boundText(b: FrameBound): string {
  switch (b.kind) {
    case 'unboundedPreceding':
      return 'unbounded preceding';
    case 'unboundedFollowing':
      return 'unbounded following';
    case 'currentRow':
      return 'current row';
    default:
      return `${constText(b.offset)} ${b.kind}`;
  }
}
