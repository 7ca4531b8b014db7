/**
 * SQL script format (sqllogictest-like), shared by every backend and both protocols:
 *
 *   # comment
 *   statement ok
 *   CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))
 *
 *   statement error 1062
 *   INSERT INTO t VALUES (1, 'a'), (1, 'b')
 *
 *   query sorted colnames
 *   SELECT id, v FROM t
 *   ----
 *   id | v
 *   1 | a
 *
 *   connection b
 *
 * A record's SQL runs until a blank line (or `----`). Expected rows are the values joined with
 * ` | `; NULL is `NULL`. `sorted` compares rows after sorting; `colnames` makes the first expected
 * line the column labels. `connection <name>` switches to a named connection (opened on first use,
 * on the script's own database); the default one is `default`. `statement error N [text]` expects
 * errno N and, if given, the message to contain `text`.
 */
export type ScriptRecord =
  | { readonly kind: 'statement'; readonly line: number; readonly sql: string; readonly error?: { errno: number; text?: string } }
  | {
      readonly kind: 'query';
      readonly line: number;
      readonly sql: string;
      readonly sorted: boolean;
      readonly colnames: boolean;
      readonly expected: readonly string[];
    }
  | { readonly kind: 'connection'; readonly line: number; readonly name: string };

export function parseScript(text: string): ScriptRecord[] {
  const lines = text.split('\n');
  const records: ScriptRecord[] = [];
  let i = 0;
  const takeBlock = (stopAtDashes: boolean): string[] => {
    const out: string[] = [];
    while (i < lines.length && (lines[i] ?? '').trim() !== '' && !(stopAtDashes && lines[i] === '----')) {
      out.push(lines[i] as string);
      i++;
    }
    return out;
  };
  while (i < lines.length) {
    const raw = (lines[i] ?? '').trim();
    const line = i + 1;
    i++;
    if (raw === '' || raw.startsWith('#')) continue;
    const words = raw.split(/\s+/);
    if (words[0] === 'connection') {
      records.push({ kind: 'connection', line, name: words[1] ?? 'default' });
    } else if (words[0] === 'statement') {
      const sql = takeBlock(false).join('\n');
      if (words[1] === 'ok') records.push({ kind: 'statement', line, sql });
      else if (words[1] === 'error') {
        const text = words.slice(3).join(' ');
        records.push({ kind: 'statement', line, sql, error: { errno: Number(words[2]), ...(text ? { text } : {}) } });
      } else throw new Error(`line ${line}: bad statement directive: ${raw}`);
    } else if (words[0] === 'query') {
      const sql = takeBlock(true).join('\n');
      let expected: string[] = [];
      if (lines[i] === '----') {
        i++;
        expected = takeBlock(false);
      }
      records.push({ kind: 'query', line, sql, sorted: words.includes('sorted'), colnames: words.includes('colnames'), expected });
    } else {
      throw new Error(`line ${line}: unknown directive: ${raw}`);
    }
  }
  return records;
}

/** Canonical text of a value returned by mysql2 (rowsAsArray, dateStrings, bigNumberStrings). */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
