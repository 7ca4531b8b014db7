import { describe, expect, it } from 'vitest';
import { shownText } from '../../../src/sql/session/statement-control.js';

describe('PROCESSLIST Info text', () => {
  it('hides the literals of statements that may carry a password', () => {
    expect(shownText("CREATE USER 'app'@'%' IDENTIFIED BY 's3cret'")).not.toContain('s3cret');
    expect(shownText("SET PASSWORD FOR app = 'hunter2'")).not.toContain('hunter2');
    expect(shownText("ALTER USER app IDENTIFIED BY 'x'")).toMatch(/ALTER USER/);
  });

  it('shows other statements as sent', () => {
    expect(shownText("SELECT * FROM t WHERE name = 'ada'")).toBe("SELECT * FROM t WHERE name = 'ada'");
    expect(shownText(null)).toBeNull();
  });
});
