/** Reading Prometheus text expositions in tests. */

/** The value of the sample line `<series> <value>` (series with its labels as printed), if present. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
