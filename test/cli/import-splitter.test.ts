import { describe, expect, it } from 'vitest';
import { SplitError, StatementSplitter, type SplitStatement } from '../../src/cli/import/statement-splitter.js';

/** Splits `text` fed in chunks of `size` bytes (0: one chunk). */
function split(text: string | Buffer, size = 0, max?: number): SplitStatement[] {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const s = new StatementSplitter(max);
  const out: SplitStatement[] = [];
  const step = size === 0 ? Math.max(1, bytes.length) : size;
  for (let i = 0; i < bytes.length; i += step) out.push(...s.push(bytes.subarray(i, i + step)));
  out.push(...s.end());
  return out;
}

const texts = (text: string | Buffer, size = 0): string[] => split(text, size).map((s) => s.sql.toString('utf8'));

/** Every chunk size from 1 to 9 and one chunk give the same statements. */
function expectSplit(text: string, expected: string[]): void {
  expect(texts(text)).toEqual(expected);
  for (let size = 1; size <= 9; size++) expect(texts(text, size), `chunks of ${size}`).toEqual(expected);
}

describe('StatementSplitter', () => {
  it('splits on semicolons and drops blank statements and surrounding space', () => {
    expectSplit('SELECT 1;\n  SELECT 2 ;;\n\n;SELECT 3', ['SELECT 1', 'SELECT 2', 'SELECT 3']);
  });

  it('keeps semicolons inside strings, identifiers and escaped or doubled quotes', () => {
    expectSplit(
      "INSERT INTO `a;b` VALUES ('x;y', \"p;q\", 'it\\'s; fine', 'it''s; fine', \"say \\\"hi;\\\"\", 'back\\\\');SELECT `tick``;`;",
      [
        "INSERT INTO `a;b` VALUES ('x;y', \"p;q\", 'it\\'s; fine', 'it''s; fine', \"say \\\"hi;\\\"\", 'back\\\\')",
        'SELECT `tick``;`',
      ],
    );
  });

  it('does not treat a backslash in a quoted identifier as an escape', () => {
    expectSplit('SELECT `a\\`;SELECT 2;', ['SELECT `a\\`', 'SELECT 2']);
  });

  it('skips comments between statements and keeps them inside', () => {
    expectSplit(
      '-- header; comment\n# hash; comment\n/* block; comment */\nSELECT 1 /* in; side */ + 1 -- tail;\n;\nSELECT 2 # x;\n;',
      ['SELECT 1 /* in; side */ + 1 -- tail;', 'SELECT 2 # x;'],
    );
  });

  it('needs whitespace after -- for a comment', () => {
    expectSplit('SELECT 5--1;SELECT 6 --\tc;\n;', ['SELECT 5--1', 'SELECT 6 --\tc;']);
  });

  it('sends conditional comments as code, delimiters inside them included', () => {
    expectSplit(
      "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n/*!40103 SET TIME_ZONE='+00:00' */;\n" +
        '/*M!100616 SET @OLD_NOTE_VERBOSITY=@@NOTE_VERBOSITY, NOTE_VERBOSITY=0 */;\n' +
        'CREATE DATABASE /*!32312 IF NOT EXISTS*/ `shop` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;\n' +
        '/*!50001 CREATE VIEW v AS SELECT 1; */',
      [
        '/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */',
        "/*!40103 SET TIME_ZONE='+00:00' */",
        '/*M!100616 SET @OLD_NOTE_VERBOSITY=@@NOTE_VERBOSITY, NOTE_VERBOSITY=0 */',
        'CREATE DATABASE /*!32312 IF NOT EXISTS*/ `shop` /*!40100 DEFAULT CHARACTER SET utf8mb4 */',
        // Like the mysql client: the delimiter ends the statement even inside /*! */ (the dangling
        // closer is dropped).
        '/*!50001 CREATE VIEW v AS SELECT 1',
      ],
    );
  });

  it("drops mariadb-dump's sandbox-mode line (a client command in a conditional comment)", () => {
    expectSplit('/*M!999999\\- enable the sandbox mode */ \n-- MariaDB dump 10.19\n/*!40101 SET NAMES utf8mb4 */;\n', [
      '/*!40101 SET NAMES utf8mb4 */',
    ]);
  });

  it('splits multi-line INSERTs and CRLF files with correct line numbers', () => {
    const text = "-- dump\r\nDROP TABLE IF EXISTS `t`;\r\nINSERT INTO `t` VALUES\r\n(1,'a\r\nb'),\r\n(2,'c;');\r\n\r\nUNLOCK TABLES;\r\n";
    for (const size of [0, 1, 2, 3, 5, 7]) {
      const out = split(text, size);
      expect(out.map((s) => [s.index, s.line, s.sql.toString()])).toEqual([
        [1, 2, 'DROP TABLE IF EXISTS `t`'],
        [2, 3, "INSERT INTO `t` VALUES\r\n(1,'a\r\nb'),\r\n(2,'c;')"],
        [3, 8, 'UNLOCK TABLES'],
      ]);
      expect(out.map((s) => s.end)).toEqual([
        text.indexOf(';') + 1,
        text.indexOf("');") + 3,
        text.lastIndexOf(';') + 1,
      ]);
    }
  });

  it('handles DELIMITER lines (triggers and routines)', () => {
    const text = [
      'DELIMITER ;;',
      '/*!50003 CREATE*/ /*!50003 TRIGGER trg BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; SET NEW.b = 2; END */;;',
      'delimiter $$',
      "CREATE PROCEDURE p() BEGIN SELECT ';;'; END$$",
      'DELIMITER ;',
      'SELECT 1;',
      'SELECT 2',
    ].join('\n');
    expectSplit(text, [
      '/*!50003 CREATE*/ /*!50003 TRIGGER trg BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; SET NEW.b = 2; END */',
      "CREATE PROCEDURE p() BEGIN SELECT ';;'; END",
      'SELECT 1',
      'SELECT 2',
    ]);
    expect(split(text).map((s) => s.line)).toEqual([2, 4, 6, 7]);
  });

  it('treats DELIMITER inside a string or later in a statement as text', () => {
    expectSplit("INSERT INTO t VALUES ('x\nDELIMITER ;;\ny');\nSELECT 'a' AS delimiter ;", [
      "INSERT INTO t VALUES ('x\nDELIMITER ;;\ny')",
      "SELECT 'a' AS delimiter",
    ]);
  });

  it('reports a DELIMITER line without an argument', () => {
    const out = split('SELECT 1;\nDELIMITER\nSELECT 2;');
    expect(out.map((s) => [s.sql.toString(), s.line, s.problem])).toEqual([
      ['SELECT 1', 1, undefined],
      ['DELIMITER', 2, 'DELIMITER needs an argument (e.g. DELIMITER ;;)'],
      ['SELECT 2', 3, undefined],
    ]);
  });

  it('reports a file that ends inside a string or comment', () => {
    const out = split("SELECT 1;\nINSERT INTO t VALUES ('abc);\nSELECT 2;\n", 4);
    expect(out).toHaveLength(2);
    expect(out[1]).toMatchObject({ index: 2, line: 2, problem: 'the file ends inside a string opened at line 2' });
    expect(split('SELECT /* open\n')[0]?.problem).toBe('the file ends inside a comment opened at line 1');
    expect(split('SELECT 1; /* a trailing unterminated comment')).toHaveLength(1);
  });

  it('keeps the bytes of binary strings as they are', () => {
    const bytes = Buffer.concat([Buffer.from("INSERT INTO b VALUES ('"), Buffer.from([0x00, 0xff, 0xfe, 0x3b]), Buffer.from("');")]);
    for (const size of [0, 1, 3]) expect(split(bytes, size)[0]?.sql).toEqual(bytes.subarray(0, bytes.length - 1));
  });

  it('splits a statement cut at every possible chunk boundary the same way', () => {
    const text =
      "/*!40000 ALTER TABLE `t` DISABLE KEYS */;\nINSERT INTO `t` VALUES (1,'O\\'Brien; -- x'),(2,'/* no */'),(3,'#');\n" +
      "-- comment\n/*!40000 ALTER TABLE `t` ENABLE KEYS */;\nDELIMITER ;;\nSELECT 1;;\nDELIMITER ;\nSELECT 'end';";
    const whole = texts(text);
    expect(whole).toHaveLength(5);
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const s = new StatementSplitter();
      const got = [...s.push(bytes.subarray(0, cut)), ...s.push(bytes.subarray(cut)), ...s.end()].map((x) => x.sql.toString());
      expect(got, `cut at ${cut}`).toEqual(whole);
    }
  });

  it('throws SplitError when a statement grows beyond the limit', () => {
    expect(() => split("SELECT 'unterminated " + 'x'.repeat(100), 10, 64)).toThrow(SplitError);
    expect(() => split("SELECT 'unterminated " + 'x'.repeat(100), 10, 64)).toThrow(/line 1 is longer than/);
  });
});
