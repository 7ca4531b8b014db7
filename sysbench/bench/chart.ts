/**
 * The chart: an SVG with one panel per workload (throughput in TPS against thread count, one line
 * per server), small multiples in a grid with a shared legend. Plain SVG 1.1, no scripts, so any
 * browser or image viewer shows it.
 */
import { findRun, type BenchResults } from './results.js';

const PANEL_W = 300;
const PANEL_H = 210;
const COLS = 4;
const MARGIN = { left: 52, right: 14, top: 28, bottom: 34 };
const COLORS: Record<string, string> = { shaledb: '#1f77b4', cluster: '#2ca02c', mariadb: '#d62728' };
const TOP = 64;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round axis maximum at or above `v` (1, 2, 2.5, 5 × 10^n). */
export function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function shortNumber(v: number): string {
  if (v >= 1_000_000) return `${+(v / 1_000_000).toFixed(2)}M`;
  if (v >= 1000) return `${+(v / 1000).toFixed(2)}k`;
  return `${+v.toFixed(1)}`;
}

function panel(r: BenchResults, workload: string, x0: number, y0: number): string[] {
  const threads = r.params.threads;
  const w = PANEL_W - MARGIN.left - MARGIN.right;
  const h = PANEL_H - MARGIN.top - MARGIN.bottom;
  const values = r.servers.flatMap((s) => threads.map((t) => findRun(r, s.name, workload, t)?.tps ?? 0));
  const yMax = niceMax(Math.max(...values) * 1.05);
  const px = (i: number): number => x0 + MARGIN.left + (threads.length === 1 ? w / 2 : (i * w) / (threads.length - 1));
  const py = (v: number): number => y0 + MARGIN.top + h - (v / yMax) * h;
  const out = [`<text x="${x0 + PANEL_W / 2}" y="${y0 + 18}" text-anchor="middle" font-weight="bold">${esc(workload)}</text>`];
  for (let g = 0; g <= 4; g++) {
    const v = (yMax * g) / 4;
    out.push(`<line x1="${x0 + MARGIN.left}" x2="${x0 + MARGIN.left + w}" y1="${py(v)}" y2="${py(v)}" stroke="#ddd"/>`);
    out.push(`<text x="${x0 + MARGIN.left - 6}" y="${py(v) + 4}" text-anchor="end" font-size="11">${shortNumber(v)}</text>`);
  }
  threads.forEach((t, i) => out.push(`<text x="${px(i)}" y="${y0 + MARGIN.top + h + 16}" text-anchor="middle" font-size="11">${t}</text>`));
  out.push(`<text x="${x0 + MARGIN.left + w / 2}" y="${y0 + PANEL_H - 4}" text-anchor="middle" font-size="10" fill="#555">threads</text>`);
  for (const s of r.servers) {
    const color = COLORS[s.name] ?? '#000';
    const pts = threads.flatMap((t, i) => {
      const n = findRun(r, s.name, workload, t);
      return n === null ? [] : [`${px(i).toFixed(1)},${py(n.tps).toFixed(1)}`];
    });
    if (pts.length > 1) out.push(`<polyline points="${pts.join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const p of pts) {
      const [cx, cy] = p.split(',');
      out.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="${color}"/>`);
    }
  }
  return out;
}

export function svgChart(r: BenchResults): string {
  const workloads = r.params.workloads;
  const rows = Math.ceil(workloads.length / COLS);
  const width = PANEL_W * Math.min(COLS, workloads.length);
  const height = TOP + rows * PANEL_H + 10;
  const body: string[] = [
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">sysbench throughput (transactions/s) vs threads — ${r.params.tables}×${r.params.tableSize} rows, ${r.params.seconds} s runs</text>`,
  ];
  r.servers.forEach((s, i) => {
    const x = 20 + i * 330;
    body.push(`<rect x="${x}" y="36" width="14" height="14" fill="${COLORS[s.name] ?? '#000'}"/>`);
    body.push(`<text x="${x + 20}" y="48" font-size="12">${esc(s.label)}</text>`);
  });
  workloads.forEach((w, i) => body.push(...panel(r, w, (i % COLS) * PANEL_W, TOP + Math.floor(i / COLS) * PANEL_H)));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
