/**
 * MySQL-like text for FLOAT/DOUBLE values: the shortest digits that round-trip (as float32
 * for FLOAT columns), in plain notation for 1e-4 <= |x| < 1e15 and as `<mantissa>e<exp>`
 * outside it (`1e20`, `1.5e-7`), as MySQL's my_gcvt prints them.
 * Spec: /work/shared/reference/mysql-protocol.md §3.1 (text row formatting).
 */

/** Shortest decimal that rounds to the same float32 as `x`, as a double. */
export function shortestFloat32(x: number): number {
  const f = Math.fround(x);
  if (!Number.isFinite(f) || f === 0) return f;
  for (let p = 1; p < 9; p++) {
    const y = Number(f.toPrecision(p));
    if (Math.fround(y) === f) return y;
  }
  return Number(f.toPrecision(9));
}

export function formatDouble(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const exp = x.toExponential(); // shortest round-trip digits: "-1.2345e+20"
  const ePos = exp.indexOf('e');
  const mantissa = exp.slice(0, ePos);
  const e = Number(exp.slice(ePos + 1));
  if (e >= 15 || e < -4) return `${mantissa}e${e}`;
  const neg = x < 0;
  const digits = mantissa.replace('-', '').replace('.', '');
  let out: string;
  if (e < 0) out = `0.${'0'.repeat(-e - 1)}${digits}`;
  else if (digits.length <= e + 1) out = digits + '0'.repeat(e + 1 - digits.length);
  else out = `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
  return neg ? `-${out}` : out;
}

export function formatFloat(x: number): string {
  return formatDouble(shortestFloat32(x));
}
